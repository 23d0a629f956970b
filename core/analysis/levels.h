// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Static levels of a finalized graph, the raw material of list-scheduling priorities and bounds.
/// All functions are O(V + E) over Graph::topologicalOrder() and ignore communication.

#include "core/graph/graph.h"
#include "core/platform/platform.h"

#include <vector>

namespace sl {

/// Mean of the op's per-device durations, or `duration` when it has no table.
double meanDuration(const Op& op);
/// Shortest duration of `v` on any device of `platform` that can run it (its machine type);
/// `duration` when it has no table.
double minDuration(const Graph& g, const Platform& platform, OpId v);

/// Bottom level: the op's own duration plus the longest path (by duration) to a sink, with
/// `durations[v]` per op. This is the list-cp priority (Jeon et al. 2023, App. D; inclusive of the
/// op itself: docs/heuristics.md, "Choices where the papers are silent").
std::vector<double> bottomLevels(const Graph& g, const std::vector<double>& durations);
/// Bottom levels over mean durations.
std::vector<double> bottomLevels(const Graph& g);
/// Top level: the longest path (by duration) from a source to the op's start, exclusive of it.
std::vector<double> topLevels(const Graph& g, const std::vector<double>& durations);
/// Number of ops on the longest path from the op to a sink, the op included (list-mopnr).
std::vector<int> remainingOpCounts(const Graph& g);
/// Depth of every op: 0 for sources, 1 + max depth of its predecessors otherwise.
std::vector<int> depths(const Graph& g);

} // namespace sl
