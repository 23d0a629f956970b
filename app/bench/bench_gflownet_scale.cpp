// SPDX-License-Identifier: MIT
// `schedlab-cli bench gflownet --only scale`, the speed table: wall-clock seconds for N samples of
// each graph (the shipped encode-once GFlowNet at sigma 0.005, the per-state GFlowNet on the
// smaller graphs, the priority sampler), one list-cp schedule, and the process's peak memory so
// far (graphs run smallest first, so the figure after a row bounds that row's run).
#include "bench_gflownet_scale.h"

#include "core/optimizer/optimizer.h"
#include "core/optimizer/sampler.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace sl::cli {
namespace {

using Clock = std::chrono::steady_clock;

/// Seconds for one run of `method` with `budget` samples (0: its default) and `threads`.
double timeRun(const std::string& method, const Problem& p, int budget, int threads, const std::string& weights = {}) {
    RunOptions o;
    o.seed = 1;
    o.budget = budget;
    o.threads = threads;
    if (!weights.empty()) o.strings["weights"] = weights;
    const auto t0 = Clock::now();
    OptimizerRegistry::instance().create(method)->run(p, o, {}, {});
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Seconds until the Temperature panel's sampler hands over its first samples (what the
/// histogram shows first), through the registry as the explorer calls it.
double firstSamplesSeconds(const Problem& p, int samples, int threads) {
    const auto sampler = SamplerRegistry::instance().create("gflownet");
    std::stop_source stop;
    Clock::time_point first{};
    const auto t0 = Clock::now();
    sampler->sample(p, {.temperature = 0.005, .count = samples, .seed = 1, .threads = threads}, stop.get_token(),
                    [&](const SampleProgress&) {
                        if (first == Clock::time_point{}) first = Clock::now();
                        stop.request_stop();
                    });
    return std::chrono::duration<double>(first - t0).count();
}

double peakMegabytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;   // kB on Linux
}

} // namespace

void printGflowNetScaleSpeed(const std::vector<ScaleGraph>& graphs, const ScaleSetup& s) {
    std::printf("Seconds for %d samples (%d threads, sigma 0.005), 4 identical devices; per-state: %d samples times %d/%d\n"
                "(it costs n + 1 encoder passes per sample), only up to %d ops\n\n",
                s.samples, s.threads, std::min(s.samples, 50), s.samples, std::min(s.samples, 50), s.perStateMaxOps);
    std::printf("%-34s %6s %9s %12s %12s %12s %10s %12s\n", "graph", "ops", "first", "gflownet", "per-state", "prio-sampler",
                "list-cp", "peak MB");
    for (const ScaleGraph& g : graphs) {
        const int n = g.problem.g().opCount();
        const double first = firstSamplesSeconds(g.problem, s.samples, s.threads);
        const double ready = timeRun("gflownet", g.problem, s.samples, s.threads);
        std::string perState = "-";
        if (!s.perStateWeights.empty() && n <= s.perStateMaxOps) {
            const int few = std::min(s.samples, 50);
            const double t = timeRun("gflownet", g.problem, few, s.threads, s.perStateWeights) * s.samples / few;
            char text[32];
            std::snprintf(text, sizeof text, "%.2f", t);
            perState = text;
        }
        const double sampler = timeRun("priority-sampler", g.problem, s.samples, s.threads);
        const double list = timeRun("list-cp", g.problem, 0, 1);
        std::printf("%-34s %6d %9.3f %12.2f %12s %12.2f %10.4f %12.0f\n", g.name.c_str(), n, first, ready, perState.c_str(),
                    sampler, list, peakMegabytes());
        std::fflush(stdout);
    }
    std::printf("\nwall clock on this machine, one run each (noisy when it is shared); first: until the explorer's\n"
                "sampler hands over its first chunk (the first histogram); peak MB: the whole process's largest\n"
                "resident set so far\n\n");
}

} // namespace sl::cli
