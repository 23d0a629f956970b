// SPDX-License-Identifier: MIT
// `schedlab-cli bench heuristics`: classic list heuristics against known optima (STG, job-shop).
#include "bench.h"
#include "gaptally.h"
#include "shard.h"

#include "app/cli/brkga_fixtures.h"

#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

namespace sl::cli {
namespace bench_heuristics {
namespace {

namespace fs = std::filesystem;

const char* const kMethods[] = {"list-cp", "list-mopnr", "list-spt", "heft"};

/// One item of a distributed run (shard.h).
double runMethod(const char* method, const Problem& p) {
    return shardItem(1, [&] {
        return std::vector<double>{OptimizerRegistry::instance().create(method)->run(p, {}, {}, {}).schedule.makespan};
    })[0];
}


void stgTable(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".stg") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::printf("STG, %zu graphs of 50 tasks (%s): mean gap to the optimum / %% optimal\n", files.size(), dir.string().c_str());
    std::printf("%4s", "P");
    for (const char* m : kMethods) std::printf(" %22s", m);
    std::printf("\n");
    std::vector<std::shared_ptr<Graph>> graphs;
    for (const fs::path& f : files) graphs.push_back(readStg(f.string()));
    std::map<std::string, GapTally> overall;
    for (int procs : {2, 4, 8, 16}) {
        std::map<std::string, double> optima;   // file name -> best known (proven when lower == upper)
        for (const StgOptimum& o : readStgOptima((dir / ("optimal_50_P" + std::to_string(procs) + ".csv")).string()))
            optima[o.file] = o.upper;
        std::map<std::string, GapTally> tally;
        for (size_t i = 0; i < files.size(); ++i) {
            auto it = optima.find(files[i].filename().string());
            if (it == optima.end()) continue;
            Problem p{graphs[i], Platform::identical(procs), {}};
            for (const char* m : kMethods) {
                const double ms = runMethod(m, p);
                tally[m].add(ms, it->second);
                overall[m].add(ms, it->second);
            }
        }
        std::printf("%4d", procs);
        for (const char* m : kMethods) {
            const GapTally& t = tally[m];
            std::printf("   %8.2f%% / %5.1f%% opt", 100 * t.meanGap(),
                        100 * t.share());
        }
        std::printf("\n");
    }
    std::printf("%4s", "all");
    for (const char* m : kMethods) {
        const GapTally& t = overall[m];
        std::printf("   %8.2f%% / %5.1f%% opt", 100 * t.meanGap(), 100 * t.share());
    }
    std::printf("\n\n");
}

void jobShopTable(const fs::path& dir) {
    std::printf("Job-shop (%s): makespan and gap to the best known upper bound (bounds.json)\n", dir.string().c_str());
    std::printf("%-8s %8s", "instance", "best");
    for (const char* m : kMethods) std::printf(" %18s", m);
    std::printf("\n");
    std::map<std::string, GapTally> overall;
    for (const auto& [name, best] : readJobShopBounds((dir / "bounds.json").string())) {
        const fs::path file = dir / (name + ".txt");
        if (!fs::exists(file)) continue;
        const JobShop js = readJobShop(file.string());
        Problem p{js.graph, js.platform, {}};
        std::printf("%-8s %8.0f", name.c_str(), best);
        for (const char* m : kMethods) {
            const double ms = runMethod(m, p);
            overall[m].add(ms, best);
            std::printf(" %8.0f (%6.2f%%)", ms, 100 * (ms - best) / best);
        }
        std::printf("\n");
    }
    std::printf("%-8s %8s", "mean", "");
    for (const char* m : kMethods)
        std::printf(" %8s (%6.2f%%)", "", 100 * overall[m].meanGap());
    std::printf("\n");
}

int runHeuristicsBench(Args& args) {
    const fs::path data = args.take("data", defaultDataDir());
    args.takeFlag("quick");   // already quick: the four heuristics on 87 small instances take about a second
    args.finish(1);
    if (!fs::exists(data / "stg") || !fs::exists(data / "jobshop"))
        throw InputError(data.string() + ": no stg/ and jobshop/ fixtures here (use --data DIR)");
    stgTable(data / "stg");
    jobShopTable(data / "jobshop");
    return 0;
}

SL_CLI_BENCH({"heuristics", "list-cp / list-mopnr / list-spt / heft against known optima (STG, job-shop)",
              "Usage: schedlab-cli bench heuristics [--data DIR] [--quick (the same: it takes about a second)]\n"
              "Runs the classic list heuristics on the STG graphs (DIR/stg, optima in\n"
              "optimal_50_P{2,4,8,16}.csv) for P = 2, 4, 8, 16 and prints the mean gap to the optimum\n"
              "and the share of optimal schedules; then the gap to the best known makespan on the\n"
              "job-shop instances (DIR/jobshop, bounds.json). DIR defaults to the source tree's tests/data.\n",
              {}, &runHeuristicsBench, /*needsNeuralMethods=*/false, /*shardable=*/true});

} // namespace
} // namespace bench_heuristics
} // namespace sl::cli
