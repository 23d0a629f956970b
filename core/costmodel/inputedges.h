// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The input edges of a graph as one flat list, for the memory clocks' per-edge passes
/// (StepMemory::peakOfOrder, TimeMemory): each (tensor, consuming op) entry of Graph::inputs(),
/// ordered in rounds: every tensor's first consumer entry, then every tensor's second one, and so
/// on. Updates of one tensor's slots then lie a whole round apart; in op order, fan-out to
/// consecutive ops put them next to each other, and the CPU's speculative loads kept colliding
/// with pending stores to the same slot (about the cost of a mispredicted branch each).
/// O(E + largest fan-in of a tensor), by a counting sort on the round.

#include "core/graph/graph.h"

#include <cstdint>
#include <vector>

namespace sl {

struct InputEdges {
    std::vector<std::int64_t> slot;   ///< per edge: its tensor << laneBits (the tensor's first lane)
    std::vector<OpId> op;             ///< per edge: the consuming op
};

InputEdges inputEdgesInRounds(const Graph& g, int laneBits);

} // namespace sl
