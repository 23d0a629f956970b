// SPDX-License-Identifier: MIT
// `schedlab-cli bench study`: the study's own overhead at the scale (1,000 graphs x 5
// methods x 3 seeds): storing the runs, opening the database, reading the runs (not their
// schedules) and summarising (with the bootstrap intervals), on synthetic runs.
#include "bench.h"

#include "core/study/studysummary.h"
#include "core/util/random.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <unistd.h>

namespace sl::cli {
namespace bench_study {
namespace {

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int runBenchStudy(Args& args) {
    const bool quick = args.takeFlag("quick");
    const int graphs = static_cast<int>(args.takeInt("graphs", quick ? 50 : 1000));
    const auto keep = args.take("db");
    args.finish(2);
    StudySpec spec;
    for (int g = 0; g < graphs; ++g) spec.graphs.push_back("graph" + std::to_string(g) + ".json");
    for (const char* m : {"list-cp", "list-mopnr", "list-spt", "heft", "tabu"}) spec.methods.push_back({m, m, {}});
    spec.seeds = {1, 2, 3};
    const std::string path = keep ? *keep : (std::filesystem::temp_directory_path() / ("schedlab-bench-study-" + std::to_string(::getpid()) + ".db")).string();
    if (std::filesystem::exists(path)) throw UsageError(path + " exists already");
    const std::string schedule(2000, 'x');   // what a stored schedule weighs, never read here
    Rng rng(1);
    auto t0 = std::chrono::steady_clock::now();
    {
        StudyStore store = StudyStore::create(path, spec);
        for (const std::string& g : spec.graphs)
            for (const StudyMethod& m : spec.methods)
                for (std::uint64_t seed : spec.seeds)
                    store.store({.graph = g, .method = m.label, .seed = seed, .ok = true, .cost = 100 + 20 * rng.uniform(), .evaluations = 1, .seconds = 0.01},
                                schedule);
    }
    const double storeSeconds = since(t0);
    t0 = std::chrono::steady_clock::now();
    const StudyStore store = StudyStore::open(path);
    const double openSeconds = since(t0);
    t0 = std::chrono::steady_clock::now();
    const std::vector<StudyRun> runs = store.runs();
    const double readSeconds = since(t0);
    t0 = std::chrono::steady_clock::now();
    const StudySummary summary = summarize(store.spec(), runs);
    const double summarySeconds = since(t0);
    const auto bytes = std::filesystem::file_size(path);
    if (!keep) std::filesystem::remove(path);
    std::printf("Synthetic study: %d graphs x %zu methods x %zu seeds = %zu runs, 2 KB schedules (not read)\n\n", graphs,
                spec.methods.size(), spec.seeds.size(), runs.size());
    std::printf("%-44s | %10s\n", "step", "seconds");
    std::printf("%-44s | %10.3f\n", "store every run (a transaction each)", storeSeconds);
    std::printf("%-44s | %10.4f\n", "open the database", openSeconds);
    std::printf("%-44s | %10.4f\n", "read the runs", readSeconds);
    std::printf("%-44s | %10.4f\n", "summarise (with bootstrap intervals)", summarySeconds);
    std::printf("%-44s | %10.4f\n", "open + read + summarise", openSeconds + readSeconds + summarySeconds);
    std::printf("\ndatabase: %.1f MB; %zu methods summarised\n", static_cast<double>(bytes) / 1e6, summary.rows.size());
    return 0;
}

SL_CLI_BENCH({"study",
              "a study's own overhead at 1,000 graphs x 5 methods x 3 seeds: store, open, read, summarise",
              "Usage: schedlab-cli bench study [OPTIONS]\n"
              "Stores a synthetic study's runs one transaction each, then times opening the database,\n"
              "reading the runs (not their schedules) and the summary with its bootstrap intervals.\n"
              "  --graphs N    graphs (default 1000; 5 methods, 3 seeds each)\n"
              "  --db FILE     keep the database there (to open it in the explorer: schedlab --open-study FILE)\n"
              "  --quick       --graphs 50 unless given\n",
              {}, &runBenchStudy});

} // namespace
} // namespace bench_study
} // namespace sl::cli
