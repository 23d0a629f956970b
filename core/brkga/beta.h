// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Beta(alpha, beta) variates for generalized BRKGA (REGAL, Paliwal et al. 2020, §3.2): X / (X + Y)
/// with X, Y gamma variates (Marsaglia-Tsang; shapes below 1 boosted by U^(1/a)), computed in log
/// space so that shapes as small as 1/6 never give 0/0 (docs/brkga.md, "Choices where the papers
/// are silent"). Portable: only sl::Rng's own formulas are used.

#include "core/util/random.h"

#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace sl::brkga {

/// log of a Gamma(shape, 1) variate; shape > 0.
double logGamma(double shape, Rng& rng);
/// A Beta(alpha, beta) variate in [0, 1]; alpha, beta > 0.
double betaVariate(double alpha, double beta, Rng& rng);
/// Fills `keys` with i.i.d. Beta(alpha, beta) variates (Uniform when alpha = beta = 1), drawn
/// through the shape's shared BetaQuantiles table (looked up under a lock on every call: in a loop,
/// hold BetaQuantiles::shared() instead).
void fillBeta(std::span<double> keys, double alpha, double beta, Rng& rng);

/// Beta(alpha, beta) by its quantile function, tabulated: exact (Boost's incomplete-beta inverse)
/// at the 4,097 probabilities i / 4096 and linear in between, so each of the 4,096 slices holds
/// exactly its 1/4096 of the mass. One uniform draw, a lookup and a lerp per variate: what makes
/// REGAL's learned mutants cost no more than uniform ones (the papers' +17 % time was unoptimised
/// Beta sampling: REGAL §4.3.1, Table 2). Building a table costs a few milliseconds: shared() keeps
/// one per shape for the whole process.
class BetaQuantiles {
public:
    BetaQuantiles(double alpha, double beta);   ///< throws std::invalid_argument unless both > 0
    /// The process-wide table of a shape (built on first use; thread-safe).
    static std::shared_ptr<const BetaQuantiles> shared(double alpha, double beta);
    double operator()(Rng& rng) const;
    double quantile(double p) const;             ///< the tabulated inverse CDF, p in [0, 1]

private:
    static constexpr int kSlices = 4096;
    std::vector<double> m_knots;                 ///< kSlices + 1 exact quantiles
};

/// A sampler for Distributions::mutant / ::initial drawing gene i from Beta(alpha[i], beta[i]):
/// REGAL's learned per-gene distributions (REGAL §3.2 and A.2). alpha[i] = beta[i] = 1 is uniform;
/// other genes use one BetaQuantiles table per distinct (alpha, beta) pair.
/// Throws std::invalid_argument when the sizes differ or a shape is not positive.
std::function<void(std::span<double>, Rng&)> perGeneBeta(std::vector<double> alpha, std::vector<double> beta);

} // namespace sl::brkga
