// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The training objectives (Zhang et al., ICLR 2023, Sec. 3), on per-trajectory float64 tensors [B].
///  - zeta = log R + sum log P_B - sum log P_F (Eq. 7), the implicit log-partition;
///  - LV: mean over the minibatch of (zeta - mean zeta)^2 (Eq. 8; the mean is not detached: the
///    same gradient);
///  - scaled LV: LV / (1 + std(log R)), the divisor detached. Each graph and temperature keeps its
///    minimiser (zeta constant), but the gradient no longer grows as 1 / sigma: log R spans
///    hundreds of nats at sigma 0.001 and a few at sigma 1, and unscaled the low temperatures
///    swamp every step (docs/gflownet.md);
///  - TB: mean of 1/2 (log Z + sum log P_F - log R - sum log P_B)^2 with a learned log Z (Eq. 14).
/// Includes LibTorch.

#include <ATen/core/Tensor.h>

namespace sl::gfn {

at::Tensor zeta(const at::Tensor& logReward, const at::Tensor& logPF, const at::Tensor& logPB);
at::Tensor logPartitionVarianceLoss(const at::Tensor& zeta);
at::Tensor scaledLogPartitionVarianceLoss(const at::Tensor& zeta, const at::Tensor& logReward);
at::Tensor trajectoryBalanceLoss(const at::Tensor& logZ, const at::Tensor& zeta);

} // namespace sl::gfn
