// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Warm-start chromosomes for the BRKGA optimizers: list heuristics' priorities as keys. (Which
/// objective values a cost needs and the weighted objective's scales are sl::CostFunction's.)

#include "core/graph/graph.h"

#include <vector>

namespace sl::brkga {

/// list-cp's priorities (sl::criticalPathPriorities) scaled into (0, 1]: the same order, hence the
/// same list schedule as list-cp. A warm-start chromosome for priority-only BRKGA.
std::vector<double> criticalPathKeys(const Graph& g);
/// Warm starts for brkga-order: list-cp's and list-mopnr's priorities, scaled into (0, 1].
std::vector<std::vector<double>> listHeuristicKeys(const Graph& g);

} // namespace sl::brkga
