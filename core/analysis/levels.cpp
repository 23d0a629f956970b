// SPDX-License-Identifier: MIT
#include "core/analysis/levels.h"

#include <algorithm>
#include <numeric>

namespace sl {

double meanDuration(const Op& op) {
    if (op.deviceDurations.empty()) return op.duration;
    return std::accumulate(op.deviceDurations.begin(), op.deviceDurations.end(), 0.0) /
           static_cast<double>(op.deviceDurations.size());
}

double minDuration(const Graph& g, const Platform& platform, OpId v) {
    const Op& op = g.op(v);
    if (op.deviceDurations.empty()) return op.duration;
    double best = kInfinity;
    for (int d = 0; d < platform.deviceCount(); ++d)
        if (platform.devices[static_cast<size_t>(d)].machineType == op.machineType &&
            static_cast<size_t>(d) < op.deviceDurations.size())
            best = std::min(best, op.deviceDurations[static_cast<size_t>(d)]);
    return best == kInfinity ? op.duration : best;
}

std::vector<double> bottomLevels(const Graph& g, const std::vector<double>& durations) {
    std::vector<double> bl(static_cast<size_t>(g.opCount()), 0.0);
    const auto& topo = g.topologicalOrder();
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        double tail = 0;
        for (OpId s : g.successors(*it)) tail = std::max(tail, bl[static_cast<size_t>(s)]);
        bl[static_cast<size_t>(*it)] = durations[static_cast<size_t>(*it)] + tail;
    }
    return bl;
}

std::vector<double> bottomLevels(const Graph& g) {
    std::vector<double> d(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) d[static_cast<size_t>(v)] = meanDuration(g.op(v));
    return bottomLevels(g, d);
}

std::vector<double> topLevels(const Graph& g, const std::vector<double>& durations) {
    std::vector<double> tl(static_cast<size_t>(g.opCount()), 0.0);
    for (OpId v : g.topologicalOrder())
        for (OpId p : g.predecessors(v))
            tl[static_cast<size_t>(v)] =
                std::max(tl[static_cast<size_t>(v)], tl[static_cast<size_t>(p)] + durations[static_cast<size_t>(p)]);
    return tl;
}

std::vector<int> remainingOpCounts(const Graph& g) {
    std::vector<int> count(static_cast<size_t>(g.opCount()), 1);
    const auto& topo = g.topologicalOrder();
    for (auto it = topo.rbegin(); it != topo.rend(); ++it)
        for (OpId s : g.successors(*it))
            count[static_cast<size_t>(*it)] = std::max(count[static_cast<size_t>(*it)], 1 + count[static_cast<size_t>(s)]);
    return count;
}

std::vector<int> depths(const Graph& g) {
    std::vector<int> depth(static_cast<size_t>(g.opCount()), 0);
    for (OpId v : g.topologicalOrder())
        for (OpId p : g.predecessors(v))
            depth[static_cast<size_t>(v)] = std::max(depth[static_cast<size_t>(v)], depth[static_cast<size_t>(p)] + 1);
    return depth;
}

} // namespace sl
