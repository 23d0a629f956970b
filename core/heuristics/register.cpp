// SPDX-License-Identifier: MIT
#include "core/optimizer/optimizer.h"

namespace sl {

void registerClassicOptimizers() {}

} // namespace sl
