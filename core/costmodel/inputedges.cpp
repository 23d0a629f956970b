// SPDX-License-Identifier: MIT
#include "core/costmodel/inputedges.h"

#include <utility>

namespace sl {

InputEdges inputEdgesInRounds(const Graph& g, int laneBits) {
    // Round of each entry: how many entries of its tensor come before it in op order.
    std::vector<int> seen(static_cast<size_t>(g.tensorCount()), 0);
    std::vector<int> round;
    std::vector<size_t> perRound;
    for (OpId v = 0; v < g.opCount(); ++v)
        for (TensorId t : g.inputs(v)) {
            const int r = seen[static_cast<size_t>(t)]++;
            round.push_back(r);
            if (static_cast<size_t>(r) >= perRound.size()) perRound.push_back(0);
            ++perRound[static_cast<size_t>(r)];
        }
    size_t start = 0;
    for (size_t& count : perRound) start += std::exchange(count, start);
    InputEdges edges;
    edges.slot.resize(round.size());
    edges.op.resize(round.size());
    size_t e = 0;
    for (OpId v = 0; v < g.opCount(); ++v)
        for (TensorId t : g.inputs(v)) {
            const size_t at = perRound[static_cast<size_t>(round[e++])]++;
            edges.slot[at] = static_cast<std::int64_t>(t) << laneBits;
            edges.op[at] = v;
        }
    return edges;
}

} // namespace sl
