// SPDX-License-Identifier: MIT
#include "core/brkga/decoderbasics.h"

#include "core/heuristics/priorities.h"

#include <algorithm>
#include <numeric>

namespace sl::brkga {

bool needsMakespan(const Problem& p) { return p.objective.kind != Objective::Memory; }

bool needsMemory(const Problem& p) {
    if (p.objective.kind != Objective::Makespan) return true;
    if (!p.objective.enforceMemoryCapacity) return false;
    return std::any_of(p.platform.devices.begin(), p.platform.devices.end(),
                       [](const Device& d) { return d.memoryCapacity != kInfinity; });
}

namespace {

double meanDuration(const Op& o) {
    if (o.deviceDurations.empty()) return o.duration;
    return std::accumulate(o.deviceDurations.begin(), o.deviceDurations.end(), 0.0) /
           static_cast<double>(o.deviceDurations.size());
}

} // namespace

std::vector<double> bottomLevels(const Graph& g) {
    std::vector<double> bl(static_cast<size_t>(g.opCount()), 0.0);
    const auto& topo = g.topologicalOrder();
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        double tail = 0;
        for (OpId s : g.successors(*it)) tail = std::max(tail, bl[static_cast<size_t>(s)]);
        bl[static_cast<size_t>(*it)] = meanDuration(g.op(*it)) + tail;
    }
    return bl;
}

namespace {

/// Rank keys n..1 scaled into (0, 1]: the same order, hence the same list schedule.
std::vector<double> scaled(std::vector<double> keys) {
    const double n = static_cast<double>(std::max<size_t>(keys.size(), 1));
    for (double& k : keys) k /= n;
    return keys;
}

} // namespace

std::vector<double> criticalPathKeys(const Graph& g) { return scaled(criticalPathPriorities(g)); }

std::vector<std::vector<double>> listHeuristicKeys(const Graph& g) {
    return {scaled(criticalPathPriorities(g)), scaled(mopnrPriorities(g))};
}

ObjectiveScales objectiveScales(const Problem& p) {
    const Graph& g = p.g();
    ObjectiveScales s;
    const std::vector<double> bl = bottomLevels(g);
    const double cp = bl.empty() ? 0 : *std::max_element(bl.begin(), bl.end());
    const double work = g.totalWork() / std::max(1, p.platform.deviceCount());
    s.makespan = std::max({cp, work, 1e-9});
    double footprint = 0;
    for (OpId v = 0; v < g.opCount(); ++v) {
        double bytes = g.outputBytes(v) + g.op(v).paramBytes;
        for (TensorId t : g.inputs(v)) bytes += g.tensor(t).bytes;
        footprint = std::max(footprint, bytes);
    }
    s.memory = std::max(footprint, 1.0);
    return s;
}

} // namespace sl::brkga
