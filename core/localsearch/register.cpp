// SPDX-License-Identifier: MIT
// The critical-path local searches.
#include "core/localsearch/tabuoptimizer.h"
#include "core/optimizer/optimizer.h"

namespace sl {

void registerLocalSearchOptimizers() {
    OptimizerRegistry::instance().add(
        {.name = "tabu",
         .summary = "tabu search on the critical path (N5 block swaps, critical ops to other devices), from the best list schedule or HEFT, or from a given schedule",
         .family = "search",
         .objectives = {Objective::Makespan},
         .options = tabuOptions(),
         .usesBudget = true,
         .usesSeed = true,
         .acceptsStart = true,
         .acceptsPins = true},
        [] { return makeTabuOptimizer(); });
}

} // namespace sl
