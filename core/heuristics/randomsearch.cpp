// SPDX-License-Identifier: MIT
#include "core/heuristics/randomsearch.h"

#include "core/heuristics/evaluate.h"

#include <optional>

namespace sl {

std::vector<OpId> randomTopologicalOrder(const Graph& g, Rng& rng) {
    const int n = g.opCount();
    std::vector<int> deg(static_cast<size_t>(n));
    std::vector<OpId> ready, order;
    order.reserve(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) {
        deg[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size());
        if (deg[static_cast<size_t>(v)] == 0) ready.push_back(v);
    }
    while (!ready.empty()) {
        const auto i = static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(ready.size()) - 1));
        const OpId v = ready[i];
        ready[i] = ready.back();
        ready.pop_back();
        order.push_back(v);
        for (OpId s : g.successors(v))
            if (--deg[static_cast<size_t>(s)] == 0) ready.push_back(s);
    }
    return order;
}

std::vector<OptionSpec> randomSearchOptions() {
    OptionSpec samples{.key = "samples", .label = "Samples", .kind = OptionSpec::Kind::Int, .defaultValue = 100,
                       .min = 1, .max = 1e9, .help = "number of random candidates K (--budget overrides)"};
    OptionSpec space{.key = "space", .label = "Search space", .kind = OptionSpec::Kind::Choice, .defaultValue = 0,
                     .min = 0, .max = 2,
                     .help = "auto (orders for the memory objective), priorities (list scheduler) or orders (step clock)",
                     .choices = {"auto", "priorities", "orders"}};
    return {samples, space};
}

namespace {

class RandomSearch : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        p.check();
        RunMonitor monitor(o, progress);
        RunResult r;
        const Graph& g = p.g();
        const std::int64_t k = o.budget > 0 ? o.budget : static_cast<std::int64_t>(o.get("samples", 100));
        const std::string space = choiceValue(o, randomSearchOptions()[1], "random-search");
        const bool orders = space == "orders" || (space == "auto" && p.objective.kind == Objective::Memory);

        PriorityEvaluator evaluator(p);
        const CostFunction& costOf = evaluator.costFunction();
        // Fast path: one device, a pure memory objective on the step clock (what scoreSchedule reads).
        const bool stepOnly = orders && p.platform.deviceCount() == 1 && p.objective.kind == Objective::Memory &&
                              costOf.clock() == MemoryClock::Step;
        StepMemory mem(g, 1);
        double best = kInfinity, sum = 0;
        std::optional<std::uint64_t> bestSample;
        for (std::int64_t i = 0; i < std::max<std::int64_t>(k, 1); ++i) {
            if (i > 0 && (stop.stop_requested() || monitor.timeUp())) {
                r.cancelled = stop.stop_requested();
                break;
            }
            Rng rng(deriveSeed(o.seed, static_cast<std::uint64_t>(i)));
            double cost;
            if (orders) {
                const std::vector<OpId> order = randomTopologicalOrder(g, rng);
                cost = stepOnly ? mem.peak(order) : costOf.of(sequentialSchedule(p, order));
            } else {
                std::vector<double> key(static_cast<size_t>(g.opCount()));
                for (double& x : key) x = rng.uniform();
                cost = evaluator.cost(key);
            }
            ++r.evaluations;
            sum += cost;
            if (cost < best) {
                best = cost;
                bestSample = static_cast<std::uint64_t>(i);
            }
            monitor.report(r, best, sum / static_cast<double>(r.evaluations), static_cast<double>(i + 1) / static_cast<double>(k));
        }
        // Rebuild the winner from its stream (cheaper than keeping every candidate).
        Rng rng(deriveSeed(o.seed, *bestSample));
        if (orders) {
            r.schedule = sequentialSchedule(p, randomTopologicalOrder(g, rng));
        } else {
            std::vector<double> key(static_cast<size_t>(g.opCount()));
            for (double& x : key) x = rng.uniform();
            r.schedule = evaluator.schedule(key);
        }
        finishResult(r, p, "random-search", o, monitor);
        monitor.report(r, r.cost, sum / static_cast<double>(std::max<std::int64_t>(r.evaluations, 1)), 1.0, true);
        return r;
    }
};

} // namespace

std::unique_ptr<Optimizer> makeRandomSearch() { return std::make_unique<RandomSearch>(); }

} // namespace sl
