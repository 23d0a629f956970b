// SPDX-License-Identifier: MIT
#include "models/prioritysampler/gumbel.h"

#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace sl::ps {

void perturbedKeys(std::span<const double> logits, std::uint64_t seed, std::uint64_t index, std::span<double> keys) {
    if (keys.size() != logits.size()) throw std::invalid_argument("perturbedKeys: size mismatch");
    Rng rng(deriveSeed(seed, index));
    for (size_t v = 0; v < logits.size(); ++v) keys[v] = logits[v] + rng.gumbel();
}

std::vector<double> perturbedKeys(std::span<const double> logits, std::uint64_t seed, std::uint64_t index) {
    std::vector<double> keys(logits.size());
    perturbedKeys(logits, seed, index, keys);
    return keys;
}

std::vector<OpId> argsortDescending(std::span<const double> keys) {
    std::vector<OpId> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](OpId a, OpId b) {
        return keys[static_cast<size_t>(a)] > keys[static_cast<size_t>(b)];
    });
    return order;
}

double plackettLuceLogProb(std::span<const double> logits, std::span<const OpId> order) {
    if (order.size() != logits.size()) throw std::invalid_argument("plackettLuceLogProb: size mismatch");
    // Reverse cumulative log-sum-exp over the logits in sampled order.
    double logp = 0, suffix = -kInfinity;
    for (size_t i = order.size(); i-- > 0;) {
        const double l = logits[static_cast<size_t>(order[i])];
        const double hi = std::max(suffix, l);
        suffix = hi + std::log(std::exp(suffix - hi) + std::exp(l - hi));
        logp += l - suffix;
    }
    return logp;
}

} // namespace sl::ps
