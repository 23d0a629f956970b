// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Minimum step-clock peak memory of a single-device total order (Topoformer's objective, Gagrani
/// et al. 2022, §3.2): a best-first search over the sets of scheduled ops (the down-sets of the
/// DAG; the state of the paper's DP baselines, App. C.3; docs/heuristics.md, "exact-memory").
///
/// The memory live after a prefix depends only on its op set X, and the partial peak never
/// decreases along a path, so a search by the partial peak reaches the full set first along an
/// optimal order. Before searching, a narrow approximate DP (core/exact/approxmemory.h) may
/// lower the incumbent or prove the optimum outright. Each set is ordered by a lower bound on any order through it
/// (MemoryStateBound: the tensors live now that a remaining op still reads), states at or above the
/// incumbent are pruned, and an op that raises neither the partial peak nor the live bytes is run
/// at once (a forced move: some optimal completion starts with it). Greedy dives from the open sets
/// improve the incumbent while the search runs. The search is bounded in memory (bytes of stored
/// sets), states and time; when it stops early it returns the best order found and the best bound
/// it proved (the cheapest open set). A graph with cut ops (every other op precedes or follows
/// them) is searched segment by segment (core/exact/ordersegments.h). Some optimal order runs
/// each delayed op just before its first reader (core/exact/delayedops.h) and a forced chain first
/// (docs/heuristics.md), so the search tries no other.

#include "core/graph/graph.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <stop_token>
#include <string>
#include <vector>

namespace sl {

struct ExactMemoryLimits {
    std::int64_t maxStates = std::numeric_limits<std::int32_t>::max();   ///< distinct op sets stored
    double maxBytes = 2.0 * 1024 * 1024 * 1024;   ///< memory for stored sets, their index and the open list
    double timeLimit = 10;                        ///< seconds; 0 = none
    /// K of the approximate DP run first as a second incumbent (mem-approx-dp); 0 = none.
    int incumbentBeam = 256;
    /// Search the segments of every order one by one (core/exact/ordersegments.h) instead of the
    /// whole graph at once; the same optimum.
    bool bySegments = true;
};

struct ExactMemoryResult {
    std::vector<OpId> order;   ///< best order found (optimal when `optimal`)
    double peak = 0;           ///< its step-clock peak (StepMemory, keepOutputs = false)
    bool optimal = false;      ///< proven: `peak` is the minimum
    /// What the run proved: no order has a lower peak. Equals `peak` when `optimal`; otherwise the
    /// cheapest open set's bound (never below the cut bound of core/analysis/bounds.h).
    double lowerBound = 0;
    bool cancelled = false;
    std::int64_t states = 0;   ///< op sets stored
    std::int64_t expanded = 0;
    std::int64_t forcedMoves = 0;    ///< sets expanded by one forced op alone or a forced chain
    std::int64_t forcedChains = 0;   ///< ... of those by a forced chain
    std::string note;          ///< why it stopped early, empty when optimal
};

/// `progress(expanded, incumbentPeak, provenBound)` is called every few thousand expansions (may
/// be empty); the bound is what the search has proved so far (it only rises).
using ExactMemoryProgress = std::function<void(std::int64_t, double, double)>;
ExactMemoryResult exactMinimumMemory(const Graph& g, const ExactMemoryLimits& limits, std::stop_token stop = {},
                                     const ExactMemoryProgress& progress = {});

} // namespace sl
