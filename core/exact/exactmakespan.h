// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Minimum makespan by constraint programming (Gecode): proves optima of small machine-constrained
/// problems (job-shops, task graphs on identical devices) and, when stopped early, returns its best
/// schedule with a proven lower bound.
///
/// The model (core/exact/makespanspace.h) accepts only problems where it is exact
/// (core/exact/cpinstance.h says which; others throw std::invalid_argument). The run starts from
/// the best classic heuristic's schedule (sl::bestClassicSchedule) and core/analysis/bounds.h's
/// makespan bound, raises the bound by probing makespans from below (core/exact/boundprobe.h: at
/// most a quarter of a time limit), then runs Gecode's branch and bound for strictly shorter
/// schedules. Each model solution is turned into device chains and timed by the cost model
/// (sl::timeChains), so the schedule's makespan is the cost model's own. An exhausted search proves
/// the incumbent optimal.
///
/// One case is a relaxation rather than exact: an op of zero duration with both predecessors and
/// successors on a pool of several devices (the cumulative propagator lets it run while every
/// device is busy). The bound stays valid; "optimal" is then claimed only when the cost model's
/// makespan of the schedule meets it.
///
/// Runs on the calling thread, one search thread: a seed gives one schedule, unless a time limit
/// or a cancellation cuts the search. Cancellation and the time limit are checked at every search
/// node.
///
/// \code
///   sl::ExactMakespanLimits limits{.timeLimit = 10};
///   sl::ExactMakespanResult r = sl::solveExactMakespan(problem, limits);
///   if (r.optimal) assert(r.lowerBound == r.schedule.makespan);
/// \endcode

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

namespace sl {

struct ExactMakespanLimits {
    double timeLimit = 0;          ///< seconds; 0 = none
    std::uint64_t failLimit = 0;   ///< search failures; 0 = none (a limit that does not depend on the clock)
    std::uint64_t seed = 1;        ///< orders ties in the branching
};

/// Where a run stands (progress reports and the final state).
struct ExactMakespanStatus {
    double best = 0;    ///< makespan of the incumbent (cost model)
    double bound = 0;   ///< proven lower bound on the optimum
    std::int64_t nodes = 0;
    std::int64_t failures = 0;
    int solutions = 0;  ///< improving schedules the search found (the heuristic's not counted)
};

struct ExactMakespanResult {
    Schedule schedule;      ///< the best schedule; timed, transfers set, memory values not filled
    double lowerBound = 0;  ///< equals schedule.makespan when `optimal`
    bool optimal = false;
    bool cancelled = false;
    ExactMakespanStatus status;
    std::string note;       ///< how the run ended, for RunResult::note
};

using ExactMakespanProgress = std::function<void(const ExactMakespanStatus&)>;

/// Throws std::invalid_argument if the model is not exact for `p` (the message says why).
/// `progress` (may be empty) is called after each improvement and about every 50 ms.
ExactMakespanResult solveExactMakespan(const Problem& p, const ExactMakespanLimits& limits, std::stop_token stop = {},
                                       const ExactMakespanProgress& progress = {});

} // namespace sl
