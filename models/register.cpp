// SPDX-License-Identifier: MIT
#include "models/register.h"

#include "models/prioritysampler/optimizer.h"

namespace sl {

void registerNeuralOptimizers() {
    ps::registerPrioritySampler();
}

} // namespace sl
