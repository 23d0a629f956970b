// SPDX-License-Identifier: MIT
#include "core/costmodel/problem.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

std::string toString(Objective o) {
    switch (o) {
    case Objective::Makespan: return "makespan";
    case Objective::Memory: return "memory";
    case Objective::Weighted: return "both";
    }
    return "makespan";
}

Objective objectiveFromString(const std::string& s) {
    if (s == "makespan" || s == "time" || s == "runtime") return Objective::Makespan;
    if (s == "memory" || s == "peak-memory" || s == "peak") return Objective::Memory;
    if (s == "both" || s == "weighted") return Objective::Weighted;
    throw std::invalid_argument("unknown objective '" + s + "' (makespan, memory or both)");
}

void Problem::check() const {
    if (!graph) throw GraphError("no graph");
    if (!graph->finalized()) throw GraphError("the graph is not finalized");
    platform.checkCompatible(*graph);
}

double scalarCost(const Problem& p, double makespan, double peakMemory, std::span<const double> devicePeaks,
                  double makespanScale, double memoryScale) {
    const ObjectiveSpec& o = p.objective;
    switch (o.kind) {
    case Objective::Memory: return peakMemory;
    case Objective::Weighted:
        return (1 - o.memoryWeight) * makespan / std::max(makespanScale, 1e-300) +
               o.memoryWeight * peakMemory / std::max(memoryScale, 1e-300);
    case Objective::Makespan: break;
    }
    if (!o.enforceMemoryCapacity) return makespan;
    double excess = 0;
    for (size_t d = 0; d < devicePeaks.size() && d < p.platform.devices.size(); ++d) {
        const double cap = p.platform.devices[d].memoryCapacity;
        if (devicePeaks[d] > cap) excess += (devicePeaks[d] - cap) / cap;
    }
    if (excess == 0) return makespan;
    // Any infeasible schedule costs more than every feasible one (R_UB > any makespan).
    const double upper = 1 + p.graph->totalWork() * 2 + makespan;
    return upper * (1 + excess);
}

} // namespace sl
