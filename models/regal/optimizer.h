// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The `regal` optimizer (Paliwal et al., ICLR 2020; docs/regal.md, 'What runs') and
/// `schedlab-cli train regal`. Torch-free header.
///
/// Weights: --weights FILE, else models/weights/regal-<objective>.slw (peak memory: the paper's
/// task; makespan: the workshop paper's running-time task), and for the peak memory of a forward
/// graph or any other DAG that is neither a training step nor a compiled step,
/// regal-memory-forward.slw (trained where order moves the peak). Run notes name the file.

#include "core/optimizer/optimizer.h"

#include <memory>
#include <string>

namespace sl::regal {

OptimizerInfo regalInfo();
std::unique_ptr<Optimizer> makeRegalOptimizer();
inline constexpr const char* kForwardMemoryWeights = "regal-memory-forward.slw";

/// The shipped weights for a problem's objective and graph (may not exist).
std::string defaultWeightsFor(const Problem& problem);

/// Adds `regal` to the optimizer registry and to the `train` command table (idempotent).
void registerRegal();

} // namespace sl::regal
