// SPDX-License-Identifier: MIT
#include "widgets/session/schedulerecord.h"

#include "core/optimizer/resultbound.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/sharedlinks.h"
#include "widgets/session/criticalpath.h"

namespace sl::gui {

RunRecord recordOfSchedule(int id, const QString& name, const QString& method, std::shared_ptr<const Problem> problem,
                           Schedule schedule, const ScoringTarget& target) {
    auto result = std::make_shared<RunResult>();
    result->schedule = std::move(schedule);
    result->cost = scoreSchedule(*problem, result->schedule);
    result->evaluations = 1;
    RunOptions options;
    options.seed = result->schedule.seed;
    const LowerBounds bounds = lowerBounds(*problem);
    return recordOfResult(id, name, method, std::move(problem), std::move(result), options, target, bounds);
}

RunRecord recordOfResult(int id, const QString& name, const QString& method, std::shared_ptr<const Problem> problem,
                         std::shared_ptr<const RunResult> result, const RunOptions& options,
                         const ScoringTarget& target, const LowerBounds& bounds) {
    RunRecord r;
    r.id = id;
    r.name = name;
    r.method = method;
    r.problem = std::move(problem);
    r.options = options;
    r.memory = std::make_shared<MemoryTimeline>(computeMemoryTimeline(*r.problem, result->schedule));
    r.criticalPath = criticalPath(*r.problem, result->schedule);
    r.result = std::move(result);
    scoreOnTarget(r, target);
    attachBound(r, bounds);
    return r;
}

RunRecord editedRecord(const RunRecord& base, int id, const QString& name, Schedule schedule, double cost) {
    auto result = std::make_shared<RunResult>();
    result->schedule = std::move(schedule);
    result->cost = cost;
    result->evaluations = 1;
    result->lowerBound = base.result ? base.result->lowerBound : 0;   // a bound of the problem, still true
    result->note = kEditedByHandNote;
    RunRecord r = base;
    r.id = id;
    r.name = name;
    r.memory = std::make_shared<MemoryTimeline>(computeMemoryTimeline(*r.problem, result->schedule));
    r.criticalPath = criticalPath(*r.problem, result->schedule);
    r.result = std::move(result);
    scoreOnTarget(r, base.target);
    return r;
}

void attachBound(RunRecord& r) {
    if (r.problem) attachBound(r, lowerBounds(*r.problem));
}

void attachBound(RunRecord& r, const LowerBounds& b) {
    r.makespanBound = b.makespan;
    r.makespanBoundSource = QString::fromUtf8(b.makespanSource);
    r.memoryBound = b.memory;
    r.memoryBoundSource = QStringLiteral("cut bound: %1").arg(QString::fromUtf8(b.memorySource));
    if (!r.result) return;
    // a bound an exact method proved (exact-makespan, exact-memory), when above the analytic ones
    const CostBound tightest = tightestBound(*r.problem, *r.result, b);
    if (!tightest.proven) return;
    const QString source = tightest.source == "proved by the run" ? QStringLiteral("proved by %1").arg(r.method)
                                                                  : QString::fromStdString(tightest.source);
    if (r.problem->objective.kind == Objective::Makespan) {
        r.makespanBound = tightest.value;
        r.makespanBoundSource = source;
    } else {
        r.memoryBound = tightest.value;
        r.memoryBoundSource = source;
    }
}

double costBound(Objective objective, const LowerBounds& b) {
    return objective == Objective::Makespan ? b.makespan : objective == Objective::Memory ? b.memory : 0;
}

double costBound(const RunRecord& r) {
    if (!r.problem) return 0;
    const Objective kind = r.problem->objective.kind;
    return kind == Objective::Makespan ? r.makespanBound : kind == Objective::Memory ? r.memoryBound : 0;
}

void scoreOnTarget(RunRecord& r, const ScoringTarget& target) {
    r.target = target;
    try {
        const Problem judge = target.model == TargetModel::Measured
            ? measuredTargetProblem(*r.problem, target.measured)
            : targetProblem(*r.problem, target.model, target.seed);
        r.targetSpeedup = targetSpeedup(judge, r.schedule());
    } catch (const std::exception&) {
        r.targetSpeedup = 0;   // e.g. every duration zero: no speedup to show
    }
}

RunRecord retimedRecord(const RunRecord& r, std::shared_ptr<const Problem> problem, int id, const QString& name,
                        const ScoringTarget& target) {
    Schedule s = retimeSchedule(*problem, r.schedule());   // throws for a device the platform lacks
    s.method = r.schedule().method;
    s.seed = r.schedule().seed;
    RunRecord out = recordOfSchedule(id, name, r.method, std::move(problem), std::move(s), target);
    out.options = r.options;
    return out;
}

}   // namespace sl::gui
