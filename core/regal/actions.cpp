// SPDX-License-Identifier: MIT
#include "core/regal/actions.h"

#include "core/brkga/beta.h"

#include <stdexcept>
#include <string>

namespace sl::regal {

BetaShape dequantizeBeta(int m, int v, int k) {
    if (k < 1 || m < 0 || m >= k || v < 0 || v >= k)
        throw std::invalid_argument("REGAL action out of range: m = " + std::to_string(m) + ", v = " + std::to_string(v) +
                                    ", k = " + std::to_string(k));
    // App. A.2's method of moments in closed form: alpha + beta = (k - v) / (v + 1).
    const double concentration = static_cast<double>(k - v) / (v + 1);
    const double mu = static_cast<double>(m + 1) / (k + 1);
    return {mu * concentration, (1 - mu) * concentration};
}

double dequantizeRho(int c, int k) {
    if (k < 1 || c < 0 || c >= k) throw std::invalid_argument("REGAL elite-bias action out of range");
    return 0.5 * (1 + static_cast<double>(c) / k);
}

void Actions::check() const {
    const auto expected = static_cast<std::size_t>(ops) * static_cast<std::size_t>(keyTypes());
    if (ops < 0 || devices < 1 || k < 1 || mean.size() != expected || variance.size() != expected)
        throw std::invalid_argument("REGAL actions: expected " + std::to_string(expected) + " (m, v) pairs");
    if (!eliteBias.empty() && eliteBias.size() != static_cast<std::size_t>(ops))
        throw std::invalid_argument("REGAL actions: one elite bias per op");
    for (std::size_t i = 0; i < expected; ++i)
        if (mean[i] >= k || variance[i] >= k) throw std::invalid_argument("REGAL actions: (m, v) out of range");
}

GeneShapes geneShapes(const RegalLayout& layout, const Actions& actions, LearnedKeys learned, double defaultRho) {
    actions.check();
    if (actions.ops != layout.ops || actions.devices != layout.devices)
        throw std::invalid_argument("REGAL actions do not match the chromosome (ops or devices differ)");
    GeneShapes s;
    s.alpha.assign(layout.size(), 1.0);
    s.beta.assign(layout.size(), 1.0);
    s.rho.assign(layout.size(), defaultRho);
    const bool biased = !actions.eliteBias.empty();
    for (OpId j = 0; j < layout.ops; ++j) {
        const double rho = biased ? dequantizeRho(actions.eliteBias[static_cast<std::size_t>(j)], actions.kRho) : defaultRho;
        for (int q = 0; q <= layout.devices; ++q) {
            const bool isPriority = q == layout.devices;
            if (isPriority ? !learned.scheduling : !learned.placement) continue;
            const std::size_t a = actions.index(j, q);
            const BetaShape b = dequantizeBeta(actions.mean[a], actions.variance[a], actions.k);
            const std::size_t gene = isPriority ? layout.priority(j) : layout.affinity(j, q);
            s.alpha[gene] = b.alpha;
            s.beta[gene] = b.beta;
            s.rho[gene] = rho;
        }
    }
    return s;
}

brkga::Distributions geneDistributions(const RegalLayout& layout, const Actions& actions, LearnedKeys learned,
                                       double defaultRho) {
    GeneShapes s = geneShapes(layout, actions, learned, defaultRho);
    brkga::Distributions d;
    d.mutant = brkga::perGeneBeta(std::move(s.alpha), std::move(s.beta));
    d.initial = d.mutant;   // Paliwal et al. 2020, §3.2: the initial population is drawn from D too
    if (!actions.eliteBias.empty()) d.rho = std::move(s.rho);
    return d;
}

} // namespace sl::regal
