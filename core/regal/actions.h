// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's per-op actions and what BRKGA makes of them (Paliwal et al., "REGAL: Transfer Learning
/// for Fast Optimization of Computation Graphs", ICLR 2020, "R" below: §3.2, §3.3 "Actions",
/// App. A.2).
///
/// For each op and each of its d + 1 learned keys (d device affinities, then the scheduling
/// priority) the policy picks two integers in [0, k): a quantised mean m and a quantised variance v.
/// dequantizeBeta() turns them into a Beta distribution (R A.2's method of moments); optionally a
/// per-op elite bias c in [0, kRho) becomes rho = (1 + c / kRho) / 2. geneDistributions() lays the
/// Betas out over REGAL's chromosome (core/brkga/regaldecoder.h): affinity and priority genes get
/// the op's Betas, transfer genes stay Uniform with the default rho.

#include "core/brkga/brkga.h"
#include "core/brkga/regaldecoder.h"

#include <cstdint>
#include <vector>

namespace sl::regal {

struct BetaShape {
    double alpha = 1, beta = 1;
};

/// R A.2: mu = (m + 1) / (k + 1), sigma^2 = mu (1 - mu) (v + 1) / (k + 1), shapes by moments.
/// Throws std::invalid_argument unless 0 <= m, v < k.
BetaShape dequantizeBeta(int m, int v, int k);
/// R A.2's elite bias: rho = 0.5 (1 + c / k), in [0.5, 1). Throws unless 0 <= c < k.
double dequantizeRho(int c, int k);

/// One action per (op, key type): key type q < d is the affinity for device q, q = d the priority.
struct Actions {
    int ops = 0, devices = 2, k = 2;
    std::vector<std::uint8_t> mean, variance;   ///< [ops x (devices + 1)], op-major
    std::vector<std::uint8_t> eliteBias;        ///< [ops] or empty (the best model learns none)
    int kRho = 4;

    int keyTypes() const { return devices + 1; }
    std::size_t index(int op, int keyType) const {
        return static_cast<std::size_t>(op) * static_cast<std::size_t>(keyTypes()) + static_cast<std::size_t>(keyType);
    }
    /// Throws std::invalid_argument when a size or a value is out of range.
    void check() const;
};

/// Which key types the policy steers (R §5.3, Table 3; the best model: placement + scheduling).
struct LearnedKeys {
    bool placement = true;
    bool scheduling = true;
};

/// Per-gene Beta shapes and rho for the whole chromosome of `layout` (affinities and priorities
/// from `actions`, transfers Uniform). Genes of key types not in `learned` stay Uniform.
brkga::Distributions geneDistributions(const RegalLayout& layout, const Actions& actions, LearnedKeys learned = {},
                                       double defaultRho = 0.7);

/// The shapes geneDistributions() uses, for tests and the explorer: alpha / beta per gene.
struct GeneShapes {
    std::vector<double> alpha, beta, rho;
};
GeneShapes geneShapes(const RegalLayout& layout, const Actions& actions, LearnedKeys learned = {}, double defaultRho = 0.7);

} // namespace sl::regal
