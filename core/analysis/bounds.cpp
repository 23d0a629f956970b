// SPDX-License-Identifier: MIT
#include "core/analysis/bounds.h"

#include "core/analysis/levels.h"

#include <algorithm>
#include <map>

namespace sl {

double criticalPathBound(const Problem& p) {
    const Graph& g = p.g();
    std::vector<double> d(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) d[static_cast<size_t>(v)] = minDuration(g, p.platform, v);
    const std::vector<double> bl = bottomLevels(g, d);
    return bl.empty() ? 0.0 : *std::max_element(bl.begin(), bl.end());
}

double workBound(const Problem& p) {
    const Graph& g = p.g();
    std::map<int, double> work, capacity;
    for (OpId v = 0; v < g.opCount(); ++v)
        work[g.op(v).machineType] += minDuration(g, p.platform, v) * g.op(v).resourceDemand;
    for (const Device& d : p.platform.devices) capacity[d.machineType] += d.resourceCapacity;
    double bound = 0;
    for (const auto& [type, w] : work) {
        const double cap = capacity[type];
        if (cap > 0) bound = std::max(bound, w / cap);
    }
    return bound;
}

double footprintBound(const Graph& g) {
    double best = 0;
    for (OpId v = 0; v < g.opCount(); ++v) {
        double bytes = g.outputBytes(v) + g.op(v).paramBytes;
        for (TensorId t : g.inputs(v)) bytes += g.tensor(t).bytes;
        best = std::max(best, bytes);
    }
    return best;
}

LowerBounds lowerBounds(const Problem& p) {
    LowerBounds b;
    b.criticalPath = criticalPathBound(p);
    b.workPerDevice = workBound(p);
    b.makespan = std::max(b.criticalPath, b.workPerDevice);
    b.memory = footprintBound(p.g());
    return b;
}

} // namespace sl
