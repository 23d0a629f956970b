// SPDX-License-Identifier: MIT
#include "core/optimizer/optimizer.h"

namespace sl {

// Each family registers itself in its own file; this list is the one place that names them.
void registerClassicOptimizers();   // core/heuristics
void registerSearchOptimizers();    // core/brkga and random search
void registerExactOptimizers();     // core/exact

void registerCoreOptimizers() {
    registerClassicOptimizers();
    registerSearchOptimizers();
    registerExactOptimizers();
}

} // namespace sl
