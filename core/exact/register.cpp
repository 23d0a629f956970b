// SPDX-License-Identifier: MIT
// exact-memory: the set DP for minimum single-device step-clock peak memory.
// exact-makespan: constraint programming (Gecode) for minimum makespan.
#include "core/exact/exactmakespanoptimizer.h"
#include "core/exact/exactmemory.h"
#include "core/heuristics/evaluate.h"
#include "core/optimizer/optimizer.h"

namespace sl {

namespace {

class ExactMemoryOptimizer : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        p.check();
        RunMonitor monitor(o, progress);
        RunResult r;
        ExactMemoryLimits limits;
        limits.maxStates = static_cast<std::int64_t>(o.get("max-states", static_cast<double>(limits.maxStates)));
        limits.timeLimit = o.timeLimit > 0 ? o.timeLimit : o.get("time", limits.timeLimit);
        const ExactMemoryResult best = exactMinimumMemory(p.g(), limits, stop, [&](std::int64_t expanded, double peak) {
            r.evaluations = expanded;
            monitor.report(r, peak, peak, limits.timeLimit > 0 ? monitor.seconds() / limits.timeLimit : 0);
        });
        r.schedule = sequentialSchedule(p, best.order);
        r.evaluations = best.expanded + 4;   // + the four heuristic incumbents
        r.cancelled = best.cancelled;
        r.note = best.optimal ? "optimal (" + std::to_string(best.states) + " states)" : best.note;
        finishResult(r, p, "exact-memory", o, monitor);
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }
};

} // namespace

void registerExactOptimizers() {
    OptionSpec states{.key = "max-states", .label = "Max states", .kind = OptionSpec::Kind::Int,
                      .defaultValue = 2'000'000, .min = 1, .max = 1e8,
                      .help = "give up (returning the best heuristic order) after this many op sets"};
    OptionSpec time{.key = "time", .label = "Give up after (s)", .kind = OptionSpec::Kind::Int, .defaultValue = 10,
                    .min = 0, .max = 1e6, .help = "give up after this many seconds unless --time-limit is set"};
    OptimizerRegistry::instance().add(
        {.name = "exact-memory",
         .summary = "minimum single-device step-clock peak memory: best-first DP over op sets (bounded)",
         .family = "exact",
         .objectives = {Objective::Memory},
         .options = {states, time}},
        [] { return std::make_unique<ExactMemoryOptimizer>(); });
    OptimizerRegistry::instance().add(
        {.name = "exact-makespan",
         .summary = "minimum makespan by constraint programming (Gecode; job-shops, identical devices): "
                    "proves optima, else returns its best schedule and a proven lower bound",
         .family = "exact",
         .objectives = {Objective::Makespan},
         .options = exactMakespanOptions(),
         .usesSeed = true},
        [] { return makeExactMakespanOptimizer(); });
}

} // namespace sl
