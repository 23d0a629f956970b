// SPDX-License-Identifier: MIT
#include "core/profile/repetitions.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sl {

double sortedQuantile(const std::vector<double>& sorted, double q) {
    const double h = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

OpMeasurement summarizeRepetitions(std::string name, std::string type, std::vector<double> samplesUs) {
    if (samplesUs.empty()) throw std::invalid_argument("summarizeRepetitions: op '" + name + "' has no samples");
    std::sort(samplesUs.begin(), samplesUs.end());
    OpMeasurement m;
    m.name = std::move(name);
    m.type = std::move(type);
    m.medianUs = sortedQuantile(samplesUs, 0.5);
    m.spreadUs = sortedQuantile(samplesUs, 0.75) - sortedQuantile(samplesUs, 0.25);
    m.repetitions = static_cast<int>(samplesUs.size());
    return m;
}

} // namespace sl
