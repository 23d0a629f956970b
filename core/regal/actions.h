// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's per-op actions and what BRKGA makes of them. REGAL (Paliwal et al., "REGAL: Transfer
/// Learning for Fast Optimization of Computation Graphs", ICLR 2020, §3.2, App. A.2) has the policy
/// choose, per op and key, the Beta distribution BRKGA draws that key from. Ours is a residual on
/// BRKGA's uniform keys (docs/regal.md, "The policy"): one signed shift per (op, key type), in steps
/// of kShiftStep, picks
///   shift > 0: Beta(e^(shift x step), 1), keys pushed toward 1 (a higher affinity or priority);
///   shift = 0: Uniform, the very draw plain BRKGA makes;
///   shift < 0: Beta(1, e^(-shift x step)), keys pushed toward 0.
/// So an all-zero action set is plain BRKGA, draw for draw. geneDistributions() lays the shapes out
/// over REGAL's chromosome (core/brkga/regaldecoder.h): affinity and priority genes follow the
/// actions, transfer genes stay Uniform.

#include "core/brkga/brkga.h"
#include "core/brkga/regaldecoder.h"

#include <cstdint>
#include <vector>

namespace sl::regal {

inline constexpr double kShiftStep = 0.25;   ///< in log shape units
inline constexpr int kMaxShift = 12;         ///< Beta(e^3, 1): mean 0.95

struct BetaShape {
    double alpha = 1, beta = 1;
};

/// The Beta a shift selects (see the file comment). Throws std::invalid_argument beyond kMaxShift.
BetaShape shiftedBeta(int shift);

/// One action per (op, key type): key type q < d is the affinity for device q, q = d the priority.
struct Actions {
    int ops = 0, devices = 2;
    std::vector<std::int8_t> shift;   ///< [ops x (devices + 1)], op-major; 0 = Uniform

    int keyTypes() const { return devices + 1; }
    std::size_t index(int op, int keyType) const {
        return static_cast<std::size_t>(op) * static_cast<std::size_t>(keyTypes()) + static_cast<std::size_t>(keyType);
    }
    /// All zero: plain BRKGA.
    static Actions uniform(int ops, int devices);
    /// Keys whose shift is not 0.
    int steered() const;
    /// Throws std::invalid_argument when a size or a value is out of range.
    void check() const;
};

/// Which key types the policy steers (R §5.3, Table 3; the best model: placement + scheduling).
struct LearnedKeys {
    bool placement = true;
    bool scheduling = true;
};

/// Per-gene shapes for the whole chromosome of `layout`: affinities and priorities from `actions`,
/// transfers Uniform; genes of key types not in `learned` stay Uniform.
struct GeneShapes {
    std::vector<double> alpha, beta;
};
GeneShapes geneShapes(const RegalLayout& layout, const Actions& actions, LearnedKeys learned = {});

/// The mutant (and initial) distributions of geneShapes(); rho stays the engine's.
brkga::Distributions geneDistributions(const RegalLayout& layout, const Actions& actions, LearnedKeys learned = {});

} // namespace sl::regal
