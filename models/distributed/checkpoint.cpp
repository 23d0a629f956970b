// SPDX-License-Identifier: MIT
#include "models/distributed/checkpoint.h"

#include "core/util/atomicfile.h"

#include <torch/serialize.h>

#include <sstream>

namespace sl::models {

void saveOptimizerState(const torch::optim::Adam& adam, const std::string& path) {
    std::ostringstream bytes;
    torch::save(adam, bytes);
    writeFileAtomically(path, bytes.str());
}

} // namespace sl::models
