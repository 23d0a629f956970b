// SPDX-License-Identifier: MIT
#include "core/brkga/beta.h"

#include <boost/math/special_functions/beta.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace sl::brkga {

double logGamma(double shape, Rng& rng) {
    if (!(shape > 0)) throw std::invalid_argument("gamma shape must be positive");
    if (shape < 1) {   // Gamma(a) = Gamma(a + 1) * U^(1/a)
        const double u = 1.0 - rng.uniform();   // (0, 1]
        return logGamma(shape + 1, rng) + std::log(u) / shape;
    }
    const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
    while (true) {
        const double x = rng.normal();
        double v = 1 + c * x;
        if (v <= 0) continue;
        v = v * v * v;
        const double u = 1.0 - rng.uniform();
        if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return std::log(d * v);
    }
}

double betaVariate(double alpha, double beta, Rng& rng) {
    const double lx = logGamma(alpha, rng), ly = logGamma(beta, rng);
    return 1 / (1 + std::exp(ly - lx));   // X / (X + Y); exp overflow gives 0, underflow 1
}

void fillBeta(std::span<double> keys, double alpha, double beta, Rng& rng) {
    if (alpha == 1 && beta == 1) {
        for (double& k : keys) k = rng.uniform();
        return;
    }
    const std::shared_ptr<const BetaQuantiles> table = BetaQuantiles::shared(alpha, beta);
    for (double& k : keys) k = (*table)(rng);
}

BetaQuantiles::BetaQuantiles(double alpha, double beta) {
    if (!(alpha > 0 && beta > 0)) throw std::invalid_argument("Beta shapes must be positive");
    m_knots.resize(kSlices + 1);
    m_knots.front() = 0;
    m_knots.back() = 1;
    using DoublePrecision = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
    for (int i = 1; i < kSlices; ++i)
        m_knots[static_cast<std::size_t>(i)] = boost::math::ibeta_inv(alpha, beta, static_cast<double>(i) / kSlices, DoublePrecision());
}

std::shared_ptr<const BetaQuantiles> BetaQuantiles::shared(double alpha, double beta) {
    static std::mutex mutex;
    static std::map<std::pair<double, double>, std::shared_ptr<const BetaQuantiles>> tables;
    const std::lock_guard lock(mutex);
    auto& table = tables[{alpha, beta}];
    if (!table) table = std::make_shared<const BetaQuantiles>(alpha, beta);
    return table;
}

double BetaQuantiles::quantile(double p) const {
    const double x = std::clamp(p, 0.0, 1.0) * kSlices;
    const int i = std::min(static_cast<int>(x), kSlices - 1);
    const double lo = m_knots[static_cast<std::size_t>(i)], hi = m_knots[static_cast<std::size_t>(i) + 1];
    return lo + (hi - lo) * (x - i);
}

double BetaQuantiles::operator()(Rng& rng) const { return quantile(rng.uniform()); }

std::function<void(std::span<double>, Rng&)> perGeneBeta(std::vector<double> alpha, std::vector<double> beta) {
    if (alpha.size() != beta.size()) throw std::invalid_argument("per-gene Beta: alpha and beta differ in size");
    for (size_t i = 0; i < alpha.size(); ++i)
        if (!(alpha[i] > 0 && beta[i] > 0)) throw std::invalid_argument("per-gene Beta: shapes must be positive");
    // One shared table per distinct shape (REGAL with k = 2 has four); null marks a uniform gene.
    std::vector<std::shared_ptr<const BetaQuantiles>> tableOf(alpha.size());
    for (size_t i = 0; i < alpha.size(); ++i)
        if (alpha[i] != 1 || beta[i] != 1) tableOf[i] = BetaQuantiles::shared(alpha[i], beta[i]);
    return [tableOf = std::move(tableOf)](std::span<double> keys, Rng& rng) {
        if (keys.size() != tableOf.size()) throw std::invalid_argument("per-gene Beta: chromosome size mismatch");
        for (size_t i = 0; i < keys.size(); ++i) keys[i] = tableOf[i] ? (*tableOf[i])(rng) : rng.uniform();
    };
}

} // namespace sl::brkga
