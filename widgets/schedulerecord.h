// SPDX-License-Identifier: MIT
#pragma once
// A schedule that did not come from a run (a sampled one, a sweep's best) as the RunRecord every
// view draws: scored, with its memory timeline and critical path. Call it off the GUI thread.
#include "widgets/types.h"

#include "core/analysis/bounds.h"

namespace sl::gui {

RunRecord recordOfSchedule(int id, const QString& name, const QString& method, std::shared_ptr<const Problem> problem,
                           Schedule schedule, TargetModel target = TargetModel::Proxy, std::uint64_t targetSeed = 1);

/// Fills r.makespanBound and r.makespanBoundSource (the analytic bounds, or the bound the run
/// proved when larger): O(ops + edges), so off the GUI thread too.
void attachBound(RunRecord& r);
/// The same with the problem's bounds already computed (lowerBounds(*r.problem)).
void attachBound(RunRecord& r, const LowerBounds& b);

/// Fills r.target and r.targetSpeedup (0 if the schedule has no makespan). Off the GUI thread.
void scoreOnTarget(RunRecord& r, TargetModel target, std::uint64_t seed);

} // namespace sl::gui
