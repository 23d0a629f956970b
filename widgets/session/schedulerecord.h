// SPDX-License-Identifier: MIT
#pragma once
// A schedule that did not come from a run (a sampled one, a sweep's best) as the RunRecord every
// view draws: scored, with its memory timeline and critical path. Call it off the GUI thread.
#include "widgets/session/types.h"

#include "core/analysis/bounds.h"

namespace sl::gui {

RunRecord recordOfSchedule(int id, const QString& name, const QString& method, std::shared_ptr<const Problem> problem,
                           Schedule schedule, const ScoringTarget& target = {});

/// The one place a RunRecord is assembled from a result: its memory timeline, critical path, the
/// score on `target` and the bounds (`bounds`: lowerBounds(*problem), computed by the caller when
/// it needs them sooner). Off the GUI thread.
RunRecord recordOfResult(int id, const QString& name, const QString& method, std::shared_ptr<const Problem> problem,
                         std::shared_ptr<const RunResult> result, const RunOptions& options,
                         const ScoringTarget& target, const LowerBounds& bounds);

/// `base` with its schedule replaced by `schedule` (scored: `cost`), as result `id` named `name`:
/// the problem, target and bounds are base's (the same problem), the memory timeline and critical
/// path are the new schedule's. O(V + E): a hand edit's record, on the GUI thread.
/// The note editedRecord gives a result: the results table reads its makespan to the unit.
inline constexpr const char* kEditedByHandNote = "edited by hand";
RunRecord editedRecord(const RunRecord& base, int id, const QString& name, Schedule schedule, double cost);

/// `r`'s schedule re-timed on `problem`: each op keeps its device and its place in the device's
/// sequence, timeChains gives the times and the app's scoring the rest (cost, memory, critical
/// path, bounds, the score on `target`), as result `id` named `name`. Throws std::exception naming
/// why the schedule does not fit `problem` (a device it lacks, another machine type). O(V + E)
/// plus the bounds.
RunRecord retimedRecord(const RunRecord& r, std::shared_ptr<const Problem> problem, int id, const QString& name,
                        const ScoringTarget& target);

/// Fills r.makespanBound and r.makespanBoundSource (the analytic bounds, or the bound the run
/// proved when larger) and r.memoryBound: O(ops^2 / 64) at most (core/analysis/bounds.h), so off the
/// GUI thread too.
void attachBound(RunRecord& r);
/// The same with the problem's bounds already computed (lowerBounds(*r.problem)).
void attachBound(RunRecord& r, const LowerBounds& b);

/// The bound on a cost of this objective: the makespan bound, the peak-memory bound, or 0 for the
/// weighted objective (its scale makes no bound of its own).
double costBound(Objective objective, const LowerBounds& b);
/// The same for a record: its proven makespan bound when the run raised it.
double costBound(const RunRecord& r);

/// Fills r.target and r.targetSpeedup (0 if the schedule has no makespan, or the measured target
/// has no graph of r's ops). Off the GUI thread.
void scoreOnTarget(RunRecord& r, const ScoringTarget& target);

}   // namespace sl::gui
