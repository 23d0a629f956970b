// SPDX-License-Identifier: MIT
#include "core/optimizer/optimizer.h"
#include "core/optimizer/sampler.h"

namespace sl {

// Each family registers itself in its own file; this list is the one place that names them.
void registerClassicOptimizers();   // core/heuristics
void registerSearchOptimizers();    // core/brkga and random search
void registerLocalSearchOptimizers();   // core/localsearch
void registerExactOptimizers();     // core/exact

void registerCoreOptimizers() {
    registerClassicOptimizers();
    registerSearchOptimizers();
    registerLocalSearchOptimizers();
    registerExactOptimizers();
    registerCoreSamplers();   // the temperature samplers ride along: every main already calls this
}

} // namespace sl
