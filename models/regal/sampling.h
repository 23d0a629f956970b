// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// From the policy's logits to REGAL actions and back (spec/regal.md §4.5): one categorical
/// draw per (op, head) with our portable sl::Rng (the same seed gives the same actions on any
/// machine and thread count), or the argmax (greedy); and log p(y | G) per graph for REINFORCE.

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

} // namespace sl::regal
