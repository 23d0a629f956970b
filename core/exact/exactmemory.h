// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Minimum step-clock peak memory of a single-device total order (Topoformer's objective, Gagrani
/// et al. 2022, §3.2): a best-first search over the sets of scheduled ops (the down-sets of the
/// DAG; the state of the paper's DP baselines, App. C.3; docs/heuristics.md, "Choices where the
/// papers are silent").
///
/// The memory live after a prefix depends only on its op set X, and the partial peak never
/// decreases along a path, so a Dijkstra-like search by partial peak (ties: larger sets first)
/// reaches the full set first along an optimal order. States at or above the incumbent (the best of
/// the XLA-list, DFS and post-order heuristics) are pruned. The search is bounded in states and
/// time; when it gives up it returns the incumbent and says so.

#include "core/graph/graph.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace sl {

struct ExactMemoryLimits {
    std::int64_t maxStates = 2'000'000;   ///< distinct op sets stored
    double timeLimit = 10;                ///< seconds; 0 = none
};

struct ExactMemoryResult {
    std::vector<OpId> order;   ///< best order found (optimal when `optimal`)
    double peak = 0;           ///< its step-clock peak (StepMemory, keepOutputs = false)
    bool optimal = false;
    bool cancelled = false;
    std::int64_t states = 0;   ///< op sets stored
    std::int64_t expanded = 0;
    std::string note;          ///< why it stopped early, empty when optimal
};

/// `progress(expanded, incumbentPeak)` is called every few thousand expansions (may be empty).
ExactMemoryResult exactMinimumMemory(const Graph& g, const ExactMemoryLimits& limits, std::stop_token stop = {},
                                     const std::function<void(std::int64_t, double)>& progress = {});

} // namespace sl
