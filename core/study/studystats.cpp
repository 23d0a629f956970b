// SPDX-License-Identifier: MIT
#include "core/study/studystats.h"

#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace sl {

namespace {

constexpr int kExactPairs = 25;

/// Mean ranks (1-based) of `x` ascending, doubled so that they are whole numbers.
std::vector<long> doubledRanks(const std::vector<double>& x) {
    std::vector<std::size_t> order(x.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
    std::vector<long> rank(x.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]]) ++j;
        const long doubled = static_cast<long>(i + 1 + j + 1);   // 2 x the mean of ranks i+1 .. j+1
        for (std::size_t k = i; k <= j; ++k) rank[order[k]] = doubled;
        i = j + 1;
    }
    return rank;
}

double normalTail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }   // P(Z > z)

} // namespace

WilcoxonResult wilcoxonSignedRank(std::span<const double> a, std::span<const double> b) {
    if (a.size() != b.size()) throw std::invalid_argument("wilcoxonSignedRank: the samples differ in size");
    std::vector<double> magnitude;
    std::vector<char> positive;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double d = a[i] - b[i];
        if (d == 0) continue;
        magnitude.push_back(std::abs(d));
        positive.push_back(d > 0);
    }
    WilcoxonResult r;
    r.pairs = static_cast<int>(magnitude.size());
    if (r.pairs == 0) return r;
    const std::vector<long> rank = doubledRanks(magnitude);
    long plus2 = 0, total2 = 0;
    for (std::size_t i = 0; i < rank.size(); ++i) {
        total2 += rank[i];
        if (positive[i]) plus2 += rank[i];
    }
    r.plus = static_cast<double>(plus2) / 2;
    if (r.pairs <= kExactPairs) {
        // Counts of the sign patterns by their doubled V: the exact null distribution.
        std::vector<double> count(static_cast<std::size_t>(total2) + 1, 0.0);
        count[0] = 1;
        long reach = 0;
        for (long x : rank) {
            for (long s = reach; s >= 0; --s)
                if (count[static_cast<std::size_t>(s)] > 0) count[static_cast<std::size_t>(s + x)] += count[static_cast<std::size_t>(s)];
            reach += x;
        }
        const double all = std::ldexp(1.0, r.pairs);
        double lower = 0, upper = 0;
        for (long s = 0; s <= total2; ++s) {
            if (s <= plus2) lower += count[static_cast<std::size_t>(s)];
            if (s >= plus2) upper += count[static_cast<std::size_t>(s)];
        }
        r.pValue = std::min(1.0, 2 * std::min(lower, upper) / all);
        r.exact = true;
        return r;
    }
    // Normal approximation: E[V] = n(n+1)/4, Var[V] = n(n+1)(2n+1)/24 - sum(t^3 - t)/48 over ties.
    const double n = r.pairs;
    double tieTerm = 0;
    std::vector<long> sorted = rank;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size();) {
        std::size_t j = i;
        while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
        const double t = static_cast<double>(j - i);
        tieTerm += t * t * t - t;
        i = j;
    }
    const double mean = n * (n + 1) / 4, variance = n * (n + 1) * (2 * n + 1) / 24 - tieTerm / 48;
    const double z = (std::abs(r.plus - mean) - 0.5) / std::sqrt(variance);
    r.pValue = std::min(1.0, 2 * normalTail(std::max(0.0, z)));
    return r;
}

std::pair<double, double> bootstrapGeomeanInterval(std::span<const double> ratios, int resamples, std::uint64_t seed) {
    if (ratios.empty() || resamples < 1) return {std::nan(""), std::nan("")};
    Rng rng(seed);
    std::vector<double> means;
    means.reserve(static_cast<std::size_t>(resamples));
    const auto n = static_cast<std::int64_t>(ratios.size());
    for (int k = 0; k < resamples; ++k) {
        double sum = 0;
        for (std::int64_t i = 0; i < n; ++i) sum += std::log(ratios[static_cast<std::size_t>(rng.integer(0, n - 1))]);
        means.push_back(std::exp(sum / static_cast<double>(n)));
    }
    std::sort(means.begin(), means.end());
    const auto at = [&](double q) { return means[static_cast<std::size_t>(std::clamp(q * (resamples - 1), 0.0, resamples - 1.0))]; };
    return {at(0.025), at(0.975)};
}

} // namespace sl
