// SPDX-License-Identifier: MIT
#include "core/graph/durationtext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace sl {

namespace {

/// `value` with `significant` digits in fixed notation, trailing zeros (and a bare point) dropped.
std::string significantDigits(double value, int significant) {
    if (value == 0) return "0";
    const int integerDigits = static_cast<int>(std::floor(std::log10(std::fabs(value)))) + 1;
    const int decimals = std::max(0, significant - integerDigits);
    char buffer[400];   // a double's integer part has at most 309 digits
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    std::string text = buffer;
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0') text.pop_back();
        if (text.back() == '.') text.pop_back();
    }
    return text == "-0" ? "0" : text;
}

/// `value` rounded to `significant` digits (so that 999.96 µs reads 1 ms, not 1000 µs).
double roundSignificant(double value, int significant) {
    if (value == 0) return value;
    const double step = std::pow(10.0, std::floor(std::log10(std::fabs(value))) + 1 - significant);
    return std::round(value / step) * step;
}

std::string_view suffixOf(TimeUnit unit) {
    return unit == TimeUnit::Abstract ? "units" : unit == TimeUnit::Seconds ? "s" : "µs";
}

std::string nonFinite(double value) { return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf"; }

}   // namespace

std::string formatDuration(double value, TimeUnit unit) {
    if (!std::isfinite(value)) return nonFinite(value);
    if (unit == TimeUnit::Abstract) return significantDigits(value, 6) + " units";
    const double us = unit == TimeUnit::Seconds ? value * 1e6 : value;
    const double magnitude = std::fabs(roundSignificant(us, 4));
    if (magnitude < 1e3) return significantDigits(us, 4) + " µs";
    if (magnitude < 1e6) return significantDigits(us / 1e3, 4) + " ms";
    return significantDigits(us / 1e6, 4) + " s";
}

std::string formatDurationExact(double value, TimeUnit unit) {
    if (!std::isfinite(value)) return nonFinite(value);
    return significantDigits(value, 12) + " " + std::string(suffixOf(unit));
}

std::string formatDurationWithExact(double value, TimeUnit unit) {
    const std::string exact = formatDurationExact(value, unit);
    if (unit == TimeUnit::Abstract || !std::isfinite(value)) return exact;
    const std::string scaled = formatDuration(value, unit);
    return scaled == exact ? scaled : scaled + " (" + exact + ")";
}

std::string formatExactWithScaled(double value, TimeUnit unit) {
    const std::string exact = formatDurationExact(value, unit);
    if (unit == TimeUnit::Abstract || !std::isfinite(value)) return exact;
    const std::string scaled = formatDuration(value, unit);
    return scaled == exact ? exact : exact + " (" + scaled + ")";
}

}   // namespace sl
