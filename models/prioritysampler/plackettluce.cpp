// SPDX-License-Identifier: MIT
#include "models/prioritysampler/plackettluce.h"

#include <torch/torch.h>

namespace sl::ps {

at::Tensor plackettLuceLogProb(const at::Tensor& logits, const at::Tensor& orders) {
    TORCH_CHECK(logits.dim() == 1 && orders.dim() == 2 && orders.size(1) == logits.size(0),
                "plackettLuceLogProb: logits [N] and orders [S, N] expected");
    const at::Tensor p = logits.index_select(0, orders.reshape({-1})).reshape(orders.sizes());   // [S, N]
    const at::Tensor suffix = torch::logcumsumexp(p.flip({1}), 1).flip({1});
    return (p - suffix).sum(1);
}

} // namespace sl::ps
