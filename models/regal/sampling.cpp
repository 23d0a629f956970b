// SPDX-License-Identifier: MIT
#include "models/regal/sampling.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sl::regal {

namespace {

std::int8_t toShift(double logShape) {
    const long s = std::lround(logShape / kShiftStep);
    return static_cast<std::int8_t>(std::clamp<long>(s, -kMaxShift, kMaxShift));
}

std::vector<float> toVector(const torch::Tensor& t) {
    const torch::Tensor c = t.detach().contiguous();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

/// The mask of drawn values: 1 where the key type is learned.
torch::Tensor mask(std::int64_t size, bool learned) { return torch::full({size}, learned ? 1.0f : 0.0f); }

} // namespace

std::vector<Draw> drawActions(const PolicyOutput& out, const GraphBatch& batch, double sigma, Rng& rng, bool greedy,
                              LearnedKeys learned) {
    const std::vector<float> affinity = toVector(out.affinity), priority = toVector(out.priority);
    const auto noisy = [&](float mean, bool steered) {
        if (!steered) return 0.0f;
        return greedy ? mean : static_cast<float>(mean + sigma * rng.normal());
    };
    std::vector<Draw> draws;
    for (int g = 0; g < batch.graphs(); ++g) {
        const auto gi = static_cast<std::size_t>(g);
        const int ops = batch.offsets[gi + 1] - batch.offsets[gi], devices = batch.devices[gi];
        Draw d;
        d.actions = Actions::uniform(ops, devices);
        for (int v = 0; v < ops; ++v) {
            for (int q = 0; q < devices; ++q) {
                const auto row = static_cast<std::size_t>(batch.pairOffsets[gi] + v * devices + q);
                d.affinity.push_back(noisy(affinity[row], learned.placement));
                d.actions.shift[d.actions.index(v, q)] = toShift(d.affinity.back());
            }
            d.priority.push_back(noisy(priority[static_cast<std::size_t>(batch.offsets[gi] + v)], learned.scheduling));
            d.actions.shift[d.actions.index(v, devices)] = toShift(d.priority.back());
        }
        draws.push_back(std::move(d));
    }
    return draws;
}

torch::Tensor logProbability(const PolicyOutput& out, const GraphBatch& batch, const std::vector<Draw>& draws, double sigma,
                             LearnedKeys learned) {
    if (static_cast<int>(draws.size()) != batch.graphs()) throw std::invalid_argument("REGAL: one draw per graph");
    std::vector<float> affinity, priority;
    std::vector<std::int64_t> pairGraph, nodeGraph;
    for (std::size_t g = 0; g < draws.size(); ++g) {
        affinity.insert(affinity.end(), draws[g].affinity.begin(), draws[g].affinity.end());
        priority.insert(priority.end(), draws[g].priority.begin(), draws[g].priority.end());
        pairGraph.insert(pairGraph.end(), draws[g].affinity.size(), static_cast<std::int64_t>(g));
        nodeGraph.insert(nodeGraph.end(), draws[g].priority.size(), static_cast<std::int64_t>(g));
    }
    const auto tensor = [](std::vector<float>& v) { return torch::from_blob(v.data(), {static_cast<std::int64_t>(v.size())}, torch::kFloat).clone(); };
    const auto index = [](std::vector<std::int64_t>& v) { return torch::from_blob(v.data(), {static_cast<std::int64_t>(v.size())}, torch::kLong).clone(); };
    const double scale = -0.5 / (sigma * sigma);
    const torch::Tensor a = scale * (tensor(affinity) - out.affinity).pow(2) * mask(out.affinity.size(0), learned.placement);
    const torch::Tensor p = scale * (tensor(priority) - out.priority).pow(2) * mask(out.priority.size(0), learned.scheduling);
    return torch::zeros({batch.graphs()}).index_add(0, index(pairGraph), a).index_add(0, index(nodeGraph), p);
}

torch::Tensor reinforceLoss(const torch::Tensor& logProbability, const torch::Tensor& advantage) {
    return -(advantage.detach() * logProbability).mean();
}

torch::Tensor stayPenalty(const PolicyOutput& out, int graphs, double weight, LearnedKeys learned) {
    torch::Tensor sum = torch::zeros({});
    if (learned.placement) sum = sum + out.affinity.pow(2).sum();
    if (learned.scheduling) sum = sum + out.priority.pow(2).sum();
    return weight * sum / std::max(1, graphs);
}

torch::Tensor leaveOneOut(const torch::Tensor& rewards, int group) {
    const torch::Tensor r = rewards.view({-1, group});
    return (r - (r.sum(1, true) - r) / (group - 1)).reshape({-1}).detach();
}

} // namespace sl::regal
