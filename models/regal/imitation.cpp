// SPDX-License-Identifier: MIT
#include "models/regal/imitation.h"

#include "core/regal/actions.h"
#include "core/regal/oracle.h"

#include <torch/torch.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace sl::regal {

std::vector<int> closestLabelling(std::span<const int> placement, std::span<const float> affinityMeans, int devices) {
    const auto d = static_cast<std::size_t>(devices);
    std::vector<double> sum(d * d, 0.0);   // sum[a * d + q]: means at device q of the ops the label puts on a
    for (std::size_t v = 0; v < placement.size(); ++v)
        for (std::size_t q = 0; q < d; ++q) sum[static_cast<std::size_t>(placement[v]) * d + q] += affinityMeans[v * d + q];
    std::vector<int> perm(d), best;
    std::iota(perm.begin(), perm.end(), 0);
    double bestScore = -std::numeric_limits<double>::infinity();
    do {   // (d - 1)! labellings: 5,040 at 8 devices
        double score = 0;
        for (std::size_t a = 0; a < d; ++a) score += sum[a * d + static_cast<std::size_t>(perm[a])];
        if (score > bestScore) {
            bestScore = score;
            best = perm;
        }
    } while (std::next_permutation(perm.begin() + 1, perm.end()));
    return best;
}

std::vector<Draw> oracleDraws(const PolicyOutput& out, const GraphBatch& batch, const std::vector<const OracleLabel*>& labels,
                              int strength) {
    if (static_cast<int>(labels.size()) != batch.graphs()) throw std::invalid_argument("REGAL imitation: one label per graph");
    const torch::Tensor means = out.affinity.detach().contiguous();
    const float* all = means.data_ptr<float>();
    const float target = static_cast<float>(strength * kShiftStep);
    std::vector<Draw> draws;
    for (int g = 0; g < batch.graphs(); ++g) {
        const auto gi = static_cast<std::size_t>(g);
        const OracleLabel& label = *labels[gi];
        const int ops = batch.offsets[gi + 1] - batch.offsets[gi], devices = batch.devices[gi];
        if (ops != label.ops || devices != label.spec.devices) throw std::invalid_argument("REGAL imitation: a label of another graph");
        const std::span<const float> graphMeans(all + batch.pairOffsets[gi], static_cast<std::size_t>(ops * devices));
        const std::vector<int> perm = closestLabelling(label.placement, graphMeans, devices);
        Draw d;
        d.affinity.assign(static_cast<std::size_t>(ops * devices), 0.0f);
        for (int v = 0; v < ops; ++v)
            d.affinity[static_cast<std::size_t>(v * devices + perm[static_cast<std::size_t>(label.placement[static_cast<std::size_t>(v)])])] = target;
        d.priority.assign(static_cast<std::size_t>(ops), 0.0f);
        const std::vector<OpId> order = orderOf(label);
        for (std::size_t rank = 0; rank < order.size(); ++rank)
            d.priority[static_cast<std::size_t>(order[rank])] = static_cast<float>(target * alongOrder(rank, static_cast<std::size_t>(ops)));
        draws.push_back(std::move(d));
    }
    return draws;
}

namespace {

/// -log p(draws) per learned key, averaged over the batch's graphs.
torch::Tensor negativeLogLikelihoodPerKey(const PolicyOutput& out, const GraphBatch& batch,
                                          const std::vector<Draw>& draws, double sigma, LearnedKeys learned) {
    const torch::Tensor logp = logProbability(out, batch, draws, sigma, learned);
    std::vector<float> keys;
    for (int g = 0; g < batch.graphs(); ++g) {
        const auto gi = static_cast<std::size_t>(g);
        const int ops = batch.offsets[gi + 1] - batch.offsets[gi];
        keys.push_back(static_cast<float>(ops * ((learned.placement ? batch.devices[gi] : 0) + (learned.scheduling ? 1 : 0))));
    }
    return -(logp / torch::tensor(keys)).mean();
}

}   // namespace

torch::Tensor imitationLoss(const PolicyOutput& out, const GraphBatch& batch,
                            const std::vector<const OracleLabel*>& labels, double sigma, int strength,
                            LearnedKeys learned) {
    return negativeLogLikelihoodPerKey(out, batch, oracleDraws(out, batch, labels, strength), sigma, learned);
}

torch::Tensor ruleImitationLoss(const PolicyOutput& out, const GraphBatch& batch, const std::vector<Actions>& targets,
                                double sigma, LearnedKeys learned) {
    if (static_cast<int>(targets.size()) != batch.graphs())
        throw std::invalid_argument("REGAL imitation: one target per graph");
    std::vector<Draw> draws;
    for (int g = 0; g < batch.graphs(); ++g) {
        const Actions& a = targets[static_cast<std::size_t>(g)];
        const int ops = batch.offsets[static_cast<std::size_t>(g) + 1] - batch.offsets[static_cast<std::size_t>(g)];
        if (a.ops != ops || a.devices != batch.devices[static_cast<std::size_t>(g)])
            throw std::invalid_argument("REGAL imitation: a target of another graph");
        Draw d;
        d.actions = a;
        for (int v = 0; v < ops; ++v) {
            for (int q = 0; q < a.devices; ++q)
                d.affinity.push_back(static_cast<float>(a.shift[a.index(v, q)] * kShiftStep));
            d.priority.push_back(static_cast<float>(a.shift[a.index(v, a.devices)] * kShiftStep));
        }
        draws.push_back(std::move(d));
    }
    return negativeLogLikelihoodPerKey(out, batch, draws, sigma, learned);
}

} // namespace sl::regal
