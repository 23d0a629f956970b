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

void Platform::checkCompatible(const Graph& g) const {
    if (devices.empty()) throw GraphError("the platform has no devices");
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
