// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Small pieces the BRKGA decoders share: which objective values a problem needs, the scales of
/// the weighted objective and critical-path priorities for warm starts.

#include "core/costmodel/problem.h"

#include <vector>

namespace sl::brkga {

/// True when the scalar cost needs the makespan (makespan and weighted objectives).
bool needsMakespan(const Problem& p);
/// True when the scalar cost needs peak memory: memory and weighted objectives, or makespan with
/// the capacity penalty on and some device of finite capacity.
bool needsMemory(const Problem& p);

/// Normalisers of the weighted objective (sl::scalarCost): makespan by max(critical path,
/// work / devices), memory by the largest single-op footprint (inputs + outputs + parameters).
struct ObjectiveScales {
    double makespan = 1;
    double memory = 1;
};
ObjectiveScales objectiveScales(const Problem& p);

/// Bottom level of every op: its duration plus the longest path to a sink (the list-cp
/// priority; per-device durations are averaged). O(V + E).
std::vector<double> bottomLevels(const Graph& g);

/// list-cp's priorities (sl::criticalPathPriorities) scaled into (0, 1]: the same order, hence the
/// same list schedule as list-cp. A warm-start chromosome for priority-only BRKGA.
std::vector<double> criticalPathKeys(const Graph& g);
/// Warm starts for brkga-order: list-cp's and list-mopnr's priorities, scaled into (0, 1].
std::vector<std::vector<double>> listHeuristicKeys(const Graph& g);

} // namespace sl::brkga
