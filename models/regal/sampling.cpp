// SPDX-License-Identifier: MIT
#include "models/regal/sampling.h"

#include <torch/torch.h>

#include <stdexcept>

namespace sl::regal {

namespace {

/// Index drawn from a probability row (inverse CDF; the last index absorbs rounding).
int draw(const float* probabilities, int count, Rng& rng) {
    double u = rng.uniform();
    for (int i = 0; i < count - 1; ++i) {
        u -= probabilities[i];
        if (u < 0) return i;
    }
    return count - 1;
}

int argmax(const float* values, int count) {
    int best = 0;
    for (int i = 1; i < count; ++i)
        if (values[i] > values[best]) best = i;
    return best;
}

int choose(const float* probabilities, int count, Rng& rng, bool greedy) {
    return greedy ? argmax(probabilities, count) : draw(probabilities, count, rng);
}

} // namespace

std::vector<Actions> chooseActions(const PolicyOutput& out, const GraphBatch& batch, const NetworkConfig& config,
                                   Rng& rng, bool greedy) {
    const torch::Tensor probs = torch::softmax(out.logits.detach(), -1).contiguous();
    const float* p = probs.data_ptr<float>();
    const int heads = config.heads(), k = config.k;
    torch::Tensor eliteProbs;
    if (config.eliteBias) eliteProbs = torch::softmax(out.eliteLogits.detach(), -1).contiguous();
    std::vector<Actions> result;
    for (int g = 0; g < batch.graphs(); ++g) {
        Actions a;
        a.ops = batch.offsets[static_cast<std::size_t>(g) + 1] - batch.offsets[static_cast<std::size_t>(g)];
        a.devices = config.devices;
        a.k = k;
        a.kRho = config.kRho;
        a.mean.resize(static_cast<std::size_t>(a.ops) * static_cast<std::size_t>(a.keyTypes()));
        a.variance.resize(a.mean.size());
        for (int op = 0; op < a.ops; ++op) {
            const int node = batch.offsets[static_cast<std::size_t>(g)] + op;
            for (int q = 0; q < a.keyTypes(); ++q) {
                const float* row = p + (static_cast<std::ptrdiff_t>(node) * heads + 2 * q) * k;
                a.mean[a.index(op, q)] = static_cast<std::uint8_t>(choose(row, k, rng, greedy));
                a.variance[a.index(op, q)] = static_cast<std::uint8_t>(choose(row + k, k, rng, greedy));
            }
            if (config.eliteBias)
                a.eliteBias.push_back(static_cast<std::uint8_t>(
                    choose(eliteProbs.data_ptr<float>() + static_cast<std::ptrdiff_t>(node) * config.kRho, config.kRho, rng, greedy)));
        }
        result.push_back(std::move(a));
    }
    return result;
}

torch::Tensor logProbability(const PolicyOutput& out, const GraphBatch& batch, const std::vector<Actions>& actions) {
    if (static_cast<int>(actions.size()) != batch.graphs()) throw std::invalid_argument("REGAL: one action set per graph");
    const auto n = out.logits.size(0), heads = out.logits.size(1);
    std::vector<std::int64_t> chosen(static_cast<std::size_t>(n * heads));
    std::vector<std::int64_t> elite;
    for (int g = 0; g < batch.graphs(); ++g) {
        const Actions& a = actions[static_cast<std::size_t>(g)];
        for (int op = 0; op < a.ops; ++op) {
            const auto node = static_cast<std::size_t>(batch.offsets[static_cast<std::size_t>(g)] + op);
            for (int q = 0; q < a.keyTypes(); ++q) {
                chosen[node * static_cast<std::size_t>(heads) + 2 * static_cast<std::size_t>(q)] = a.mean[a.index(op, q)];
                chosen[node * static_cast<std::size_t>(heads) + 2 * static_cast<std::size_t>(q) + 1] = a.variance[a.index(op, q)];
            }
            if (out.eliteLogits.defined()) elite.push_back(a.eliteBias.at(static_cast<std::size_t>(op)));
        }
    }
    const torch::Tensor index = torch::from_blob(chosen.data(), {n, heads, 1}, torch::kLong).clone();
    torch::Tensor perNode = torch::log_softmax(out.logits, -1).gather(2, index).squeeze(2).sum(1);   // [N]
    if (out.eliteLogits.defined()) {
        const torch::Tensor e = torch::from_blob(elite.data(), {n, 1}, torch::kLong).clone();
        perNode = perNode + torch::log_softmax(out.eliteLogits, -1).gather(1, e).squeeze(1);
    }
    return torch::zeros({batch.graphs()}).index_add(0, batch.graphOf, perNode);
}

torch::Tensor leaveOneOut(const torch::Tensor& rewards, int group) {
    const torch::Tensor r = rewards.view({-1, group});
    return (r - (r.sum(1, true) - r) / (group - 1)).reshape({-1}).detach();
}

torch::Tensor reinforceLoss(const torch::Tensor& logProbability, const torch::Tensor& reward, const torch::Tensor& baseline,
                            const torch::Tensor& advantage, double baselineWeight) {
    return -(advantage.detach() * logProbability).mean() + baselineWeight / 2 * (reward - baseline).pow(2).mean();
}

} // namespace sl::regal
