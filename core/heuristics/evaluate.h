// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The two evaluations every scheduling method shares, in one place:
///  - a priority vector -> timed list schedule (sl::ListScheduler) and its objective cost;
///  - a total order -> sequential schedule on the step clock (the memory orders' model) and its cost;
/// plus the scalar cost of any schedule under the problem's objective (sl::scalarCost with the
/// lower bounds of core/analysis as the weighted objective's scales).
///
/// \code
///   sl::PriorityEvaluator ev(problem);
///   double c = ev.cost(priorities);          // fast path: makespan only when that is enough
///   sl::Schedule s = ev.schedule(priorities);
/// \endcode

#include "core/costmodel/listscheduler.h"
#include "core/costmodel/problem.h"
#include "core/costmodel/stepmemory.h"
#include "core/optimizer/optimizer.h"
#include "core/schedule/schedule.h"

#include <chrono>
#include <span>
#include <string>
#include <vector>

namespace sl {

/// Normalisers of the weighted objective: the makespan and memory lower bounds (at least 1e-9).
struct CostScales {
    double makespan = 1;
    double memory = 1;
};
CostScales costScales(const Problem& p);

/// True when the scalar cost depends on peak memory (memory / weighted objectives, or makespan
/// with a finite device memory capacity to enforce).
bool costNeedsMemory(const Problem& p);

/// Scalar cost of a schedule: its makespan, peakMemory and devicePeakMemory under p.objective.
double scheduleCost(const Problem& p, const Schedule& s, const CostScales& scales);
double scheduleCost(const Problem& p, const Schedule& s);

/// Timed list schedules of priority vectors (higher key = earlier). One per thread.
class PriorityEvaluator {
public:
    explicit PriorityEvaluator(const Problem& p);
    /// Scalar cost; only the makespan is computed when the objective does not need memory.
    double cost(std::span<const double> priority, std::span<const int> placement = {});
    /// The full schedule (time-clock memory), method name and seed left empty.
    Schedule schedule(std::span<const double> priority, std::span<const int> placement = {});
    const CostScales& scales() const { return m_scales; }

private:
    const Problem& m_problem;
    ListScheduler m_scheduler;
    CostScales m_scales;
    bool m_needsMemory;
};

/// Runs a topological `order` one op at a time: each op on the first device of its machine type,
/// starting when the previous op has ended and its inputs have arrived (ops back to back on one
/// device when the graph has a single machine type). Memory is the step clock of `order`
/// (memoryClock = "step"; transfers inserted before their first consumer). Throws
/// std::invalid_argument if `order` is not a topological permutation.
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
    /// Reports if the last report is older than the interval (or `force`).
    void report(RunResult& r, double best, double mean, double fraction, bool force = false);

private:
    const RunOptions& m_options;
    const ProgressFn& m_progress;
    double m_interval;
    std::chrono::steady_clock::time_point m_begin;
    double m_last = -1;
};

/// Fills cost, seconds, method and seed of `r` from its schedule.
void finishResult(RunResult& r, const Problem& p, const std::string& method, const RunOptions& o,
                  const RunMonitor& monitor, double cost);

} // namespace sl
