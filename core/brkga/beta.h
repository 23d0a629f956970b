// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Beta(alpha, beta) variates for generalized BRKGA (spec/regal.md §3.7): X / (X + Y) with X, Y
/// gamma variates (Marsaglia-Tsang; shapes below 1 boosted by U^(1/a)), computed in log space so
/// that shapes as small as 1/6 never give 0/0. Portable: only sl::Rng's own formulas are used.

#include "core/util/random.h"

#include <functional>
#include <span>
#include <vector>

namespace sl::brkga {

/// log of a Gamma(shape, 1) variate; shape > 0.
double logGamma(double shape, Rng& rng);
/// A Beta(alpha, beta) variate in [0, 1]; alpha, beta > 0.
double betaVariate(double alpha, double beta, Rng& rng);
/// Fills `keys` with i.i.d. Beta(alpha, beta) variates (Uniform when alpha = beta = 1).
void fillBeta(std::span<double> keys, double alpha, double beta, Rng& rng);

/// A sampler for Distributions::mutant / ::initial drawing gene i from Beta(alpha[i], beta[i]):
/// REGAL's learned per-gene distributions (spec/regal.md §3.6). alpha[i] = beta[i] = 1 is uniform.
/// Throws std::invalid_argument when the sizes differ or a shape is not positive.
std::function<void(std::span<double>, Rng&)> perGeneBeta(std::vector<double> alpha, std::vector<double> beta);

} // namespace sl::brkga
