// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A critical path of a timed sl::ChainSchedule and its blocks, the raw material of the
/// neighbourhoods (Nowicki & Smutnicki 1996; Balas & Vazacopoulos 1998).
///
/// The path runs from an op starting at time 0 to an op ending at the makespan; each op on it
/// starts exactly when the one before it ends (plus the transfer, for a graph edge). A *block* is
/// a maximal run of path ops joined by chain edges: consecutive ops of one device. Where both a
/// chain edge and a graph edge are tight, the chain edge is taken (longer blocks, more moves).

#include "core/localsearch/chainschedule.h"

#include <vector>

namespace sl {

struct CriticalPath {
    std::vector<OpId> ops;   ///< first (starts at 0) to last (ends at the makespan)
    /// Index ranges [first, last] into `ops` of the blocks, in path order.
    struct Block {
        int first;
        int last;
        int size() const { return last - first + 1; }
    };
    std::vector<Block> blocks;
};

/// The critical path ending at the lowest-numbered op that ends at the makespan. `s` must be
/// timed (its last retime() finite). O(path length x inputs).
void criticalPath(const ChainSchedule& s, CriticalPath& out);

} // namespace sl
