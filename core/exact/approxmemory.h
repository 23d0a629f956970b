// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The approximate DP of Gagrani et al. (Topoformer, NeurIPS 2022, §5 and App. C.3) for the
/// single-device step-clock peak memory: a breadth-wise DP over the sets of scheduled ops that
/// keeps the K best sets per step.
///
/// Level t holds sets of t ops (level 0: the empty set). Each set of a level is extended by each of
/// its ready ops; successors that are the same set merge, keeping the lowest partial peak (the
/// running maximum of the step memory) and the step that reached it; the K best by (partial peak,
/// live bytes, first generated) make the next level. The live bytes after a set depend on the set
/// only, so with K at least the widest level the DP is exact. Costs follow SetStepMemory
/// (core/exact/setmemory.h), the rules of exact-memory and StepMemory (keepOutputs = false).
///
/// The incumbent is the best classic order (bestClassicMemoryOrder); successors whose partial peak
/// reaches its peak are dropped, and when that empties a level the incumbent is returned: the
/// result is never worse than it.
///
/// Choices beyond the paper (docs/heuristics.md): only the current level's sets are stored (K
/// bitsets of n bits, with their ready ops as bitsets too); earlier levels keep a back-pointer and
/// an action per set in a shared tree whose unreachable nodes are swept from time to time. A kept
/// set costs two n-bit copies; the rest of its work is proportional to its ready ops (and the
/// readers of their inputs), not to n. Sets are hashed by XOR of per-op keys and compared in full
/// on a hash match, so merging is exact.

#include "core/graph/graph.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace sl {

struct ApproxMemoryOptions {
    int beamWidth = 10'000;   ///< K: sets kept per level
    double timeLimit = 0;     ///< seconds; 0 = none
};

struct ApproxMemoryResult {
    std::vector<OpId> order;    ///< the DP's order, or the incumbent's when that is not beaten
    double peak = 0;            ///< its step-clock peak
    double incumbentPeak = 0;   ///< the best classic order's peak
    bool fromDp = false;        ///< the DP's order is strictly better than the incumbent
    bool beamFull = false;      ///< some level had more than K sets (then the result may not be optimal)
    bool optimal = false;       ///< the beam never dropped a set and the DP finished: `peak` is the minimum
    bool cancelled = false;
    bool timedOut = false;
    int levels = 0;              ///< levels completed (opCount() when the DP finished)
    std::int64_t expanded = 0;   ///< sets expanded
    std::string note;            ///< K, whether the beam was full, which order is returned
};

/// `progress(levelsDone, incumbentPeak)` is called after each level (may be empty).
ApproxMemoryResult approximateMinimumMemory(const Graph& g, const ApproxMemoryOptions& options,
                                            std::stop_token stop = {},
                                            const std::function<void(std::int64_t, double)>& progress = {});

}   // namespace sl
