// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Batched Plackett-Luce log-probability of sampled orders (Jeon et al. 2023, §3.3 eq. 10), the
/// differentiable part of the training loss. Includes LibTorch: models/ .cpp files only.

#include <ATen/core/Tensor.h>

#include <vector>

namespace sl::ps {

/// logits [N] (any float dtype, may require grad), orders [S, N] int64 (each row a permutation,
/// first = highest priority) -> [S] log pi(order | logits): with p_i = l(v_i) and
/// s_i = log sum_{j >= i} exp p_j, log pi = sum_i (p_i - s_i) (reverse logcumsumexp).
at::Tensor plackettLuceLogProb(const at::Tensor& logits, const at::Tensor& orders);

/// The training loss of one graph (Jeon et al., ICLR 2023, Algorithm 1, eq. 12-13): the sampled
/// orders' costs standardised across the samples (the std floored at `epsilon`), times their
/// log-probability, averaged, plus the logit-norm penalty `cLogits` * mean(l^2). `orders` is
/// [S, N] as above, `costs` has S entries. Minimising it makes the cheaper orders likelier.
at::Tensor samplerLoss(const at::Tensor& logits, const at::Tensor& orders, const std::vector<double>& costs,
                       double epsilon, double cLogits);

} // namespace sl::ps
