// SPDX-License-Identifier: MIT
#include "models/gflownet/loss.h"

#include <ATen/ATen.h>

namespace sl::gfn {

at::Tensor zeta(const at::Tensor& logReward, const at::Tensor& logPF, const at::Tensor& logPB) {
    return logReward + logPB - logPF;
}

at::Tensor logPartitionVarianceLoss(const at::Tensor& z) { return (z - z.mean()).pow(2).mean(); }

at::Tensor scaledLogPartitionVarianceLoss(const at::Tensor& z, const at::Tensor& logReward) {
    return logPartitionVarianceLoss(z) / (1.0 + logReward.detach().std(/*unbiased=*/false));
}

// log Z + log P_F - log R - log P_B = log Z - zeta.
at::Tensor trajectoryBalanceLoss(const at::Tensor& logZ, const at::Tensor& z) {
    return 0.5 * (logZ.to(at::kDouble) - z).pow(2).mean();
}

} // namespace sl::gfn
