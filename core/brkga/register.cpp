// SPDX-License-Identifier: MIT
#include "core/brkga/brkgaoptimizer.h"
#include "core/optimizer/optimizer.h"

namespace sl {

void registerSearchOptimizers() {
    using brkga::Chromosomes;
    OptimizerRegistry& r = OptimizerRegistry::instance();
    r.add({.name = "brkga",
           .summary = "BRKGA on REGAL's chromosome: device affinities, op and transfer priorities (docs/brkga.md; the REGAL paper, §3)",
           .family = "search",
           .objectives = {Objective::Memory, Objective::Makespan, Objective::Weighted},
           .options = brkga::optionSpecs(Chromosomes::Regal),
           .usesBudget = true,
           .usesSeed = true},
          [] { return brkga::makeOptimizer(Chromosomes::Regal); });
    r.add({.name = "brkga-order",
           .summary = "BRKGA on list-scheduling priorities only, warm-started with list-cp (job-shop, STG)",
           .family = "search",
           .objectives = {Objective::Makespan, Objective::Memory, Objective::Weighted},
           .options = brkga::optionSpecs(Chromosomes::Order),
           .usesBudget = true,
           .usesSeed = true},
          [] { return brkga::makeOptimizer(Chromosomes::Order); });
    r.add({.name = "brkga-chains",
           .summary = "BRKGA on a priority and a device key per op, decoded into device chains (the GFlowNet paper's baseline, docs/brkga.md)",
           .family = "search",
           .objectives = {Objective::Makespan},
           .options = brkga::optionSpecs(Chromosomes::Chains),
           .usesBudget = true,
           .usesSeed = true,
           .acceptsStart = true},
          [] { return brkga::makeOptimizer(Chromosomes::Chains); });
}

} // namespace sl
