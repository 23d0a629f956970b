// SPDX-License-Identifier: MIT
#pragma once

namespace sl {

/// Registers the LibTorch-based optimizers (topoformer, priority-sampler, ...). Idempotent.
void registerNeuralOptimizers();

} // namespace sl
