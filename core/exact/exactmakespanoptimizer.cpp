// SPDX-License-Identifier: MIT
#include "core/exact/exactmakespanoptimizer.h"

#include "core/exact/exactmakespan.h"
#include "core/heuristics/evaluate.h"

namespace sl {

namespace {

constexpr double kDefaultSeconds = 60;

class ExactMakespanOptimizer : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        RunMonitor monitor(o, progress);
        RunResult r;
        ExactMakespanLimits limits;
        limits.timeLimit = o.timeLimit > 0 ? o.timeLimit : o.get("time", kDefaultSeconds);
        limits.failLimit = static_cast<std::uint64_t>(o.get("fail-limit", 0));
        limits.seed = o.seed;
        auto fraction = [&](const ExactMakespanStatus& s) {
            double f = limits.timeLimit > 0 ? monitor.seconds() / limits.timeLimit : 0;
            if (limits.failLimit > 0) f = std::max(f, static_cast<double>(s.failures) / static_cast<double>(limits.failLimit));
            return f;
        };
        ExactMakespanResult best = solveExactMakespan(p, limits, stop, [&](const ExactMakespanStatus& s) {
            r.evaluations = s.nodes;
            monitor.setBound(s.bound);
            monitor.report(r, s.best, s.best, fraction(s));
        });
        r.schedule = std::move(best.schedule);
        r.evaluations = best.status.nodes;
        r.cancelled = best.cancelled;
        r.lowerBound = best.lowerBound;
        r.note = best.note;
        finishResult(r, p, "exact-makespan", o, monitor);
        monitor.setBound(r.lowerBound);
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }
};

} // namespace

std::unique_ptr<Optimizer> makeExactMakespanOptimizer() { return std::make_unique<ExactMakespanOptimizer>(); }

std::vector<OptionSpec> exactMakespanOptions() {
    return {{.key = "time", .label = "Give up after (s)", .kind = OptionSpec::Kind::Int, .defaultValue = kDefaultSeconds,
             .min = 0, .max = 1e6, .help = "stop the search after this many seconds unless --time-limit is set (0 = none)"},
            {.key = "fail-limit", .label = "Failure limit", .kind = OptionSpec::Kind::Int, .defaultValue = 0, .min = 0,
             .max = 1e12, .help = "stop after this many search failures (0 = none): a limit independent of the clock"}};
}

} // namespace sl
