// SPDX-License-Identifier: MIT
#pragma once
/// Optimizer state in checkpoints, written whole or not at all (core/util/atomicfile.h): a run
/// killed mid-write leaves the previous checkpoint readable. torch::save writes in place.

#include <torch/optim/adam.h>

#include <string>

namespace sl::models {

void saveOptimizerState(const torch::optim::Adam& adam, const std::string& path);

} // namespace sl::models
