// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The `regal` optimizer (Paliwal et al., ICLR 2020; docs/regal.md, 'What runs') and
/// `schedlab-cli train regal`. Torch-free header.
///
/// Weights: --weights FILE, else models/weights/regal-<objective>.slw (peak memory: the paper's
/// task; makespan: the workshop paper's running-time task). The model fixes the device count.

#include "core/optimizer/optimizer.h"

#include <memory>
#include <string>

namespace sl::regal {

OptimizerInfo regalInfo();
std::unique_ptr<Optimizer> makeRegalOptimizer();
/// The shipped weights for a problem's objective (may not exist).
std::string defaultWeightsFor(const Problem& problem);

/// Adds `regal` to the optimizer registry and to the `train` command table (idempotent).
void registerRegal();

} // namespace sl::regal
