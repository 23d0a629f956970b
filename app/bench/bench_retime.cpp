// SPDX-License-Identifier: MIT
// `schedlab-cli bench retime`: what real time costs at the sizes users have (docs/time.md, "What it
// costs"): applying a machine preset to a graph, re-timing a shown schedule on it, and the same on
// shared links.
#include "bench.h"

#include "core/costmodel/chaintiming.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/sharedlinks.h"
#include "core/generators/generators.h"
#include "core/timing/catalog.h"
#include "core/timing/machine.h"
#include "core/timing/retime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace sl::cli {
namespace bench_retime {
namespace {

/// Median ms of the shared-links replay of `shown` (its placement and order) on `problem`'s
/// topology with its links shared; NaN without a topology.
double sharedRetimeMs(const Problem& problem, const Schedule& shown, int runs) {
    if (problem.platform.topology.empty()) return std::nan("");
    Problem shared = problem;
    shared.platform.topology.shared = true;
    return medianMs(runs, [&] { (void)timeOnSharedLinks(shared, shown); });
}

int runRetimeBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    const std::vector<int> sizes = args.takeIntList("sizes", quick ? "1000" : "1000,10000,100000");
    const int runs = static_cast<int>(args.takeIntIn("runs", quick ? 1 : 5, 1, 100));
    args.finish(1);
    const DeviceCatalog& cat = DeviceCatalog::instance();
    std::printf("Applying a machine to a graph (retimeGraph: every op's roofline, collectives' rings) and re-timing a\n"
                "shown list schedule on it (timeChains: placement and order kept), and the same with the\n"
                "preset's links shared (timeOnSharedLinks: the link-booking replay); median of %d runs, ms:\n", runs);
    std::printf("%9s  %-14s %10s %12s %12s %8s\n", "ops", "machine", "apply", "re-time", "shared", "ratio");
    for (int n : sizes) {
        const std::shared_ptr<Graph> g = graphWithWork(n, 1);
        for (const char* preset : {"dgx-a100", "2x-dgx-h100"}) {
            const Platform p = presetPlatform(cat.preset(preset), cat, g->timeUnit());
            TimedGraph timed;
            const double apply = medianMs(runs, [&] { timed = retimeGraph(*g, p, cat); });
            const Problem problem{timed.retimed, p, {}};
            ListScheduler ls(problem);
            std::vector<double> priority(static_cast<size_t>(n));
            for (int v = 0; v < n; ++v) priority[static_cast<size_t>(v)] = -v;
            const Schedule shown = ls.schedule(priority);
            const DeviceChains chains = deviceChains(shown, p.deviceCount());
            const double retime = medianMs(runs, [&] { (void)timeChains(problem, chains); });
            const double shared = sharedRetimeMs(problem, shown, runs);
            std::printf("%9d  %-14s %10.2f %12.2f %12.2f %8.2f\n", n, preset, apply, retime, shared, shared / retime);
        }
    }
    std::printf("(issue 50's targets: apply within 100 ms at 100,000 ops; re-time within a frame, 16 ms, at 10,000;\n"
                " shared links: the replay at most 2x the re-time)\n");
    return 0;
}

SL_CLI_BENCH({"retime", "cost of applying a machine preset to a graph and re-timing a shown schedule",
              "Usage: schedlab-cli bench retime [--sizes 1000,10000,100000] [--runs 5] [--quick]\n"
              "Times retimeGraph (every op's duration from its work on the preset's devices) and\n"
              "timeChains (a shown schedule re-timed, its placement and order kept) and, with the\n"
              "preset's links shared, timeOnSharedLinks (the link-booking replay) on layered graphs\n"
              "whose ops carry work, for the DGX A100 and 2 x DGX H100 presets. Median of --runs, in ms.\n"
              "--quick: 1,000 ops, one run.\n",
              {"quick"}, &runRetimeBench});

} // namespace
} // namespace bench_retime
} // namespace sl::cli
