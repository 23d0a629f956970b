// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The statistics of a study's comparisons (issue 43): the two-sided Wilcoxon signed-rank test of
/// paired per-graph costs, and a bootstrap confidence interval of a method's geometric-mean ratio.

#include <cstdint>
#include <span>
#include <utility>

namespace sl {

struct WilcoxonResult {
    int pairs = 0;          ///< pairs with a non-zero difference (zeros are dropped)
    double plus = 0;        ///< V: the sum of the ranks of the positive differences (a - b > 0)
    double pValue = 1;      ///< two-sided
    bool exact = false;     ///< exact null distribution (25 pairs or fewer), else the normal approximation
};

/// Two-sided Wilcoxon signed-rank test of a[i] against b[i] (F. Wilcoxon, "Individual comparisons by
/// ranking methods", Biometrics Bulletin 1, 1945): differences of zero are dropped, tied absolute
/// differences get their mean rank. Up to 25 pairs the p-value comes from the exact distribution
/// of V (all 2^n sign patterns, counted on doubled ranks so that mean ranks stay whole); above, from
/// the normal approximation with the tie correction of the variance and a continuity correction of
/// 1/2. a and b must have one size.
WilcoxonResult wilcoxonSignedRank(std::span<const double> a, std::span<const double> b);

/// A 95 % percentile-bootstrap interval of exp(mean(log ratios)) over `ratios` (one per graph):
/// `resamples` resamples of the graphs with replacement, drawn from `seed`.
std::pair<double, double> bootstrapGeomeanInterval(std::span<const double> ratios, int resamples = 2000, std::uint64_t seed = 1);

} // namespace sl
