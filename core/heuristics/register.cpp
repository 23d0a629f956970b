// SPDX-License-Identifier: MIT
// The classic one-shot schedulers and random best-of-K.
#include "core/heuristics/classicoptimizers.h"
#include "core/heuristics/memoryorders.h"
#include "core/heuristics/priorities.h"
#include "core/heuristics/randomsearch.h"
#include "core/optimizer/optimizer.h"

namespace sl {

void registerClassicOptimizers() {
    auto& reg = OptimizerRegistry::instance();
    const std::vector<Objective> timeFirst = {Objective::Makespan, Objective::Weighted, Objective::Memory};
    const std::vector<Objective> memoryFirst = {Objective::Memory, Objective::Weighted, Objective::Makespan};
    auto rule = [&](const char* name, const char* summary, PriorityRule fn) {
        // the list scheduler keeps the problem's pins (core/costmodel/listscheduler.h)
        reg.add({.name = name, .summary = summary, .family = "heuristic", .objectives = timeFirst, .acceptsPins = true},
                [name, fn] { return makePriorityRuleOptimizer(name, fn); });
    };
    rule("list-cp", "list scheduling by critical path (longest remaining duration first)", criticalPathPriorities);
    rule("list-mopnr", "list scheduling by most operations remaining, ties by critical path", mopnrPriorities);
    rule("list-spt", "list scheduling by shortest processing time first, ties by critical path", sptPriorities);
    reg.add({.name = "heft", .summary = "HEFT: upward rank over mean costs, insertion-based earliest finish time",
             .family = "heuristic", .objectives = timeFirst},
            [] { return makeHeftOptimizer(); });
    auto order = [&](const char* name, const char* summary, OrderRule fn) {
        reg.add({.name = name, .summary = summary, .family = "memory order", .objectives = memoryFirst},
                [name, fn] { return makeOrderRuleOptimizer(name, fn); });
    };
    order("mem-dfs", "depth-first sequencing (Kahn with a stack), step-clock memory", dfsOrder);
    order("mem-bfs", "breadth-first sequencing (Kahn with a queue), step-clock memory", bfsOrder);
    order("mem-postorder", "XLA DFS post-order from the sinks (extra users, then sizes), step-clock memory", postOrder);
    order("mem-xla-list", "XLA list scheduler: most bytes freed minus allocated first, step-clock memory", xlaListOrder);
    reg.add({.name = "random-search", .summary = "best of K random priorities or topological orders (seeded)",
             .family = "search", .objectives = timeFirst, .options = randomSearchOptions(), .usesBudget = true,
             .usesSeed = true},
            [] { return makeRandomSearch(); });
}

} // namespace sl
