// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Where the shipped weights are. Torch-free: the executables link it (models_api) and the neural
/// module finds it there.

#include <string>

namespace sl::models {

/// Directory holding the shipped weights, the first of: $SCHEDLAB_MODELS_DIR; share/schedlab/models
/// of an installed tree (next to the executable's bin/); models/weights of the source tree a
/// build-tree executable runs from (core/util/installpaths.h); ./models/weights.
std::string modelsDir();

} // namespace sl::models
