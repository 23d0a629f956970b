// SPDX-License-Identifier: MIT
// The seven attention masks of the Topoformer encoder (Gagrani et al. 2022, §4.1): transitive
// closure and reduction from the compact relations (relations.h).
#include "models/encoder/encoder.h"
#include "models/encoder/relations.h"

#include <stdexcept>

namespace sl::models {

bool GraphMasks::has(MaskKind k, OpId u, OpId v) const {
    const auto at = [&](const std::vector<std::uint8_t>& m, OpId a, OpId b) {
        return m[static_cast<size_t>(a) * static_cast<size_t>(ops) + static_cast<size_t>(b)] != 0;
    };
    switch (k) {
    case MaskKind::Reduction: return at(reduction, u, v);
    case MaskKind::Redundant: return at(redundant, u, v);
    case MaskKind::ClosureRest: return at(closureRest, u, v);
    case MaskKind::ReductionBack: return at(reduction, v, u);
    case MaskKind::RedundantBack: return at(redundant, v, u);
    case MaskKind::ClosureRestBack: return at(closureRest, v, u);
    case MaskKind::Incomparable: return at(incomparable, u, v);
    }
    return false;
}

std::int64_t GraphMasks::count(MaskKind k) const {
    const std::vector<std::uint8_t>* m = nullptr;
    switch (k) {
    case MaskKind::Reduction:
    case MaskKind::ReductionBack: m = &reduction; break;
    case MaskKind::Redundant:
    case MaskKind::RedundantBack: m = &redundant; break;
    case MaskKind::ClosureRest:
    case MaskKind::ClosureRestBack: m = &closureRest; break;
    case MaskKind::Incomparable: m = &incomparable; break;
    }
    std::int64_t c = 0;
    for (std::uint8_t x : *m) c += x;
    return c;
}

GraphMasks buildMasks(const Graph& g) {
    if (!g.finalized()) throw std::invalid_argument("buildMasks: the graph is not finalized");
    checkEncoderSize(g);
    const GraphRelations r = buildRelations(g);
    const int n = g.opCount();
    GraphMasks m;
    m.ops = n;
    const size_t nn = static_cast<size_t>(n) * static_cast<size_t>(n);
    m.reduction.assign(nn, 0);
    m.redundant.assign(nn, 0);
    m.closureRest.assign(nn, 0);
    m.incomparable.assign(nn, 0);
    for (OpId u = 0; u < n; ++u) {
        const size_t base = static_cast<size_t>(u) * static_cast<size_t>(n);
        // Closure pairs first; direct edges are then moved to the reduction or redundant sets.
        for (OpId v = 0; v < n; ++v) {
            if (r.reaches(u, v)) m.closureRest[base + static_cast<size_t>(v)] = 1;
            else if (u != v && !r.reaches(v, u)) m.incomparable[base + static_cast<size_t>(v)] = 1;
        }
        for (OpId v : r.reductionSuccs[static_cast<size_t>(u)]) {
            m.closureRest[base + static_cast<size_t>(v)] = 0;
            m.reduction[base + static_cast<size_t>(v)] = 1;
        }
        for (OpId v : r.redundantSuccs[static_cast<size_t>(u)]) {
            m.closureRest[base + static_cast<size_t>(v)] = 0;
            m.redundant[base + static_cast<size_t>(v)] = 1;
        }
    }
    return m;
}

} // namespace sl::models
