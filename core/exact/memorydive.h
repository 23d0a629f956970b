// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A greedy completion of a partial single-device order (exact-memory's anytime dives): from an op
/// set, repeatedly run the ready op that grows the live bytes least (frees the most), then the one
/// with the smallest step, then the lowest id. O(ops x ready x readers) per dive.

#include "core/exact/setmemory.h"
#include "core/graph/graph.h"

#include <cstdint>
#include <vector>

namespace sl {

class GreedyMemoryDive {
public:
    /// `memory` (the search's cost rules) must outlive this object.
    explicit GreedyMemoryDive(const SetStepMemory& memory, const Graph& g) : m_memory(memory), m_g(g) {}
    /// The ops outside `set` (one bit per op; a down-set of the DAG) in the greedy order.
    std::vector<OpId> complete(const std::uint64_t* set);

private:
    bool done(OpId v) const { return (m_done[static_cast<size_t>(v) >> 6] >> (v & 63)) & 1u; }
    void mark(OpId v) { m_done[static_cast<size_t>(v) >> 6] |= std::uint64_t{1} << (v & 63); }
    double liveGrowth(OpId v);
    void run(OpId v, std::vector<OpId>& ready);

    const SetStepMemory& m_memory;
    const Graph& m_g;
    std::vector<std::uint64_t> m_done;   ///< the set plus the ops the dive ran
    std::vector<int> m_waitingFor;       ///< per op: predecessors still to run
};

} // namespace sl
