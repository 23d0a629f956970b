// SPDX-License-Identifier: MIT
#include "models/prioritysampler/plackettluce.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace sl::ps {

at::Tensor plackettLuceLogProb(const at::Tensor& logits, const at::Tensor& orders) {
    if (!(logits.dim() == 1 && orders.dim() == 2 && orders.size(1) == logits.size(0)))   // not TORCH_CHECK: it compiles in this file's path
        throw std::invalid_argument("plackettLuceLogProb: logits [N] and orders [S, N] expected");
    const at::Tensor p = logits.index_select(0, orders.reshape({-1})).reshape(orders.sizes());   // [S, N]
    const at::Tensor suffix = torch::logcumsumexp(p.flip({1}), 1).flip({1});
    return (p - suffix).sum(1);
}

at::Tensor samplerLoss(const at::Tensor& logits, const at::Tensor& orders, const std::vector<double>& costs,
                       double epsilon, double cLogits) {
    if (costs.empty() || orders.size(0) != static_cast<std::int64_t>(costs.size()))
        throw std::invalid_argument("samplerLoss: one cost per sampled order expected");
    const auto count = static_cast<double>(costs.size());
    const double mean = std::accumulate(costs.begin(), costs.end(), 0.0) / count;
    double var = 0;
    for (double c : costs) var += (c - mean) * (c - mean);
    const double sd = std::max(std::sqrt(var / count), epsilon);
    std::vector<float> standardised(costs.size());
    for (size_t i = 0; i < standardised.size(); ++i) standardised[i] = static_cast<float>((costs[i] - mean) / sd);
    return (torch::tensor(standardised) * plackettLuceLogProb(logits, orders)).mean() + cLogits * logits.pow(2).mean();
}

} // namespace sl::ps
