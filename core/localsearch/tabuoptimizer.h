// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The registered `tabu` method: sl::TabuSearch from the best classic schedule.
///
/// It times the device chains of list-cp, list-mopnr, list-spt and heft (sl::classicSchedules,
/// core/heuristics/classicoptimizers.h) one op at a time per device, searches from the cheapest, and returns the
/// best schedule it found, or the best heuristic's own schedule when the search did not beat it
/// (on devices that run several ops at once a list schedule can overlap them; chains cannot).
/// The result is never worse than the four heuristics.
///
/// Budget: neighbours evaluated, 200,000 by default; with --time-limit and no --budget the time
/// alone bounds the run. It stops early when the makespan meets the lower bound of
/// core/analysis/bounds.h, or when the critical path admits no move (the makespan is then
/// optimal for devices that run one op at a time). Makespan objective; for a cost that
/// reads memory (a memory cap) every neighbour is scored by the full cost model, much slower.
/// Single-threaded: `threads` is ignored, so a seed gives one schedule whatever the thread count.

#include "core/localsearch/tabusearch.h"
#include "core/optimizer/optimizer.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace sl {

/// Options: tenure-min, tenure-max, restart-stall, perturbation (TabuParams' fields).
std::vector<OptionSpec> tabuOptions();
TabuParams tabuParamsFromOptions(const RunOptions& o);
std::unique_ptr<Optimizer> makeTabuOptimizer();

inline constexpr std::int64_t kTabuDefaultBudget = 200000;

} // namespace sl
