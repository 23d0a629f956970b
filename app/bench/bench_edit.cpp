// SPDX-License-Identifier: MIT
// `schedlab-cli bench edit`: how long a hand edit takes (issue 42's frame budget: 16 ms at 1,000
// ops, 50 ms at 10,000): previews and moves of random ops to random places of list-cp's schedule
// of generated networks on four devices with a costly link, retimed and rescored by the cost model.
#include "bench.h"

#include "core/edit/scheduleeditor.h"
#include "core/generators/generators.h"
#include "core/heuristics/classicoptimizers.h"
#include "core/util/random.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace sl::cli {
namespace bench_edit {
namespace {

struct Timings {
    std::vector<double> ms;
    double mean() const {
        double s = 0;
        for (double x : ms) s += x;
        return ms.empty() ? 0 : s / static_cast<double>(ms.size());
    }
    double quantile(double q) const {
        if (ms.empty()) return 0;
        std::vector<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
    }
};

/// A place for `v`: half the time a random one (a drag anywhere: often refused), else where v's
/// start falls on a random device (a drag across lanes: mostly allowed).
OpPlace randomPlace(const ScheduleEditor& editor, OpId v, Rng& rng) {
    const int d = static_cast<int>(rng.integer(0, editor.problem().platform.deviceCount() - 1));
    const auto& chain = editor.chains()[static_cast<std::size_t>(d)];
    if (rng.uniform() < 0.5) return {d, static_cast<int>(rng.integer(0, static_cast<std::int64_t>(chain.size())))};
    const double start = editor.schedule().ops[static_cast<std::size_t>(v)].start;
    const auto at = std::count_if(chain.begin(), chain.end(), [&](OpId u) { return u != v && editor.schedule().ops[static_cast<std::size_t>(u)].start < start; });
    return {d, static_cast<int>(at)};
}

struct EditTimings {
    Timings allowed, refused, move;
};

/// Runs `edits` random edits (preview, then move when allowed) and times each.
EditTimings timeEdits(ScheduleEditor& editor, int edits, std::uint64_t seed) {
    Rng rng(seed);
    EditTimings t;
    const int ops = editor.problem().g().opCount();
    for (int i = 0; i < edits; ++i) {
        const auto v = static_cast<OpId>(rng.integer(0, ops - 1));
        const OpPlace to = randomPlace(editor, v, rng);
        auto t0 = std::chrono::steady_clock::now();
        const EditOutcome o = editor.preview(v, to);
        (o.allowed() ? t.allowed : t.refused).ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (!o.allowed()) continue;
        t0 = std::chrono::steady_clock::now();
        editor.move(v, to);
        t.move.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return t;
}

int runBenchEdit(Args& args) {
    const bool quick = args.takeFlag("quick");
    const std::vector<int> sizes = args.takeIntList("ops", quick ? "200" : "1000,10000");
    const int edits = static_cast<int>(args.takeInt("edits", quick ? 20 : 200));
    args.finish(2);
    if (sizes.empty() || edits < 1) throw UsageError("--ops N,... ; --edits >= 1");
    std::printf("Hand edits of list-cp's schedule (nn graphs, 4 devices, link latency 1, bandwidth 1e9 bytes per time unit):\n"
                "each edit previewed (retime + score, nothing changed), then made when allowed. Milliseconds.\n\n");
    std::printf("%7s | %-27s | %-17s | %-17s | %s\n", "ops", "preview, allowed", "preview, refused", "move", "frame budget");
    std::printf("%7s | %5s %6s %6s %6s | %5s %5s %5s | %5s %5s %5s |\n", "", "n", "mean", "p95", "max", "n", "mean", "max", "n", "mean", "max");
    for (int size : sizes) {
        auto problem = std::make_shared<Problem>();
        problem->graph = generateNetworkLike(size, 42).graph;
        problem->platform = Platform::identical(4);
        problem->platform.link = {.latency = 1, .bandwidth = 1e9};
        ScheduleEditor editor(problem, bestClassicSchedule(*problem));
        const EditTimings t = timeEdits(editor, edits, 7);
        const double budget = problem->g().opCount() <= 1000 ? 16 : 50;
        const double worst = std::max({t.allowed.quantile(1.0), t.refused.quantile(1.0), t.move.quantile(1.0)});
        std::printf("%7d | %5zu %6.2f %6.2f %6.2f | %5zu %5.2f %5.2f | %5zu %5.2f %5.2f | %.0f ms: %s\n", problem->g().opCount(),
                    t.allowed.ms.size(), t.allowed.mean(), t.allowed.quantile(0.95), t.allowed.quantile(1.0), t.refused.ms.size(),
                    t.refused.mean(), t.refused.quantile(1.0), t.move.ms.size(), t.move.mean(), t.move.quantile(1.0), budget,
                    worst <= budget ? "met" : "missed");
    }
    return 0;
}

SL_CLI_BENCH({"edit",
              "hand edits of a schedule: preview and move times at 1,000 and 10,000 ops",
              "Usage: schedlab-cli bench edit [OPTIONS]\n"
              "Random hand edits (an op to a device and a place in its sequence) of list-cp's schedule of\n"
              "generated networks on four devices; each previewed, then made when allowed: mean, 95th\n"
              "percentile and worst milliseconds, against the frame budget (16 ms up to 1,000 ops, else 50 ms).\n"
              "  --ops LIST    graph sizes (default 1000,10000)\n"
              "  --edits N     edits per size (default 200)\n"
              "  --quick       --ops 200 --edits 20 unless given\n",
              {}, &runBenchEdit});

} // namespace
} // namespace bench_edit
} // namespace sl::cli
