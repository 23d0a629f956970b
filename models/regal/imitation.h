// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Imitation of the long search for REGAL's policy (docs/regal.md, "Learning from the long
/// search"): the oracle's actions (core/regal/oracle.h: `strength` shift steps on the device the
/// label places an op, priorities falling from +strength to -strength along its order) are the
/// targets, and the loss is their negative log-likelihood under the policy's Gaussians, per key.
/// Identical devices are interchangeable: the label's placement is one of (d - 1)! labellings
/// (device 0 holds the symmetry op in the label and in the population alike), so the targets use
/// the labelling closest to the policy's own means and the loss does not depend on which one the
/// long run found. Includes LibTorch: models/ only.

#include "core/regal/labels.h"
#include "models/regal/network.h"
#include "models/regal/sampling.h"

#include <span>
#include <vector>

namespace sl::regal {

/// perm[a]: the device that the label's device a becomes, with perm[0] = 0, maximising the
/// summed affinity means [ops x devices, op-major] of the ops at their relabelled devices.
std::vector<int> closestLabelling(std::span<const int> placement, std::span<const float> affinityMeans, int devices);

/// The oracle's actions for every graph of `batch` as draws (values in log shape units) under the
/// closest labelling to `out`'s means.
std::vector<Draw> oracleDraws(const PolicyOutput& out, const GraphBatch& batch, const std::vector<const OracleLabel*>& labels,
                              int strength);

/// Mean over the batch's graphs of -log p(oracle's actions) / keys, up to a constant (0 when the
/// means are the targets); differentiable through `out`.
torch::Tensor imitationLoss(const PolicyOutput& out, const GraphBatch& batch, const std::vector<const OracleLabel*>& labels,
                            double sigma, int strength, LearnedKeys learned = {});

/// The same loss with a rule's actions as the targets, one Actions per graph of `batch` (e.g.
/// regal::freesFirstActions: a teacher that reads each op's own sizes, docs/regal.md).
torch::Tensor ruleImitationLoss(const PolicyOutput& out, const GraphBatch& batch, const std::vector<Actions>& targets,
                                double sigma, LearnedKeys learned = {});

} // namespace sl::regal
