// SPDX-License-Identifier: MIT
#pragma once
/// The CLI's side of the neural module (core/plugin/neuralmodule.h): commands load it only when
/// they need a neural method, a sampler, a trainer or the full list of methods, so that a classic
/// run never maps LibTorch.

#include "core/optimizer/optimizer.h"
#include "core/optimizer/sampler.h"
#include "core/plugin/neuralmodule.h"

#include <string>

namespace sl::cli {

/// Registers the neural methods, loading the module the first time. Never throws.
const neural::ModuleStatus& loadNeuralMethods();

/// The method or sampler of that name, loading the neural module when it is not a classic one;
/// nullptr if there is none.
const OptimizerInfo* findMethod(const std::string& name);
const SamplerInfo* findSampler(const std::string& name);

/// After loadNeuralMethods(): "" when the neural methods are there, else a sentence saying why
/// they are not, to append to a message about an unknown method, sampler or model.
std::string neuralUnavailableNote();

} // namespace sl::cli
