// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The `gflownet` optimizer (docs/gflownet.md): N samples from the temperature-conditioned
/// GFlowNet, ranked by proxy speedup; the best one is the result, the top-k summarised in the
/// note. Torch-free header.

#include "core/optimizer/optimizer.h"

#include <memory>

namespace sl::gfn {

OptimizerInfo gflownetInfo();
std::unique_ptr<Optimizer> makeGflowNetOptimizer();

/// Adds `gflownet` to the optimizer registry (once) and to the `train` command table.
void registerGflowNet();

} // namespace sl::gfn
