// SPDX-License-Identifier: MIT
#include "core/brkga/beta.h"

#include <cmath>
#include <stdexcept>

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
    for (double& k : keys) k = betaVariate(alpha, beta, rng);
}

std::function<void(std::span<double>, Rng&)> perGeneBeta(std::vector<double> alpha, std::vector<double> beta) {
    if (alpha.size() != beta.size()) throw std::invalid_argument("per-gene Beta: alpha and beta differ in size");
    for (size_t i = 0; i < alpha.size(); ++i)
        if (!(alpha[i] > 0 && beta[i] > 0)) throw std::invalid_argument("per-gene Beta: shapes must be positive");
    return [alpha = std::move(alpha), beta = std::move(beta)](std::span<double> keys, Rng& rng) {
        if (keys.size() != alpha.size()) throw std::invalid_argument("per-gene Beta: chromosome size mismatch");
        for (size_t i = 0; i < keys.size(); ++i)
            keys[i] = alpha[i] == 1 && beta[i] == 1 ? rng.uniform() : betaVariate(alpha[i], beta[i], rng);
    };
}

} // namespace sl::brkga
