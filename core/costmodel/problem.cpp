// SPDX-License-Identifier: MIT
#include "core/costmodel/problem.h"

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
    if (!pins.empty())
        if (const std::string why = pinsError(*graph, platform, pins); !why.empty()) throw GraphError("pins: " + why);
}

} // namespace sl
