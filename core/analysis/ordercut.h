// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The least memory live at an op's step over every single-device order: a per-op lower bound on
/// the step-clock peak, tighter than the cut bound of core/analysis/bounds.h.
///
/// At the step of v, its ancestors have run, its descendants have not, and of the ops incomparable
/// with v some down-set D has run. A tensor other than v's inputs and outputs is live when its
/// producer has run and some reader has not. So the step holds v's footprint plus
///   min over down-sets D of the incomparable ops of (bytes of tensors made by ancestors or D and
///   read by a descendant or an op outside D),
/// a minimum-weight closure, computed as a minimum cut (one max-flow per op; Picard 1976). The cut
/// bound is the case where no incomparable op reads or makes a live tensor. On a data-parallel
/// MLP step this is what the plain cut misses: a weight's update holds the all-reduced gradient
/// or the gradient's returned copy, whichever order is chosen (docs/heuristics.md, "exact-memory").

#include "core/analysis/bounds.h"
#include "core/graph/graph.h"

#include <vector>

namespace sl {

/// Graphs above this many ops get the plain cut (one max-flow per op on up to ops + tensors nodes).
inline constexpr int kMaxOrderCutOps = 3000;

/// Per op v: footprint(v) plus the minimum live bytes above; `after` and `before` are
/// opReachability(g, true) and (g, false). Never below opCutBounds.
std::vector<double> orderCutBounds(const Graph& g, const std::vector<OpBits>& after, const std::vector<OpBits>& before);

/// footprint(v) plus the least live bytes at v's step over the orders in which the ops of `ran`
/// (closed under ancestors, v not in it) run before v.
double leastStepAfter(const Graph& g, OpId v, const OpBits& ran, const std::vector<OpBits>& after, const std::vector<OpBits>& before);

/// For two incomparable ops v and w, one of them runs second: the peak is at least the smaller of
/// "v's least step with w run before it" and the same with the roles swapped. The maximum of that
/// over the pairs among the `candidates` ops with the largest `opBounds`.
double pairCutBound(const Graph& g, const std::vector<OpBits>& after, const std::vector<OpBits>& before,
                    const std::vector<double>& opBounds, int candidates);

/// Ops of the largest order cut bounds whose pairs pairCutBound examines.
inline constexpr int kPairCandidates = 16;

/// max over v of orderCutBounds and pairCutBound, never below footprintBound(g); graphs above
/// kMaxOrderCutOps ops (or cutMemoryBound's own limit) get cutMemoryBound(g, 1).
double orderCutBound(const Graph& g);
/// The same from the reachability and orderCutBounds already computed (exact-memory's set bound
/// holds them).
double orderCutBound(const Graph& g, const std::vector<OpBits>& after, const std::vector<OpBits>& before,
                     const std::vector<double>& orderBounds);

} // namespace sl
