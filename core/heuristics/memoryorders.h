// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Single-device total orders meant to keep the step-clock peak memory low: Topoformer's
/// depth/breadth-first sequencing baselines (Gagrani et al. 2022, §5) and XLA's memory schedulers
/// (docs/heuristics.md, "Choices where the papers are silent"). Every function returns a
/// topological order of all ops of a finalized graph and is deterministic; O(V + E) unless noted.

#include "core/graph/graph.h"

#include <vector>

namespace sl {

/// Kahn's algorithm with a LIFO stack: the most recently enabled op runs next, so branches run to
/// completion (DFS sequencing). Newly ready successors are pushed so the smallest id pops first.
std::vector<OpId> dfsOrder(const Graph& g);
/// Kahn's algorithm with a FIFO queue (BFS sequencing).
std::vector<OpId> bfsOrder(const Graph& g);
/// XLA's DFSMemoryScheduler: post-order from the sinks, visiting operands by decreasing
/// transitive extra users, then decreasing transitive output size, then id.
std::vector<OpId> postOrder(const Graph& g);
/// XLA's ListMemoryScheduler: greedily runs the ready op with the largest
/// (bytes freed - bytes allocated), ties by more consumers, then smaller id. O((V + E) log V).
std::vector<OpId> xlaListOrder(const Graph& g);

} // namespace sl
