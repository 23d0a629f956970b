// SPDX-License-Identifier: MIT
// `schedlab-cli bench topoformer-scale`: Topoformer on generated Adam training steps of thousands
// to tens of thousands of ops (issue 41, part 5): per step its time and the memory it takes
// (peak resident set above what the process held before), its peak against the optimum
// exact-memory proves and against the best classic order.
#include "bench.h"

#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>

namespace sl::cli {
namespace bench_topoformerscale {
namespace {

/// Resident-set figures of this process from /proc/self/status, in MiB (0 where /proc is missing).
double statusMiB(const char* field) {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(field, 0) == 0) return std::stod(line.substr(std::string(field).size())) / 1024.0;
    return 0;
}

/// Resets the peak resident set (VmHWM) to the current one (Linux: "5" to clear_refs).
void resetPeakResident() { std::ofstream("/proc/self/clear_refs") << "5"; }

struct Run {
    double peak = 0, seconds = 0, extraMiB = 0;
    bool optimal = false;
};

Run runMethod(const std::shared_ptr<Graph>& g, const std::string& name, std::map<std::string, double> values) {
    Problem p{.graph = g, .platform = Platform::identical(1), .objective = {.kind = Objective::Memory}};
    RunOptions o;
    o.seed = 1;
    o.values = std::move(values);
    const double before = statusMiB("VmRSS:");
    resetPeakResident();
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = OptimizerRegistry::instance().create(name)->run(p, o, {}, {});
    Run run{r.schedule.peakMemory(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
            std::max(0.0, statusMiB("VmHWM:") - before), r.note.rfind("optimal", 0) == 0};
    return run;
}

int runBenchTopoformerScale(Args& args) {
    const bool quick = args.takeFlag("quick");
    const std::vector<int> nodes = args.takeIntList("nodes", quick ? "900" : "2000,4000,8000");
    const int samples = static_cast<int>(args.takeInt("samples", 16));
    args.finish(2);
    if (nodes.empty() || samples < 1) throw UsageError("--nodes N,... (forward ops per step); --samples >= 1");
    std::printf("Generated Adam training steps (nn, seed 9000000 + forward ops), one device, step-clock peak.\n"
                "Gaps: %% above the optimum exact-memory proves. Memory: the run's peak resident set above the\n"
                "process's before it (MiB). Network: Topoformer's decoding alone (classic-candidates 0).\n\n");
    std::printf("%7s %12s %9s | %-27s | %-27s | %-18s | %9s\n", "ops", "optimum MiB", "classic", "network greedy",
                "network sample-16", "topoformer default", "exact s");
    std::printf("%7s %12s %9s | %8s %8s %9s | %8s %8s %9s | %8s %9s | %9s\n", "", "", "gap", "gap", "s", "MiB", "gap", "s",
                "MiB", "gap", "s", "");
    for (int forwardOps : nodes) {
        const auto forward = generateNetworkLike(forwardOps, 9'000'000 + static_cast<std::uint64_t>(forwardOps)).graph;
        const auto step = std::make_shared<Graph>(makeTrainingGraph(*forward, {.rule = UpdateRule::Adam}));
        const Run exact = runMethod(step, "exact-memory", {{"time", 60}});
        double classic = kInfinity;
        for (const char* m : {"mem-dfs", "mem-bfs", "mem-postorder", "mem-xla-list"}) classic = std::min(classic, runMethod(step, m, {}).peak);
        const Run greedy = runMethod(step, "topoformer", {{"greedy", 1}, {"classic-candidates", 0}});
        const Run sampled = runMethod(step, "topoformer", {{"samples", samples}, {"classic-candidates", 0}});
        const Run deflt = runMethod(step, "topoformer", {});
        const auto gap = [&](double peak) { return 100 * (peak - exact.peak) / exact.peak; };
        std::printf("%7d %12.3f %+8.2f%% | %+7.2f%% %8.2f %9.0f | %+7.2f%% %8.2f %9.0f | %+7.2f%% %9.2f | %9.2f%s\n",
                    step->opCount(), exact.peak / 1048576.0, gap(classic), gap(greedy.peak), greedy.seconds, greedy.extraMiB,
                    gap(sampled.peak), sampled.seconds, sampled.extraMiB, gap(deflt.peak), deflt.seconds, exact.seconds,
                    exact.optimal ? "" : " (not proven)");
        std::fflush(stdout);
    }
    return 0;
}

SL_CLI_BENCH({"topoformer-scale",
              "Topoformer on Adam steps of 5,000-20,000 ops: time, memory, gap to the proven optimum",
              "Usage: schedlab-cli bench topoformer-scale [OPTIONS]\n"
              "Generated nn Adam training steps; per step the optimum exact-memory proves, the best classic order,\n"
              "and Topoformer's greedy, sample-K and default decoding: gap, seconds and peak resident memory.\n"
              "  --nodes LIST     forward ops of each step (default 2000,4000,8000: about 5,000, 10,000, 20,000 ops)\n"
              "  --samples K      sample-K's K (default 16)\n"
              "  --quick          --nodes 900 unless given\n",
              {}, &runBenchTopoformerScale, /*needsNeuralMethods=*/true});

} // namespace
} // namespace bench_topoformerscale
} // namespace sl::cli
