// SPDX-License-Identifier: MIT
#pragma once

namespace sl::models {

/// Registers the `topoformer` optimizer (memory orders) and its `train topoformer` trainer.
/// Idempotent. Called by sl::registerNeuralOptimizers().
void registerTopoformer();

} // namespace sl::models
