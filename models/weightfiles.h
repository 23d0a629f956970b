// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Where the shipped weights are. Torch-free: the executables link it (models_api) and the neural
/// module finds it there.

#include <string>

namespace sl::models {

/// Directory holding the shipped weights, the first of: $SCHEDLAB_MODELS_DIR; share/schedlab/models
/// of an installed tree (next to the executable's bin/); the build-time SCHEDLAB_MODELS_DIR
/// (models/weights in the source tree).
std::string modelsDir();

} // namespace sl::models
