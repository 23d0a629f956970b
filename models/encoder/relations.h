// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The seven mask sets of the Topoformer encoder (Gagrani et al. 2022, §4.1) held compactly: the
/// DAG's direct edges as lists (split into transitive-reduction and redundant edges) and its strict
/// ancestors and descendants as bitsets. O(N^2 / 8) bytes instead of the dense masks' 4 N^2, so
/// that graphs of tens of thousands of ops fit (at 20,000 ops: 100 MB against 1.6 GB of masks and
/// 11 GB of float biases). buildMasks() derives the dense masks from it; attendByRelations() reads
/// it directly. Plain C++.

#include "core/graph/graph.h"

#include <cstdint>
#include <vector>

namespace sl::models {

struct GraphRelations {
    int ops = 0;
    std::size_t words = 0;   ///< 64-bit words per bitset row
    /// Row v: the ops strictly reachable from v (descendants) / from which v is reachable (ancestors).
    std::vector<std::uint64_t> descendants, ancestors;
    /// Direct edges into / out of each op, split by whether another path also joins the pair
    /// (redundant) or not (transitive reduction). Ascending ids.
    std::vector<std::vector<OpId>> reductionPreds, reductionSuccs, redundantPreds, redundantSuccs;

    const std::uint64_t* descendantRow(OpId v) const { return descendants.data() + static_cast<std::size_t>(v) * words; }
    const std::uint64_t* ancestorRow(OpId v) const { return ancestors.data() + static_cast<std::size_t>(v) * words; }
    /// True iff v is reachable from u (u != v).
    bool reaches(OpId u, OpId v) const { return (descendantRow(u)[static_cast<std::size_t>(v) / 64] >> (v % 64)) & 1u; }
};

/// Closure with bitsets in topological order, O(N * E / 64) time. Throws std::invalid_argument on
/// a graph that is not finalized.
GraphRelations buildRelations(const Graph& g);

} // namespace sl::models
