// SPDX-License-Identifier: MIT
#pragma once

namespace sl {

/// Registers the LibTorch-based optimizers (topoformer, priority-sampler, ...), their samplers and
/// trainers. Idempotent. The executables reach it through the neural module
/// (core/plugin/neuralmodule.h); tests that link models/ call it directly.
void registerNeuralOptimizers();

} // namespace sl
