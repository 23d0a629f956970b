// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Optimizer wrappers of the one-shot classic methods: priority rules (list-cp, list-mopnr,
/// list-spt), HEFT and the memory orders (mem-dfs, mem-bfs, mem-postorder, mem-xla-list).
/// Each runs once (1 evaluation); seeds are recorded but unused.

#include "core/graph/graph.h"
#include "core/optimizer/optimizer.h"

#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace sl {

using PriorityRule = std::function<std::vector<double>(const Graph&)>;
using OrderRule = std::function<std::vector<OpId>(const Graph&)>;

/// Priorities from `rule` -> sl::ListScheduler (platform, machine types and resources respected).
std::unique_ptr<Optimizer> makePriorityRuleOptimizer(std::string name, PriorityRule rule);
/// Total order from `rule` -> sl::sequentialSchedule (step-clock memory, ops back to back).
std::unique_ptr<Optimizer> makeOrderRuleOptimizer(std::string name, OrderRule rule);
/// Insertion-based HEFT (core/heuristics/heft.h).
std::unique_ptr<Optimizer> makeHeftOptimizer();

struct NamedSchedule {
    std::string method;
    Schedule schedule;   ///< scored (sl::scoreSchedule)
    double cost = 0;
};

/// The schedules of the one-shot time heuristics: list-cp, list-mopnr, list-spt, heft, in that
/// order, each scored by the cost model. One evaluation each; heft stops early (with a valid
/// schedule) when `stop` fires. The local searches start from them. With pins, only those that
/// keep them (the list schedulers' always do).
std::vector<NamedSchedule> classicSchedules(const Problem& p, std::stop_token stop = {});

/// The lowest-cost of classicSchedules(); the first of them wins a tie. Exact methods start from it
/// as their incumbent.
Schedule bestClassicSchedule(const Problem& p, std::stop_token stop = {});

} // namespace sl
