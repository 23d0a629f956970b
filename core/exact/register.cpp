// SPDX-License-Identifier: MIT
// exact-memory: the set DP for minimum single-device step-clock peak memory.
// exact-makespan: constraint programming (Gecode) for minimum makespan.
// mem-approx-dp: the approximate DP of Gagrani et al. 2022 (K best op sets per step).
#include "core/exact/approxmemory.h"
#include "core/exact/exactmakespanoptimizer.h"
#include "core/exact/exactmemory.h"
#include "core/heuristics/evaluate.h"
#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace sl {

namespace {

constexpr double kBytesPerMiB = 1024.0 * 1024.0;

std::string bytesText(double bytes) {
    char text[64];
    std::snprintf(text, sizeof text, "%.0f bytes (%.1f MiB)", bytes, bytes / kBytesPerMiB);
    return text;
}

/// What the set searches prove is about the step-clock peak of one device: the cost only there.
bool provesTheCost(const Problem& p) {
    return p.platform.deviceCount() == 1 && p.objective.memoryClock == MemoryClock::Step;
}

class ExactMemoryOptimizer : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        p.check();
        RunMonitor monitor(o, progress);
        RunResult r;
        ExactMemoryLimits limits;
        limits.maxStates = static_cast<std::int64_t>(o.get("max-states", static_cast<double>(limits.maxStates)));
        limits.maxBytes = o.get("max-memory", limits.maxBytes / kBytesPerMiB) * kBytesPerMiB;
        limits.timeLimit = o.timeLimit > 0 ? o.timeLimit : o.get("time", limits.timeLimit);
        const ExactMemoryResult best =
            exactMinimumMemory(p.g(), limits, stop, [&](std::int64_t expanded, double peak, double bound) {
                r.evaluations = expanded;
                if (provesTheCost(p)) monitor.setBound(bound);   // the Convergence view's line rises with the proof
                monitor.report(r, peak, peak, limits.timeLimit > 0 ? monitor.seconds() / limits.timeLimit : 0);
            });
        r.schedule = sequentialSchedule(p, best.order);
        r.evaluations = best.expanded + 4;   // + the four heuristic incumbents
        r.cancelled = best.cancelled;
        if (provesTheCost(p)) r.lowerBound = best.lowerBound;
        r.note = best.optimal ? "optimal (" + std::to_string(best.states) + " states)" : best.note + "; proved >= " + bytesText(best.lowerBound);
        finishResult(r, p, "exact-memory", o, monitor);
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }
};

constexpr double kApproxSeconds = 600;   // mem-approx-dp's default time limit

class ApproxMemoryOptimizer : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        p.check();
        RunMonitor monitor(o, progress);
        RunResult r;
        ApproxMemoryOptions options;
        options.beamWidth = static_cast<int>(o.get("k", options.beamWidth));
        options.timeLimit = o.timeLimit > 0 ? o.timeLimit : o.get("time", kApproxSeconds);
        const double levels = std::max(p.g().opCount(), 1);
        const ApproxMemoryResult best =
            approximateMinimumMemory(p.g(), options, stop, [&](std::int64_t done, double incumbent) {
                monitor.report(r, incumbent, incumbent, static_cast<double>(done) / levels);
            });
        r.schedule = sequentialSchedule(p, best.order);
        r.evaluations = best.expanded + 4;   // + the four classic incumbents
        r.cancelled = best.cancelled;
        r.note = best.note;
        finishResult(r, p, "mem-approx-dp", o, monitor);
        if (best.optimal && provesTheCost(p)) {   // the beam never dropped a set: the DP was exact
            r.lowerBound = r.cost;
            monitor.setBound(r.lowerBound);
        }
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }
};

} // namespace

void registerExactOptimizers() {
    OptionSpec states{.key = "max-states", .label = "Max states", .kind = OptionSpec::Kind::Int,
                      .defaultValue = 2e9, .min = 1, .max = 2e9,
                      .help = "give up (returning the best order found and the bound proved) after this many op sets"};
    OptionSpec memory{.key = "max-memory", .label = "Max memory (MiB)", .kind = OptionSpec::Kind::Int,
                      .defaultValue = 2048, .min = 1, .max = 1e7,
                      .help = "give up when the stored op sets would take more than this many MiB"};
    OptionSpec time{.key = "time", .label = "Give up after (s)", .kind = OptionSpec::Kind::Int, .defaultValue = 10,
                    .min = 0, .max = 1e6, .help = "give up after this many seconds unless --time-limit is set"};
    OptimizerRegistry::instance().add(
        {.name = "exact-memory",
         .summary = "minimum single-device step-clock peak memory: best-first search over op sets (bounded); "
                    "proves the optimum, else returns its best order and a proven lower bound",
         .family = "exact",
         .objectives = {Objective::Memory},
         .options = {states, memory, time}},
        [] { return std::make_unique<ExactMemoryOptimizer>(); });
    OptionSpec k{.key = "k",
                 .label = "Sets per step (K)",
                 .kind = OptionSpec::Kind::Int,
                 .defaultValue = 10'000,
                 .min = 1,
                 .max = 100'000,
                 .help = "op sets kept per level; exact when no level has more"};
    OptionSpec dpTime{
        .key = "time",
        .label = "Give up after (s)",
        .kind = OptionSpec::Kind::Int,
        .defaultValue = kApproxSeconds,
        .min = 0,
        .max = 1e6,
        .help = "give up (returning the best classic order) after this many seconds unless --time-limit is set"};
    OptimizerRegistry::instance().add({.name = "mem-approx-dp",
                                       .summary = "approximate DP of Gagrani et al. 2022 (K best op sets per step)",
                                       .family = "heuristic",
                                       .objectives = {Objective::Memory},
                                       .options = {k, dpTime}},
                                      [] { return std::make_unique<ApproxMemoryOptimizer>(); });
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
