// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Lower bounds on the step-clock peak of any single-device order that starts with a given op set
/// (exact-memory's search order, docs/heuristics.md). For a set X with live bytes L:
///  - the next step holds L plus its op's outputs and parameters: L + min over ready v of those;
///  - a remaining op v holds its footprint and the tensors cut by v (made by an ancestor, read by a
///    descendant: core/analysis/bounds.h, opCutBounds), and besides those every tensor live now
///    whose producer is not an ancestor of v but that a descendant of v still reads;
///  - a remaining op v holds its order cut bound (core/analysis/ordercut.h: the least memory live
///    at v's step over every order), a static bound on every order;
///  - the remaining op with the largest order cut bound holds its least step over the orders that
///    start with the set (the same min-cut with the set's ops run before it: it sees the tensors
///    live now and the ops still to run, a max-flow per set).
/// The second is evaluated for the few remaining ops with the largest cut bound, the third for the
/// remaining op with the largest one (a maximum over some ops is still a bound; the two are not
/// added: both may count a tensor an op incomparable with v made). Graphs beyond kMaxReachOps ops use
/// the footprints alone.

#include "core/analysis/bounds.h"
#include "core/graph/graph.h"

#include <cstdint>
#include <vector>

namespace sl {

class MemoryStateBound {
public:
    static constexpr int kMaxReachOps = 16384;   ///< reachability takes ops^2 bits (2 x 32 MiB at the limit)
    static constexpr int kOpsChecked = 4;       ///< remaining ops whose live-tensor term is evaluated

    explicit MemoryStateBound(const Graph& g);

    /// The bound for the set `set` (one bit per op) with `live` bytes live after it, not counting
    /// the set's own partial peak (the caller takes the maximum with it).
    double bound(const std::uint64_t* set, double live) const;
    /// A bound on every order (the empty set's): orderCutBound from the structures above, the
    /// footprints alone beyond kMaxReachOps ops.
    double floor() const { return m_floor; }
    /// opReachability(g, true) and (g, false); empty beyond kMaxReachOps ops.
    const std::vector<OpBits>& after() const { return m_after; }
    const std::vector<OpBits>& before() const { return m_before; }

private:
    static std::vector<OpId> opsByBound(const std::vector<double>& bound);
    double nextStepBound(const std::uint64_t* set, double live) const;
    /// `largest`: the remaining op with the largest order cut bound.
    double remainingOpsBound(const std::uint64_t* set, OpId largest) const;
    double leastStepOf(OpId v, const std::uint64_t* set) const;
    std::vector<TensorId> liveTensors(const std::uint64_t* set) const;
    double liveTensorsKeptBy(OpId v, const std::uint64_t* set, const std::vector<TensorId>& live) const;

    const Graph& m_g;
    std::vector<OpBits> m_after, m_before;
    std::vector<double> m_opBound;    ///< opCutBounds, or the footprint
    std::vector<OpId> m_byBound;      ///< ops by m_opBound, largest first
    std::vector<double> m_orderBound;   ///< orderCutBounds, or m_opBound
    std::vector<OpId> m_byOrderBound;   ///< ops by m_orderBound, largest first
    std::vector<double> m_stepExtra;  ///< outputs + parameters
    double m_floor = 0;
};

} // namespace sl
