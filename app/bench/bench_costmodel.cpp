// SPDX-License-Identifier: MIT
// `schedlab-cli bench costmodel`: cost-model evaluations per second on layered graphs.
#include "bench.h"

#include "core/costmodel/listscheduler.h"
#include "core/heuristics/evaluate.h"
#include "core/costmodel/stepmemory.h"
#include "core/generators/generators.h"
#include "core/heuristics/randomsearch.h"
#include "core/util/random.h"

#include <chrono>
#include <algorithm>
#include <cstdio>

namespace sl::cli {
namespace bench_costmodel {
namespace {

/// Calls `once()` repeatedly for at least `seconds` of wall time; returns calls per second.
template <typename F>
double ratePerSecond(double seconds, F once) {
    using Clock = std::chrono::steady_clock;
    const auto begin = Clock::now();
    std::int64_t calls = 0;
    double elapsed = 0;
    volatile double sink = 0;
    while (elapsed < seconds) {
        for (int i = 0; i < 8; ++i, ++calls) sink = sink + once(calls);
        elapsed = std::chrono::duration<double>(Clock::now() - begin).count();
    }
    return static_cast<double>(calls) / elapsed;
}

int runCostModelBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    const std::vector<int> sizes = args.takeIntList("sizes", quick ? "100" : "100,1000,10000");
    const std::vector<int> deviceCounts = args.takeIntList("devices", quick ? "1,2" : "1,2,4");
    const double seconds = args.takeDouble("seconds", quick ? 0.05 : 0.5);
    const auto seed = static_cast<std::uint64_t>(args.takeInt("seed", 1));
    args.finish(1);
    if (seconds <= 0) throw UsageError("--seconds must be positive");

    std::printf("Cost model throughput, one thread, layered graphs (seed %llu), %.2f s per cell\n",
                static_cast<unsigned long long>(seed), seconds);
    std::printf("%8s %8s %8s %16s %10s %16s %16s %10s %10s\n", "ops", "edges", "devices", "makespan eval/s", "us/eval",
                "memory(step)/s", "memory(time)/s", "step/ms", "time/ms");
    constexpr int kPool = 16;   // candidate vectors generated up front, outside the timing
    std::vector<std::pair<int, double>> stepRates;
    struct Row {
        int devices;
        double makespan, step, time;   // evaluations per second
    };
    std::vector<Row> targetRows;   // the 1,000-op rows the speed targets speak of (docs/costmodel.md)
    for (int n : sizes) {
        const GeneratedInstance inst = generateInstance("layered", n, seed);
        const Graph& g = *inst.graph;
        Rng rng(seed);
        std::vector<std::vector<double>> priorities(kPool, std::vector<double>(static_cast<size_t>(g.opCount())));
        for (auto& p : priorities)
            for (double& x : p) x = rng.uniform();
        for (int d : deviceCounts) {
            // The evaluation an optimizer's inner loop makes (sl::PriorityEvaluator::cost) for
            // each objective; the memory objectives add their clock to the list schedule.
            auto rateFor = [&](Objective kind, MemoryClock clock) {
                Problem problem;
                problem.graph = inst.graph;
                problem.platform = Platform::identical(d);
                problem.objective.kind = kind;
                problem.objective.memoryClock = clock;
                PriorityEvaluator evaluator(problem);
                return ratePerSecond(seconds, [&](std::int64_t i) {
                    return evaluator.cost(priorities[static_cast<size_t>(i % kPool)]);
                });
            };
            const double makespan = rateFor(Objective::Makespan, MemoryClock::Step);
            const double step = rateFor(Objective::Memory, MemoryClock::Step);
            const double time = rateFor(Objective::Memory, MemoryClock::Time);
            std::printf("%8d %8d %8d %16.0f %10.2f %16.0f %16.0f %9.2fx %9.2fx\n", g.opCount(), g.edgeCount(), d, makespan,
                        1e6 / makespan, step, time, makespan / step, makespan / time);
            if (g.opCount() == 1000) targetRows.push_back({d, makespan, step, time});
            std::fflush(stdout);
        }
        std::vector<std::vector<OpId>> orders;
        for (int i = 0; i < kPool; ++i) orders.push_back(randomTopologicalOrder(g, rng));
        StepMemory mem(g, 1);
        stepRates.push_back({g.opCount(), ratePerSecond(seconds, [&](std::int64_t i) {
                                 return mem.peak(orders[static_cast<size_t>(i % kPool)]);
                             })});
    }
    std::printf("\n%8s %18s %14s\n", "ops", "step-clock eval/s", "us/eval");
    for (auto [n, rate] : stepRates) std::printf("%8d %18.0f %14.2f\n", n, rate, 1e6 / rate);
    // The speed targets (docs/costmodel.md, "Speed") started from numbers measured on one device
    // (27,000 evaluations/s, a memory evaluation 8x a makespan one); the other device counts are
    // printed beside them.
    std::printf("\nTargets (the cost model's speed targets, docs/costmodel.md; one core, 1,000 ops, one device, where\n"
                "their baseline was measured): >= 40,000 makespan evaluations/s; a memory-objective evaluation\n"
                "at most 1.5x a makespan one, on either clock.\n");
    auto verdict = [](bool met) { return met ? "met" : "MISSED"; };
    for (const Row& r : targetRows)
        std::printf("  %d device%s: makespan %.0f/s %s; step clock %.2fx %s; time clock %.2fx %s%s\n", r.devices,
                    r.devices == 1 ? "" : "s", r.makespan, verdict(r.makespan >= 40000), r.makespan / r.step,
                    verdict(r.makespan / r.step <= 1.5), r.makespan / r.time, verdict(r.makespan / r.time <= 1.5),
                    r.devices == 1 ? "" : " (beyond the targets)");
    return 0;
}

SL_CLI_BENCH({"costmodel", "list-scheduler and step-clock evaluations per second (layered graphs)",
              "Usage: schedlab-cli bench costmodel [--sizes 100,1000,10000] [--devices 1,2,4]\n"
              "                                    [--seconds 0.5] [--seed 1] [--quick]\n"
              "Cost evaluations per second as an optimizer's inner loop makes them (list schedule of\n"
              "random priorities, PriorityEvaluator::cost) on layered graphs for every size x device\n"
              "count: makespan objective, then memory objective on the step and the time clock, and\n"
              "the slower memory clock's cost relative to makespan; then single-device step-clock\n"
              "peak-memory evaluations per second (random topological orders).\n"
              "--quick: --sizes 100 --devices 1,2 --seconds 0.05 unless given.\n",
              {}, &runCostModelBench});

} // namespace
} // namespace bench_costmodel
} // namespace sl::cli
