// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Batched Plackett-Luce log-probability of sampled orders (spec/priority-sampling.md §3.2), the
/// differentiable part of the training loss. Includes LibTorch: models/ .cpp files only.

#include <ATen/core/Tensor.h>

namespace sl::ps {

/// logits [N] (any float dtype, may require grad), orders [S, N] int64 (each row a permutation,
/// first = highest priority) -> [S] log pi(order | logits): with p_i = l(v_i) and
/// s_i = log sum_{j >= i} exp p_j, log pi = sum_i (p_i - s_i) (reverse logcumsumexp).
at::Tensor plackettLuceLogProb(const at::Tensor& logits, const at::Tensor& orders);

} // namespace sl::ps
