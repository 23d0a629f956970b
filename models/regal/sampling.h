// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// From the policy's logits to REGAL actions and back (Paliwal et al., ICLR 2020, §3.3 "Actions",
/// App. A.2): one categorical
/// draw per (op, head) with our portable sl::Rng (the same seed gives the same actions on any
/// machine and thread count), or the argmax (greedy); log p(y | G) per graph; REINFORCE's loss.

#include "core/regal/actions.h"
#include "core/util/random.h"
#include "models/regal/network.h"

#include <vector>

namespace sl::regal {

/// One Actions per graph of `batch`. `greedy`: the most likely value of every head instead of a draw.
std::vector<Actions> chooseActions(const PolicyOutput& out, const GraphBatch& batch, const NetworkConfig& config,
                                   Rng& rng, bool greedy = false);

/// log p(actions[g] | G_g), [B], differentiable through `out`.
torch::Tensor logProbability(const PolicyOutput& out, const GraphBatch& batch, const std::vector<Actions>& actions);

/// The loss of one step: -mean(advantage log p) + lambda / 2 mean((reward - baseline)^2). The
/// advantage is taken as given (no gradient flows through it).
torch::Tensor reinforceLoss(const torch::Tensor& logProbability, const torch::Tensor& reward, const torch::Tensor& baseline,
                            const torch::Tensor& advantage, double baselineWeight);
/// Each reward minus the mean of the other draws of its graph (groups of `group` consecutive
/// entries, group >= 2), detached.
torch::Tensor leaveOneOut(const torch::Tensor& rewards, int group);

} // namespace sl::regal
