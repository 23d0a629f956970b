// SPDX-License-Identifier: MIT
#include "core/analysis/transferbounds.h"

#include "core/analysis/bounds.h"
#include "core/analysis/levels.h"
#include "core/costmodel/sharedlinks.h"

#include <algorithm>
#include <map>

namespace sl {

namespace {

using DeviceSets = std::vector<std::vector<int>>;

/// Every op may run on every device with one duration: co-locating is always possible and no
/// transfer is forced, so the transfer-aware critical path is the plain one.
bool placementFreeAndUniform(const Problem& p) {
    if (!p.pins.empty()) return false;
    for (const Device& d : p.platform.devices)
        if (d.machineType != p.platform.devices.front().machineType) return false;
    const Graph& g = p.g();
    for (OpId v = 0; v < g.opCount(); ++v)
        if (!g.op(v).deviceDurations.empty()) return false;
    return true;
}

bool disjoint(const std::vector<int>& a, const std::vector<int>& b) {
    return std::none_of(a.begin(), a.end(), [&](int d) { return std::find(b.begin(), b.end(), d) != b.end(); });
}

/// finish[v][i]: the earliest op v can end on its i-th allowed device.
std::vector<std::vector<double>> earliestFinishes(const Problem& p, const DeviceSets& allowed) {
    const Graph& g = p.g();
    std::vector<std::vector<double>> finish(static_cast<size_t>(g.opCount()));
    for (const OpId v : g.topologicalOrder()) {
        const std::vector<int>& devices = allowed[static_cast<size_t>(v)];
        std::vector<double> start(devices.size(), 0.0);
        for (const TensorId t : g.inputs(v)) {
            const Tensor& tensor = g.tensor(t);
            if (tensor.producer == kNoOp) continue;
            const std::vector<int>& from = allowed[static_cast<size_t>(tensor.producer)];
            const std::vector<double>& made = finish[static_cast<size_t>(tensor.producer)];
            for (size_t j = 0; j < devices.size(); ++j) {
                double arrival = kInfinity;
                for (size_t i = 0; i < from.size(); ++i)
                    arrival = std::min(arrival, made[i] + p.platform.transferTime(from[i], devices[j], tensor.bytes));
                start[j] = std::max(start[j], arrival);
            }
        }
        std::vector<double>& own = finish[static_cast<size_t>(v)];
        own.resize(devices.size());
        for (size_t j = 0; j < devices.size(); ++j) own[j] = start[j] + g.durationOn(v, devices[j]);
    }
    return finish;
}

/// The links every route from a device of `from` to one of `to` crosses, and the shortest
/// transfer time of `bytes` over those pairs.
std::vector<int> commonLinks(const Platform& platform, const std::vector<int>& from, const std::vector<int>& to,
                             double bytes, double& shortest) {
    std::vector<int> common;
    shortest = kInfinity;
    bool first = true;
    for (const int a : from)
        for (const int b : to) {
            std::vector<int> route = platform.topology.route(a, b);
            std::sort(route.begin(), route.end());
            if (first)
                common = std::move(route);
            else {
                std::vector<int> kept;
                std::set_intersection(common.begin(), common.end(), route.begin(), route.end(),
                                      std::back_inserter(kept));
                common = std::move(kept);
            }
            first = false;
            shortest = std::min(shortest, platform.transferTime(a, b, bytes));
        }
    return common;
}

/// Jackson's bound per link over the transfers every placement sends across it (one per tensor
/// and link: a tensor's consumers may share a destination).
double busiestLinkBound(const Problem& p, const DeviceSets& allowed, const std::vector<double>& earliestFinish) {
    const Graph& g = p.g();
    std::vector<double> minDurations(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) minDurations[static_cast<size_t>(v)] = minDuration(g, p.platform, v);
    const std::vector<double> tails = bottomLevels(g, minDurations);   // from an op's start to the end
    std::vector<std::vector<HeadTailOp>> onLink(p.platform.topology.links.size());
    for (TensorId t = 0; t < g.tensorCount(); ++t) {
        const Tensor& tensor = g.tensor(t);
        if (tensor.producer == kNoOp) continue;
        const std::vector<int>& from = allowed[static_cast<size_t>(tensor.producer)];
        std::map<int, HeadTailOp> forced;   // by link
        for (const OpId c : tensor.consumers) {
            const std::vector<int>& to = allowed[static_cast<size_t>(c)];
            if (!disjoint(from, to)) continue;
            double shortest = 0;
            for (const int link : commonLinks(p.platform, from, to, tensor.bytes, shortest)) {
                const HeadTailOp transfer{earliestFinish[static_cast<size_t>(tensor.producer)], shortest,
                                          tails[static_cast<size_t>(c)]};
                const auto [it, added] = forced.emplace(link, transfer);
                if (!added) {
                    it->second.duration = std::min(it->second.duration, shortest);
                    it->second.tail = std::min(it->second.tail, transfer.tail);
                }
            }
        }
        for (const auto& [link, transfer] : forced) onLink[static_cast<size_t>(link)].push_back(transfer);
    }
    double bound = 0;
    for (std::vector<HeadTailOp>& transfers : onLink)
        if (!transfers.empty()) bound = std::max(bound, jacksonPreemptiveBound(std::move(transfers)));
    return bound;
}

}   // namespace

std::vector<int> allowedDevices(const Problem& p, OpId v) {
    const int pinned = p.pins.of(v).device;
    if (pinned >= 0) return {pinned};
    std::vector<int> devices;
    for (int d = 0; d < p.platform.deviceCount(); ++d)
        if (p.platform.devices[static_cast<size_t>(d)].machineType == p.g().op(v).machineType) devices.push_back(d);
    return devices;
}

TransferBounds transferBounds(const Problem& p) {
    const Graph& g = p.g();
    TransferBounds b;
    if (g.opCount() == 0 || p.platform.deviceCount() == 0) return b;
    if (placementFreeAndUniform(p)) {
        b.criticalPath = criticalPathBound(p);
        return b;
    }
    DeviceSets allowed(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) allowed[static_cast<size_t>(v)] = allowedDevices(p, v);
    const std::vector<std::vector<double>> finish = earliestFinishes(p, allowed);
    std::vector<double> earliestFinish(static_cast<size_t>(g.opCount()), kInfinity);
    for (OpId v = 0; v < g.opCount(); ++v) {
        const std::vector<double>& f = finish[static_cast<size_t>(v)];
        if (f.empty()) continue;   // no device of its type: Platform::checkCompatible reports it
        earliestFinish[static_cast<size_t>(v)] = *std::min_element(f.begin(), f.end());
        b.criticalPath = std::max(b.criticalPath, earliestFinish[static_cast<size_t>(v)]);
    }
    if (linksShared(p.platform)) b.busiestLink = busiestLinkBound(p, allowed, earliestFinish);
    return b;
}

}   // namespace sl
