// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// From the policy's means to REGAL actions (core/regal/actions.h) and back: a Gaussian draw per
/// learned key with our portable sl::Rng (the same seed gives the same actions on any machine and
/// thread count) or the mean itself (greedy, what runs at test time), rounded to the shift grid;
/// log p of the draws; the REINFORCE loss with a leave-one-out baseline.

#include "core/regal/actions.h"
#include "core/util/random.h"
#include "models/regal/network.h"

#include <vector>

namespace sl::regal {

/// One graph's draw: the shifts BRKGA uses and the continuous values they were rounded from (what
/// the log-probability reads: the rounding belongs to the environment).
struct Draw {
    Actions actions;
    std::vector<float> affinity;   ///< [ops x devices], log shape units
    std::vector<float> priority;   ///< [ops]
};

/// One Draw per graph of `batch`. `greedy`: the means, no noise. Keys the policy does not steer
/// (`learned`) stay at shift 0 (Uniform) and are not drawn.
std::vector<Draw> drawActions(const PolicyOutput& out, const GraphBatch& batch, double sigma, Rng& rng, bool greedy,
                              LearnedKeys learned = {});

/// log p(draws[g] | G_g) up to a constant, [B], differentiable through `out`.
torch::Tensor logProbability(const PolicyOutput& out, const GraphBatch& batch, const std::vector<Draw>& draws, double sigma,
                             LearnedKeys learned = {});

/// REINFORCE's loss: -mean(advantage log p), no gradient through the advantage.
torch::Tensor reinforceLoss(const torch::Tensor& logProbability, const torch::Tensor& advantage);
/// What leaving plain BRKGA costs: `weight` x the sum of the squared means over the learned keys,
/// per graph of the batch. It pulls every key the reward does not speak for back to Uniform.
torch::Tensor stayPenalty(const PolicyOutput& out, int graphs, double weight, LearnedKeys learned = {});

/// Each reward minus the mean of the other draws of its graph (groups of `group` consecutive
/// entries, group >= 2), detached.
torch::Tensor leaveOneOut(const torch::Tensor& rewards, int group);

} // namespace sl::regal
