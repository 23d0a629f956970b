// SPDX-License-Identifier: MIT
#include "core/platform/platform.h"

#include <algorithm>

namespace sl {

Platform Platform::identical(int n, double memoryCapacity) {
    Platform p;
    for (int i = 0; i < n; ++i) p.devices.push_back({"dev" + std::to_string(i), 0, memoryCapacity, 1});
    return p;
}

std::vector<std::vector<int>> Platform::devicesByType() const {
    std::vector<std::vector<int>> byType;
    for (int d = 0; d < deviceCount(); ++d) {
        const auto t = static_cast<size_t>(devices[static_cast<size_t>(d)].machineType);
        if (byType.size() <= t) byType.resize(t + 1);
        byType[t].push_back(d);
    }
    return byType;
}

void Topology::finalize(int n) {
    if (routes.size() != static_cast<size_t>(n) * static_cast<size_t>(n))
        throw GraphError("the topology routes " + std::to_string(routes.size()) + " device pairs; " + std::to_string(n) +
                         " devices need " + std::to_string(n * n));
    for (const Link& l : links)
        if (!(l.latency >= 0) || !(l.bandwidth > 0))
            throw GraphError("link '" + l.name + "' needs latency >= 0 and bandwidth > 0");
    m_n = n;
    m_latency.assign(routes.size(), 0.0);
    m_bandwidth.assign(routes.size(), kInfinity);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            const size_t at = static_cast<size_t>(a * n + b);
            const std::string pair = "devices " + std::to_string(a) + " -> " + std::to_string(b);
            if (a == b) {
                if (!routes[at].empty()) throw GraphError("the topology routes a device to itself (" + pair + ")");
                continue;
            }
            if (routes[at].empty()) throw GraphError("the topology has no path between " + pair);
            for (int id : routes[at]) {
                if (id < 0 || id >= static_cast<int>(links.size()))
                    throw GraphError("the route between " + pair + " names link #" + std::to_string(id) + ", which does not exist");
                m_latency[at] += links[static_cast<size_t>(id)].latency;
                m_bandwidth[at] = std::min(m_bandwidth[at], links[static_cast<size_t>(id)].bandwidth);
            }
        }
}

bool Platform::transfersFree() const {
    if (topology.empty()) return link.free();
    for (int a = 0; a < deviceCount(); ++a)
        for (int b = 0; b < deviceCount(); ++b)
            if (a != b && (topology.pairLatency(a, b) != 0 || topology.pairBandwidth(a, b) != kInfinity)) return false;
    return true;
}

double Platform::meanTransferTime(double bytes) const {
    const int n = deviceCount();
    if (n < 2) return 0;
    if (topology.empty()) return link.transferTime(bytes);
    double sum = 0;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) sum += transferTime(a, b, bytes);
    return sum / (static_cast<double>(n) * (n - 1));
}

double Platform::maxTransferTime(double bytes) const {
    const int n = deviceCount();
    if (n < 2) return 0;
    if (topology.empty()) return link.transferTime(bytes);
    double longest = 0;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) longest = std::max(longest, transferTime(a, b, bytes));
    return longest;
}

void Platform::checkCompatible(const Graph& g) const {
    if (devices.empty()) throw GraphError("the platform has no devices");
    if (!topology.empty() && topology.routes.size() != static_cast<size_t>(deviceCount()) * static_cast<size_t>(deviceCount()))
        throw GraphError("the topology routes " + std::to_string(topology.routes.size()) + " device pairs for " +
                         std::to_string(deviceCount()) + " devices");
    if (link.latency < 0 || !(link.bandwidth > 0))
        throw GraphError("the interconnect needs latency >= 0 and bandwidth > 0");
    const auto byType = devicesByType();
    for (OpId v = 0; v < g.opCount(); ++v) {
        const Op& o = g.op(v);
        const auto t = static_cast<size_t>(o.machineType);
        if (t >= byType.size() || byType[t].empty())
            throw GraphError("op '" + o.name + "' needs machine type " + std::to_string(o.machineType) +
                             " but the platform has no device of that type");
        const bool fits = std::any_of(byType[t].begin(), byType[t].end(), [&](int d) {
            return devices[static_cast<size_t>(d)].resourceCapacity >= o.resourceDemand;
        });
        if (!fits)
            throw GraphError("op '" + o.name + "' demands " + std::to_string(o.resourceDemand) +
                             " resource units, more than any device of its machine type offers");
        if (!o.deviceDurations.empty() && static_cast<int>(o.deviceDurations.size()) != deviceCount())
            throw GraphError("op '" + o.name + "' has " + std::to_string(o.deviceDurations.size()) +
                             " per-device durations for " + std::to_string(deviceCount()) + " devices");
    }
}

} // namespace sl
