// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Gumbel-Top-k sampling of priority orders from per-op logits (Jeon et al. 2023, §2.3 eqs. 3-4,
/// §3.2 eq. 7).
///
/// Sample i of a seed draws its noise from its own stream, Rng(deriveSeed(seed, i)), one Gumbel
/// per op in op-id order, so a sample is the same whichever thread draws it. The perturbed logits
/// are themselves list-scheduling priorities (higher = earlier); their arg-sort (decreasing, ties
/// to the smaller op id, as the list scheduler breaks them) is the sampled Plackett-Luce order.
/// Torch-free: used by the optimizer, the trainer and the tests.

#include "core/graph/graph.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sl::ps {

/// keys[v] = logits[v] + Gumbel noise of sample `index` of `seed`.
void perturbedKeys(std::span<const double> logits, std::uint64_t seed, std::uint64_t index, std::span<double> keys);
std::vector<double> perturbedKeys(std::span<const double> logits, std::uint64_t seed, std::uint64_t index);

/// Ops by decreasing key, ties to the smaller op id.
std::vector<OpId> argsortDescending(std::span<const double> keys);

/// log pi(order | logits) under Plackett-Luce: sum_i (l(v_i) - log sum_{j >= i} exp l(v_j)), in
/// double precision (a reference for the batched LibTorch version used in training).
double plackettLuceLogProb(std::span<const double> logits, std::span<const OpId> order);

} // namespace sl::ps
