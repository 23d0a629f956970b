// SPDX-License-Identifier: MIT
#include "core/localsearch/tabuoptimizer.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/sharedlinks.h"
#include "core/heuristics/classicoptimizers.h"
#include "core/heuristics/evaluate.h"
#include "core/localsearch/polish.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sl {

std::vector<OptionSpec> tabuOptions() {
    using K = OptionSpec::Kind;
    const TabuParams d;
    return {
        {"tenure-min", "Shortest tenure", K::Int, static_cast<double>(d.tenureMin), 1, 1e6,
         "fewest iterations a swap or relocation stays forbidden to undo"},
        {"tenure-max", "Longest tenure", K::Int, static_cast<double>(d.tenureMax), 1, 1e6,
         "most such iterations (each move draws its tenure between the two)"},
        {"restart-stall", "Restart after", K::Int, static_cast<double>(d.restartStall), 0, 1e9,
         "iterations without a new best before going back to the best, perturbed (0 = never)"},
        {"perturbation", "Perturbation", K::Int, static_cast<double>(d.perturbation), 0, 1000,
         "random critical-path moves made on the best at each restart"},
    };
}

TabuParams tabuParamsFromOptions(const RunOptions& o) {
    const TabuParams d;
    auto integer = [&](const char* key, double fallback) { return std::llround(o.get(key, fallback)); };
    TabuParams p;
    p.tenureMin = static_cast<int>(integer("tenure-min", d.tenureMin));
    p.tenureMax = static_cast<int>(integer("tenure-max", d.tenureMax));
    p.restartStall = integer("restart-stall", static_cast<double>(d.restartStall));
    p.perturbation = static_cast<int>(integer("perturbation", d.perturbation));
    p.check();
    return p;
}

namespace {

/// The schedule a run was asked to start from (RunOptions::start), scored on `p`.
NamedSchedule givenStart(const Problem& p, const Schedule& start) {
    NamedSchedule s{"the start schedule", start, 0};
    s.cost = scoreSchedule(p, s.schedule);
    return s;
}

class TabuOptimizer final : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        p.check();
        const TabuParams params = tabuParamsFromOptions(o);
        RunMonitor monitor(o, progress);
        RunResult r;
        const CostFunction cost(p);
        const ChainCost chainCost = chainCostFor(p, cost);

        std::vector<NamedSchedule> starts = o.start ? std::vector<NamedSchedule>{givenStart(p, *o.start)} : classicSchedules(p, stop);
        const std::int64_t startEvaluations = static_cast<std::int64_t>(starts.size());
        const auto fallback = std::min_element(starts.begin(), starts.end(),
                                               [](const auto& a, const auto& b) { return a.cost < b.cost; });
        // Search from the heuristic whose chains time best (the same one, unless a device overlaps ops).
        std::vector<ChainSchedule> chains;
        for (const NamedSchedule& s : starts) chains.emplace_back(p, deviceChains(s.schedule, p.platform.deviceCount()));
        size_t from = 0;
        for (size_t i = 1; i < chains.size(); ++i)
            if (chainCost(chains[i]) < chainCost(chains[from])) from = i;
        TabuSearch search(std::move(chains[from]), params, o.seed, chainCost);

        const std::int64_t budget = o.budget > 0 ? o.budget
                                    : o.timeLimit > 0 ? std::numeric_limits<std::int64_t>::max()
                                                      : kTabuDefaultBudget;
        auto evaluations = [&] { return startEvaluations + search.evaluations(); };
        auto interrupted = [&] { return evaluations() >= budget || stop.stop_requested() || monitor.timeUp(); };
        auto fraction = [&] {
            double f = budget == std::numeric_limits<std::int64_t>::max() ? 0.0 : static_cast<double>(evaluations()) / static_cast<double>(budget);
            if (o.timeLimit > 0) f = std::max(f, monitor.seconds() / o.timeLimit);
            return f;
        };
        auto incumbent = [&] { return std::min(fallback->cost, search.bestCost()); };

        // A makespan at the lower bound is optimal: nothing left to search for.
        const double bound = p.objective.kind == Objective::Makespan && !cost.needsMemory() ? lowerBounds(p).makespan : -kInfinity;
        TabuSearch::Step step = TabuSearch::Step::Moved;
        while (incumbent() > bound && !interrupted()) {
            step = search.step(interrupted);
            r.evaluations = evaluations();
            monitor.report(r, incumbent(), search.currentCost(), fraction());
            if (step == TabuSearch::Step::NoMoves) break;
        }

        const bool searched = search.bestCost() < fallback->cost;
        r.schedule = searched ? timeChainsOnPlatform(p, search.best()) : std::move(fallback->schedule);
        r.evaluations = evaluations();
        r.cancelled = stop.stop_requested();
        finishResult(r, p, "tabu", o, monitor);
        r.note = std::to_string(search.iterations()) + " iterations, " + std::to_string(search.restarts()) +
                 " restarts from " + starts[from].method + "'s chains" +
                 (searched ? std::string() : "; " + fallback->method + "'s schedule kept") +
                 (r.cost <= bound                    ? "; optimal: the makespan meets the lower bound"
                  : step == TabuSearch::Step::NoMoves ? "; stopped: no move left on the critical path"
                                                      : "");
        monitor.report(r, r.cost, search.currentCost(), 1.0, true);
        return r;
    }
};

} // namespace

std::unique_ptr<Optimizer> makeTabuOptimizer() { return std::make_unique<TabuOptimizer>(); }

} // namespace sl
