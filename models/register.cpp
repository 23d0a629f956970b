// SPDX-License-Identifier: MIT
#include "models/register.h"

namespace sl {

void registerNeuralOptimizers() {}

} // namespace sl
