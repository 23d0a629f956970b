// SPDX-License-Identifier: MIT
#include "core/regal/actions.h"

#include "core/brkga/beta.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace sl::regal {

BetaShape shiftedBeta(int shift) {
    if (std::abs(shift) > kMaxShift)
        throw std::invalid_argument("REGAL action out of range: shift " + std::to_string(shift) + " (at most " +
                                    std::to_string(kMaxShift) + " either way)");
    if (shift == 0) return {1, 1};
    const double concentration = std::exp(std::abs(shift) * kShiftStep);
    return shift > 0 ? BetaShape{concentration, 1} : BetaShape{1, concentration};
}

Actions Actions::uniform(int ops, int devices) {
    Actions a;
    a.ops = ops;
    a.devices = devices;
    a.shift.assign(static_cast<std::size_t>(ops) * static_cast<std::size_t>(devices + 1), 0);
    return a;
}

int Actions::steered() const {
    return static_cast<int>(std::count_if(shift.begin(), shift.end(), [](std::int8_t s) { return s != 0; }));
}

void Actions::check() const {
    const auto expected = static_cast<std::size_t>(ops) * static_cast<std::size_t>(keyTypes());
    if (ops < 0 || devices < 1 || shift.size() != expected)
        throw std::invalid_argument("REGAL actions: expected " + std::to_string(expected) + " shifts");
    for (std::int8_t s : shift)
        if (std::abs(s) > kMaxShift) throw std::invalid_argument("REGAL actions: a shift out of range");
}

GeneShapes geneShapes(const RegalLayout& layout, const Actions& actions, LearnedKeys learned) {
    actions.check();
    if (actions.ops != layout.ops || actions.devices != layout.devices)
        throw std::invalid_argument("REGAL actions do not match the chromosome (ops or devices differ)");
    GeneShapes s;
    s.alpha.assign(layout.size(), 1.0);
    s.beta.assign(layout.size(), 1.0);
    for (OpId j = 0; j < layout.ops; ++j)
        for (int q = 0; q <= layout.devices; ++q) {
            const bool isPriority = q == layout.devices;
            if (isPriority ? !learned.scheduling : !learned.placement) continue;
            const BetaShape b = shiftedBeta(actions.shift[actions.index(j, q)]);
            const std::size_t gene = isPriority ? layout.priority(j) : layout.affinity(j, q);
            s.alpha[gene] = b.alpha;
            s.beta[gene] = b.beta;
        }
    return s;
}

brkga::Distributions geneDistributions(const RegalLayout& layout, const Actions& actions, LearnedKeys learned) {
    GeneShapes s = geneShapes(layout, actions, learned);
    brkga::Distributions d;
    d.mutant = brkga::perGeneBeta(std::move(s.alpha), std::move(s.beta));   // Uniform genes draw as plain BRKGA
    d.initial = d.mutant;
    return d;
}

} // namespace sl::regal
