// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The training objectives (spec/gflownet.md §3.2-3.3), on per-trajectory float64 tensors [B].
///  - zeta = log R + sum log P_B - sum log P_F (Eq. 7), the implicit log-partition;
///  - LV: mean over the minibatch of (zeta - mean zeta)^2 (Eq. 8; the mean is not detached: same
///    gradient, spec §3.2);
///  - TB: mean of 1/2 (log Z + sum log P_F - log R - sum log P_B)^2 with a learned log Z (Eq. 14).
/// Includes LibTorch.

#include <ATen/core/Tensor.h>

namespace sl::gfn {

at::Tensor zeta(const at::Tensor& logReward, const at::Tensor& logPF, const at::Tensor& logPB);
at::Tensor logPartitionVarianceLoss(const at::Tensor& zeta);
at::Tensor trajectoryBalanceLoss(const at::Tensor& logZ, const at::Tensor& zeta);

} // namespace sl::gfn
