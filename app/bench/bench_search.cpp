// SPDX-License-Identifier: MIT
// `schedlab-cli bench search`: makespan search methods at equal wall time (or equal evaluations)
// against the best known or proven bounds: the job-shop fixtures, generated job-shops of Taillard's
// sizes and the STG task graphs on 2-16 processors (docs/heuristics.md, "Search at equal time").
#include "bench.h"
#include "gaptally.h"
#include "shard.h"

#include "app/cli/brkga_fixtures.h"

#include "core/analysis/bounds.h"
#include "core/generators/generators.h"
#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

namespace sl::cli {
namespace bench_search {
namespace {

namespace fs = std::filesystem;

struct Budget {
    double seconds = 10;         ///< per run; 0 with `evaluations` > 0
    std::int64_t evaluations = 0;
    std::uint64_t seed = 1;
};

/// The run's makespan and the lower bound it proved (exact-makespan; 0 for the others). One item
/// of a distributed run (shard.h).
std::pair<double, double> runMethod(const std::string& method, const Problem& p, const Budget& b) {
    const std::vector<double> r = shardItem(2, [&] {
        RunOptions o;
        o.seed = b.seed;
        o.timeLimit = b.seconds;
        // equal wall time: an evaluation budget that never binds first
        o.budget = b.evaluations > 0 ? b.evaluations : std::int64_t(1) << 40;
        const RunResult run = OptimizerRegistry::instance().create(method)->run(p, o, {}, {});
        return std::vector<double>{run.schedule.makespan, run.lowerBound};
    });
    return {r[0], r[1]};
}


void printHeader(const char* first, const std::vector<std::string>& methods) {
    std::printf("%-14s %9s", first, "bound");
    for (const std::string& m : methods) std::printf(" %20s", m.c_str());
    std::printf("\n");
}

void printMeans(const std::vector<std::string>& methods, std::map<std::string, GapTally>& tally, bool share) {
    std::printf("%-14s %9s", "mean gap", "");
    for (const std::string& m : methods) std::printf(" %19.2f%%", 100 * tally[m].meanGap());
    std::printf("\n");
    if (!share) return;
    std::printf("%-14s %9s", "reach the bound", "");
    for (const std::string& m : methods) std::printf(" %19.1f%%", 100 * tally[m].share());
    std::printf("\n");
}

/// One instance's row: each method's makespan and its gap to `reference`, raised to the best
/// bound a run proved (exact-makespan's) when that is larger.
void row(const std::string& name, const Problem& p, double reference, const std::vector<std::string>& methods, const Budget& b,
         std::map<std::string, GapTally>& tally) {
    std::vector<double> makespans;
    for (const std::string& m : methods) {
        const auto [makespan, proved] = runMethod(m, p, b);
        makespans.push_back(makespan);
        reference = std::max(reference, proved);
    }
    std::printf("%-14s %9.0f", name.c_str(), reference);
    for (std::size_t i = 0; i < methods.size(); ++i) {
        tally[methods[i]].add(makespans[i], reference);
        std::printf(" %10.0f (%6.2f%%)", makespans[i], 100 * (makespans[i] - reference) / reference);
    }
    std::printf("\n");
    std::fflush(stdout);
}

void jobShopFixtures(const fs::path& dir, const std::vector<std::string>& methods, const Budget& b) {
    std::printf("Job-shop fixtures (%s): makespan (gap to the best known makespan, bounds.json)\n", dir.string().c_str());
    printHeader("instance", methods);
    std::map<std::string, GapTally> tally;
    for (const auto& [name, best] : readJobShopBounds((dir / "bounds.json").string())) {
        const fs::path file = dir / (name + ".txt");
        if (!fs::exists(file)) continue;
        const JobShop js = readJobShop(file.string());
        row(name, Problem{js.graph, js.platform, {}}, best, methods, b, tally);
    }
    printMeans(methods, tally, true);
    std::printf("\n");
}

void taillardSizes(const std::vector<std::pair<int, int>>& sizes, const std::vector<std::string>& methods, const Budget& b) {
    std::printf("Generated job-shops of Taillard's sizes (seed 1): makespan (gap to the best lower bound: critical\n"
                "path, work, machines, or what exact-makespan proved; an upper estimate of the gap to the optimum)\n");
    printHeader("jobs x mach.", methods);
    std::map<std::string, GapTally> tally;
    for (const auto& [jobs, machines] : sizes) {
        const GeneratedInstance inst = generateJobShop(jobs, machines, 1);
        const Problem p{inst.graph, inst.platform, {}};
        row(std::to_string(jobs) + " x " + std::to_string(machines), p, lowerBounds(p).makespan, methods, b, tally);
    }
    printMeans(methods, tally, false);
    std::printf("\n");
}

void stgGraphs(const fs::path& dir, const std::vector<std::string>& methods, const Budget& b, bool quick) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".stg") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (quick && files.size() > 3) files.resize(3);
    std::printf("STG, %zu graphs of 50 tasks (%s): mean gap to the optimum / share optimal\n", files.size(), dir.string().c_str());
    std::printf("%-4s", "P");
    for (const std::string& m : methods) std::printf(" %24s", m.c_str());
    std::printf("\n");
    for (int procs : {2, 4, 8, 16}) {
        std::map<std::string, double> optima;
        for (const StgOptimum& o : readStgOptima((dir / ("optimal_50_P" + std::to_string(procs) + ".csv")).string()))
            optima[o.file] = o.upper;
        std::map<std::string, GapTally> tally;
        for (const fs::path& f : files) {
            auto it = optima.find(f.filename().string());
            if (it == optima.end()) continue;
            const Problem p{readStg(f.string()), Platform::identical(procs), {}};
            for (const std::string& m : methods) tally[m].add(runMethod(m, p, b).first, it->second);
        }
        std::printf("%-4d", procs);
        for (const std::string& m : methods) std::printf("   %8.3f%% / %6.1f%% opt", 100 * tally[m].meanGap(), 100 * tally[m].share());
        std::printf("\n");
        std::fflush(stdout);
    }
    std::printf("\n");
}

/// Generated task graphs (`family`, 50 ops) on P identical devices with free transfers, like the
/// STG table but without published optima: the gap is to the best bound.
void generatedGraphs(const std::string& family, int graphs, const std::vector<std::string>& methods, const Budget& b) {
    std::printf("Generated task graphs (%s, 50 ops, seeds 1-%d, free transfers): mean gap to the best lower bound\n"
                "(analytic, or what exact-makespan proved) / share reaching it\n", family.c_str(), graphs);
    std::printf("%-4s", "P");
    for (const std::string& m : methods) std::printf(" %24s", m.c_str());
    std::printf("\n");
    for (int procs : {2, 4, 8, 16}) {
        std::map<std::string, GapTally> tally;
        for (int seed = 1; seed <= graphs; ++seed) {
            const Problem p{generateInstance(family, 50, static_cast<std::uint64_t>(seed)).graph, Platform::identical(procs), {}};
            double reference = lowerBounds(p).makespan;
            std::vector<double> makespans;
            for (const std::string& m : methods) {
                const auto [makespan, proved] = runMethod(m, p, b);
                makespans.push_back(makespan);
                reference = std::max(reference, proved);
            }
            for (std::size_t i = 0; i < methods.size(); ++i) tally[methods[i]].add(makespans[i], reference);
        }
        std::printf("%-4d", procs);
        for (const std::string& m : methods) std::printf("   %8.3f%% / %6.1f%% opt", 100 * tally[m].meanGap(), 100 * tally[m].share());
        std::printf("\n");
        std::fflush(stdout);
    }
    std::printf("\n");
}

std::vector<std::string> split(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream s(list);
    for (std::string item; std::getline(s, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

int runSearchBench(Args& args) {
    const fs::path data = args.take("data", defaultDataDir());
    const bool quick = args.takeFlag("quick");
    Budget b;
    const std::optional<std::string> time = args.take("time");
    b.evaluations = args.takeIntIn("budget", 0, 0, std::int64_t(1) << 40);
    b.seconds = time ? std::stod(*time) : b.evaluations > 0 ? 0 : quick ? 0.1 : 10;
    if (!(b.seconds >= 0)) throw UsageError("--time expects seconds >= 0");
    b.seed = static_cast<std::uint64_t>(args.takeIntIn("seed", 1, 0, std::int64_t(1) << 62));
    std::vector<std::string> methods;
    for (const std::string& m : split(args.take("methods", "list-cp,brkga-order,tabu,exact-makespan"))) {
        if (OptimizerRegistry::instance().find(m)) methods.push_back(m);
        else std::printf("(skipped '%s': no such method in this build)\n", m.c_str());
    }
    const std::string parts = args.take("only", "jobshop,taillard,stg,generated");
    const std::string family = args.take("family", "stg");
    args.finish(1);
    if (methods.empty()) throw UsageError("bench search: none of --methods exists here");
    if (!fs::exists(data / "stg") || !fs::exists(data / "jobshop"))
        throw InputError(data.string() + ": no stg/ and jobshop/ fixtures here (use --data DIR)");
    if (b.evaluations > 0) std::printf("each run: %lld evaluations", static_cast<long long>(b.evaluations));
    if (b.seconds > 0) std::printf("%s%g s of wall time", b.evaluations > 0 ? ", at most " : "each run: ", b.seconds);
    std::printf(", seed %llu, 1 thread\n\n", static_cast<unsigned long long>(b.seed));
    const std::vector<std::pair<int, int>> sizes = quick ? std::vector<std::pair<int, int>>{{15, 15}, {20, 15}}
                                                         : std::vector<std::pair<int, int>>{{15, 15}, {20, 15}, {20, 20}, {30, 15},
                                                                                            {30, 20}, {50, 15}, {50, 20}, {100, 20}};
    if (parts.find("jobshop") != std::string::npos) jobShopFixtures(data / "jobshop", methods, b);
    if (parts.find("taillard") != std::string::npos) taillardSizes(sizes, methods, b);
    if (parts.find("stg") != std::string::npos) stgGraphs(data / "stg", methods, b, quick);
    if (parts.find("generated") != std::string::npos) generatedGraphs(family, quick ? 2 : 10, methods, b);
    return 0;
}

SL_CLI_BENCH({"search", "makespan search at equal time or evaluations against known and proven bounds",
              "Usage: schedlab-cli bench search [--methods A,B,...] [--time S | --budget EVALS] [--seed N]\n"
              "                                 [--only jobshop,taillard,stg,generated] [--family F] [--data DIR]\n"
              "                                 [--quick]\n"
              "Runs each method once per instance, single-threaded, for S seconds of wall time (default\n"
              "10; --quick: 0.1 s, two generated sizes, three STG graphs) or EVALS evaluations, and prints\n"
              "its makespan and gap: on the job-shop fixtures (DIR/jobshop) to the best known makespan;\n"
              "on generated job-shops of Taillard's sizes (15x15 to 100x20) to the problem's lower bound;\n"
              "on the STG graphs (DIR/stg) at P = 2, 4, 8, 16 to the optimum, with the share optimal;\n"
              "on generated task graphs (--family, default stg: STG-like random graphs; 50 ops, 10 seeds)\n"
              "at P = 2-16 to the best bound (what exact-makespan proved, when it ran).\n"
              "Methods missing from this build are skipped with a note. Default methods:\n"
              "list-cp, brkga-order, tabu, exact-makespan.\n",
              {"quick"}, &runSearchBench, /*needsNeuralMethods=*/false, /*shardable=*/true});

} // namespace
} // namespace bench_search
} // namespace sl::cli
