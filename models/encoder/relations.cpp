// SPDX-License-Identifier: MIT
// The encoder's pair relations held compactly: edge lists and closure bitsets.
#include "models/encoder/relations.h"

#include <algorithm>
#include <stdexcept>

namespace sl::models {

namespace {

/// rows[v] |= rows[w] | {w} for every w in `next(v)`, visiting `order` (the closure along `next`).
template <class Next>
void closeOver(std::vector<std::uint64_t>& rows, std::size_t words, const std::vector<OpId>& order, Next next) {
    for (OpId v : order) {
        std::uint64_t* r = rows.data() + static_cast<std::size_t>(v) * words;
        for (OpId w : next(v)) {
            const std::uint64_t* rw = rows.data() + static_cast<std::size_t>(w) * words;
            for (std::size_t i = 0; i < words; ++i) r[i] |= rw[i];
            r[static_cast<std::size_t>(w) / 64] |= std::uint64_t{1} << (w % 64);
        }
    }
}

} // namespace

GraphRelations buildRelations(const Graph& g) {
    if (!g.finalized()) throw std::invalid_argument("buildRelations: the graph is not finalized");
    GraphRelations r;
    const int n = g.opCount();
    r.ops = n;
    r.words = (static_cast<std::size_t>(n) + 63) / 64;
    const std::size_t bits = static_cast<std::size_t>(n) * r.words;
    r.descendants.assign(bits, 0);
    r.ancestors.assign(bits, 0);
    const std::vector<OpId>& topo = g.topologicalOrder();
    const std::vector<OpId> reverseTopo(topo.rbegin(), topo.rend());
    closeOver(r.descendants, r.words, reverseTopo, [&](OpId v) { return g.successors(v); });
    closeOver(r.ancestors, r.words, topo, [&](OpId v) { return g.predecessors(v); });

    r.reductionPreds.resize(static_cast<std::size_t>(n));
    r.reductionSuccs.resize(static_cast<std::size_t>(n));
    r.redundantPreds.resize(static_cast<std::size_t>(n));
    r.redundantSuccs.resize(static_cast<std::size_t>(n));
    std::vector<std::uint64_t> viaOthers(r.words);
    for (OpId u = 0; u < n; ++u) {
        // u -> v is redundant iff a successor of u reaches v.
        std::fill(viaOthers.begin(), viaOthers.end(), 0);
        for (OpId w : g.successors(u)) {
            const std::uint64_t* rw = r.descendantRow(w);
            for (std::size_t i = 0; i < r.words; ++i) viaOthers[i] |= rw[i];
        }
        for (OpId v : g.successors(u)) {
            const bool redundant = (viaOthers[static_cast<std::size_t>(v) / 64] >> (v % 64)) & 1u;
            (redundant ? r.redundantSuccs : r.reductionSuccs)[static_cast<std::size_t>(u)].push_back(v);
            (redundant ? r.redundantPreds : r.reductionPreds)[static_cast<std::size_t>(v)].push_back(u);
        }
    }
    for (auto* lists : {&r.reductionPreds, &r.reductionSuccs, &r.redundantPreds, &r.redundantSuccs})
        for (auto& list : *lists) std::sort(list.begin(), list.end());
    return r;
}

} // namespace sl::models
