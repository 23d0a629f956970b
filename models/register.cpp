// SPDX-License-Identifier: MIT
#include "models/register.h"

#include "models/prioritysampler/optimizer.h"
#include "models/topoformer/register.h"

namespace sl {

void registerNeuralOptimizers() {
    ps::registerPrioritySampler();
    models::registerTopoformer();
}

} // namespace sl
