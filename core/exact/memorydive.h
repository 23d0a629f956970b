// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A greedy completion of a partial single-device order (exact-memory's anytime dives): from an op
/// set, repeatedly run the ready op that grows the live bytes least (frees the most), then the one
/// with the smallest step, then the lowest id. O(ops x ready + edges) per dive.

#include "core/graph/graph.h"

#include <cstdint>
#include <vector>

namespace sl {

class GreedyMemoryDive {
public:
    explicit GreedyMemoryDive(const Graph& g);
    /// The ops outside `set` (one bit per op; a down-set of the DAG) in the greedy order.
    std::vector<OpId> complete(const std::uint64_t* set);

private:
    double liveGrowth(OpId v) const;
    void run(OpId v, std::vector<OpId>& ready);

    const Graph& m_g;
    std::vector<std::vector<OpId>> m_readers;   ///< distinct reader ops per tensor
    std::vector<double> m_deadOutputs;          ///< per op: outputs nobody reads
    std::vector<int> m_unreadBy, m_waitingFor;  ///< per tensor: readers to run; per op: predecessors to run
};

} // namespace sl
