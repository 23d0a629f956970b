// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A learned model is only valid for the objective it was trained on: the neural optimizers refuse
/// any other instead of returning a schedule optimised for something else. Torch-free.

#include "core/optimizer/optimizer.h"

namespace sl::models {

/// Throws std::invalid_argument naming the method, the problem's objective and the objectives
/// `info` declares, unless the problem's objective is one of them.
void requireDeclaredObjective(const OptimizerInfo& info, const Problem& problem);

} // namespace sl::models
