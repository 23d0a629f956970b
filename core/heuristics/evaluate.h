// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The two evaluations every scheduling method shares, in one place:
///  - a priority vector -> timed list schedule (sl::ListScheduler) and its objective cost;
///  - a total order -> sequential schedule (the memory orders' model);
/// both scored through core/costmodel/cost.h, the one scalar cost.
///
/// \code
///   sl::PriorityEvaluator ev(problem);
///   double c = ev.cost(priorities);          // fast path: makespan only when that is enough
///   sl::Schedule s = ev.schedule(priorities);
/// \endcode

#include "core/costmodel/cost.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/problem.h"
#include "core/costmodel/stepmemory.h"
#include "core/costmodel/timememory.h"
#include "core/optimizer/optimizer.h"
#include "core/schedule/schedule.h"

#include <chrono>
#include <span>
#include <string>
#include <vector>

namespace sl {

/// Timed list schedules of priority vectors (higher key = earlier), scored on the problem's
/// objective and memory clock exactly as sl::scoreSchedule scores the schedule. One per thread.
class PriorityEvaluator {
public:
    explicit PriorityEvaluator(const Problem& p);
    /// Scalar cost; only the makespan is computed when the objective does not need memory.
    double cost(std::span<const double> priority, std::span<const int> placement = {});
    /// The full schedule, scored (sl::scoreSchedule); method name and seed left empty.
    Schedule schedule(std::span<const double> priority, std::span<const int> placement = {});
    const CostFunction& costFunction() const { return m_cost; }

private:
    const Problem& m_problem;
    ListScheduler m_scheduler;
    CostFunction m_cost;
    StepMemory m_stepMemory;
    TimeMemory m_timeMemory;
    std::vector<double> m_devicePeaks;
};

/// Runs a topological `order` one op at a time: each op on the first device of its machine type,
/// starting when the previous op has ended and its inputs have arrived (ops back to back on one
/// device when the graph has a single machine type). Scored (sl::scoreSchedule); transfers go
/// just before their first consumer. Throws std::invalid_argument if `order` is not a
/// topological permutation.
Schedule sequentialSchedule(const Problem& p, std::span<const OpId> order);

/// Priorities that reproduce `order` in the list scheduler (first op = highest key).
std::vector<double> prioritiesFromOrder(std::span<const OpId> order);

/// Small bookkeeping shared by the optimizers: wall clock, progress reports at most every
/// `interval` seconds, history and the time limit.
class RunMonitor {
public:
    RunMonitor(const RunOptions& options, const ProgressFn& progress, double interval = 0.05);
    double seconds() const;
    bool timeUp() const { return m_options.timeLimit > 0 && seconds() >= m_options.timeLimit; }
    /// Reports if the last report is older than the interval (or `force`): into r.history and to
    /// the progress callback.
    void report(RunResult& r, double best, double mean, double fraction, bool force = false);
    /// Every call goes into r.history (a full convergence curve, e.g. one point per generation);
    /// the progress callback is still throttled to the interval.
    void record(RunResult& r, double best, double mean, double fraction);
    /// The proven lower bound that later reports carry (Progress::bound); exact methods raise it.
    void setBound(double bound) { m_bound = bound; }

private:
    Progress progressOf(const RunResult& r, double best, double mean, double fraction, double now) const;

    const RunOptions& m_options;
    const ProgressFn& m_progress;
    double m_interval;
    std::chrono::steady_clock::time_point m_begin;
    double m_last = -1;
    double m_bound = 0;
};

/// With shared links (core/costmodel/sharedlinks.h), first re-times `r.schedule` and the candidates
/// by the link-booking replay of their own placement and order. Then scores `r.schedule`
/// (sl::scoreSchedule: the reported cost is the one `evaluate` computes) and
/// fills cost, seconds, method and seed of `r`; when candidates are asked for and the method kept
/// none, `r.schedule` is the one candidate.
void finishResult(RunResult& r, const Problem& p, const std::string& method, const RunOptions& o,
                  const RunMonitor& monitor);

} // namespace sl
