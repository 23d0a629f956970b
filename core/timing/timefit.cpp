// SPDX-License-Identifier: MIT
#include "core/timing/timefit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sl {

const FitTerm* TimeFit::termFor(const std::string& type, OpClass c) const {
    if (const auto t = byType.find(type); t != byType.end()) return &t->second;
    if (const auto k = byClass.find(c); k != byClass.end()) return &k->second;
    return nullptr;
}

namespace {

double medianRatio(const std::vector<const FitSample*>& samples) {
    std::vector<double> ratios;
    for (const FitSample* s : samples) ratios.push_back(s->measuredUs / s->bodyUs);
    std::sort(ratios.begin(), ratios.end());
    const size_t n = ratios.size();
    return n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
}

/// Sum of squared relative errors of `term` over `samples`.
double relativeSquares(const FitTerm& term, const std::vector<const FitSample*>& samples) {
    double sum = 0;
    for (const FitSample* s : samples) {
        const double e = (term.at(s->bodyUs) - s->measuredUs) / s->measuredUs;
        sum += e * e;
    }
    return sum;
}

/// Weighted least squares of launch + scale x x against t (x = body^exponent), weights 1 / t^2;
/// launch clamped at 0 (then the scale alone). Null when no positive scale fits.
std::optional<FitTerm> linearTerm(const std::vector<const FitSample*>& samples, double exponent) {
    double sw = 0, sx = 0, sxx = 0, st = 0, sxt = 0;
    for (const FitSample* s : samples) {
        const double w = 1 / (s->measuredUs * s->measuredUs), x = std::pow(s->bodyUs, exponent);
        sw += w;
        sx += w * x;
        sxx += w * x * x;
        st += w * s->measuredUs;
        sxt += w * x * s->measuredUs;
    }
    const double det = sw * sxx - sx * sx;
    FitTerm term{.exponent = exponent, .samples = static_cast<int>(samples.size())};
    const bool solvable = det > 1e-12 * sw * sxx;
    if (solvable) {
        term.launchUs = (st * sxx - sx * sxt) / det;
        term.scale = (sw * sxt - sx * st) / det;
    }
    if (!solvable || term.launchUs < 0) {   // no launch: the best scale alone
        term.launchUs = 0;
        term.scale = sxt / sxx;
    }
    if (!(term.scale > 0) || !std::isfinite(term.scale)) return std::nullopt;
    return term;
}

FitTerm fitTerm(const std::vector<const FitSample*>& samples) {
    std::optional<FitTerm> best;
    double bestError = std::numeric_limits<double>::infinity();
    const int steps = static_cast<int>(std::lround((kMaxFitExponent - kMinFitExponent) / kFitExponentStep));
    for (int i = 0; i <= steps; ++i) {
        const double exponent = kMinFitExponent + i * kFitExponentStep;
        const std::optional<FitTerm> term =
            linearTerm(samples, std::abs(exponent - 1) < kFitExponentStep / 2 ? 1.0 : exponent);
        if (!term) continue;
        const double error = relativeSquares(*term, samples);
        if (error < bestError) bestError = error, best = term;
    }
    if (!best)
        return {
            .launchUs = 0, .scale = medianRatio(samples), .exponent = 1, .samples = static_cast<int>(samples.size())};
    return *best;
}

}   // namespace

TimeFit fitTimes(const std::vector<FitSample>& samples, int minSamples) {
    std::map<std::string, std::vector<const FitSample*>> byType;
    std::map<OpClass, std::vector<const FitSample*>> byClass;
    for (const FitSample& s : samples) {
        if (!(s.bodyUs > 0) || !(s.measuredUs > 0) || !std::isfinite(s.bodyUs) || !std::isfinite(s.measuredUs))
            continue;
        byType[s.type].push_back(&s);
        byClass[s.opClass].push_back(&s);
    }
    TimeFit fit;
    for (const auto& [type, list] : byType)
        if (static_cast<int>(list.size()) >= minSamples) fit.byType[type] = fitTerm(list);
    for (const auto& [c, list] : byClass)
        if (static_cast<int>(list.size()) >= minSamples) fit.byClass[c] = fitTerm(list);
    return fit;
}

}   // namespace sl
