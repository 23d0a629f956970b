// SPDX-License-Identifier: MIT
#pragma once
// The numbers of one temperature's samples that follow from their proxy speedups alone, cheap
// enough to recompute whenever the Temperature dock gets the speedups drawn so far.
#include "core/analysis/sweep.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <span>
#include <stdexcept>
#include <vector>

namespace sl::gui {

namespace samplestats_detail {

/// Mean of the `k` largest values: a selection, not a sort (the GUI thread redoes it per update).
inline double topKMean(std::span<const double> values, size_t k) {
    std::vector<double> v(values.begin(), values.end());
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k - 1), v.end(), std::greater<>());
    return std::accumulate(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), 0.0) / static_cast<double>(k);
}

} // namespace samplestats_detail

/// Top-1, mean, population std and top-k mean (k = min(topK, drawn)) of `speedups`, computed as
/// sl::summarizeSamples does; every field that needs the schedules (distinct, diversity, targets,
/// best) stays empty. Throws std::invalid_argument for no speedups or topK < 1.
inline SweepPoint summarizeSpeedups(double temperature, std::span<const double> speedups, int topK) {
    if (speedups.empty()) throw std::invalid_argument("no speedups to summarise");
    if (topK < 1) throw std::invalid_argument("top-k must be at least 1");
    SweepPoint out;
    out.temperature = temperature;
    out.samples = static_cast<int>(speedups.size());
    double sum = 0, squares = 0;
    for (double u : speedups) sum += u;
    out.proxyMean = sum / out.samples;
    for (double u : speedups) squares += (u - out.proxyMean) * (u - out.proxyMean);
    out.proxyStd = std::sqrt(squares / out.samples);   // population std, as summarizeSamples
    out.proxyTop1 = *std::max_element(speedups.begin(), speedups.end());
    out.kept = std::min(topK, out.samples);
    out.proxyTopKMean = samplestats_detail::topKMean(speedups, static_cast<size_t>(out.kept));
    return out;
}

} // namespace sl::gui
