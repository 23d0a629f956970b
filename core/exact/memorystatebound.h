// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Lower bounds on the step-clock peak of any single-device order that starts with a given op set
/// (exact-memory's search order, docs/heuristics.md). For a set X with live bytes L:
///  - the next step holds L plus its op's outputs and parameters: L + min over ready v of those;
///  - a remaining op v holds its footprint and the tensors cut by v (made by an ancestor, read by a
///    descendant: core/analysis/bounds.h, opCutBounds), and besides those every tensor live now
///    whose producer is not an ancestor of v but that a descendant of v still reads.
/// The second is evaluated for the few remaining ops with the largest cut bound (a maximum over
/// some ops is still a bound). Graphs beyond kMaxReachOps ops use the footprints alone.

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

private:
    double nextStepBound(const std::uint64_t* set, double live) const;
    double remainingOpsBound(const std::uint64_t* set) const;
    std::vector<TensorId> liveTensors(const std::uint64_t* set) const;
    double liveTensorsKeptBy(OpId v, const std::uint64_t* set, const std::vector<TensorId>& live) const;

    const Graph& m_g;
    std::vector<OpBits> m_after, m_before;
    std::vector<double> m_opBound;    ///< opCutBounds, or the footprint
    std::vector<OpId> m_byBound;      ///< ops by m_opBound, largest first
    std::vector<double> m_stepExtra;  ///< outputs + parameters
};

} // namespace sl
