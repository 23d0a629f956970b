// SPDX-License-Identifier: MIT
// `schedlab-cli bench brkga`: BRKGA speed on layered graphs, quality on STG and job-shop fixtures.
#include "bench.h"

#include "app/cli/brkga_fixtures.h"

#include "core/brkga/brkgaoptimizer.h"
#include "core/brkga/decoderbasics.h"
#include "core/brkga/orderdecoder.h"
#include "core/generators/generators.h"

#include <chrono>
#include <cstdio>
#include <iostream>

namespace sl::cli {
namespace bench_brkga {
namespace {

struct Timed {
    RunResult result;
    double seconds = 0;
};

Timed runOnce(const std::string& method, const Problem& p, std::int64_t budget, int threads, std::uint64_t seed,
              const RunOptions& base = {}) {
    auto opt = OptimizerRegistry::instance().create(method);
    RunOptions o = base;
    o.budget = budget;
    o.threads = threads;
    o.seed = seed;
    const auto t0 = std::chrono::steady_clock::now();
    Timed t;
    t.result = opt->run(p, o, {}, {});
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return t;
}

void speedTable(const std::string& method, const std::vector<int>& sizes, std::int64_t evals, int devices,
                Objective objective, std::uint64_t seed) {
    std::printf("BRKGA speed: %s (%s), layered graphs (generateInstance \"layered\", seed %llu),\n"
                "%d identical devices, objective %s, population 100 / 10 elites / 10 mutants, %lld evaluations\n\n",
                method.c_str(), method == "brkga" ? "REGAL chromosome" : "priorities only",
                static_cast<unsigned long long>(seed), devices, toString(objective).c_str(), static_cast<long long>(evals));
    std::printf("%8s %8s %9s %14s %14s %10s %10s\n", "ops", "tensors", "genes", "evals/s (1 th)", "evals/s (2 th)",
                "s (1 th)", "s (2 th)");
    for (int n : sizes) {
        GeneratedInstance inst = generateInstance("layered", n, seed);
        Problem p;
        p.graph = inst.graph;
        p.platform = Platform::identical(devices);
        p.objective.kind = objective;
        const std::size_t genes = method == "brkga" ? static_cast<size_t>(p.g().opCount()) * static_cast<size_t>(devices + 1) +
                                                          static_cast<size_t>(p.g().tensorCount()) * static_cast<size_t>(devices)
                                                    : static_cast<size_t>(p.g().opCount());
        const Timed one = runOnce(method, p, evals, 1, seed);
        const Timed two = runOnce(method, p, evals, 2, seed);
        std::printf("%8d %8d %9zu %14.0f %14.0f %10.3f %10.3f\n", p.g().opCount(), p.g().tensorCount(), genes,
                    static_cast<double>(one.result.evaluations) / one.seconds,
                    static_cast<double>(two.result.evaluations) / two.seconds, one.seconds, two.seconds);
        std::fflush(stdout);
    }
    std::printf("\n");
}

/// list-cp's makespan: the registered heuristic when present, else the same priorities decoded here.
double listCp(const Problem& p) {
    if (OptimizerRegistry::instance().find("list-cp")) return runOnce("list-cp", p, 0, 1, 1).result.schedule.makespan;
    OrderDecoder dec(p);
    return dec.decode(brkga::criticalPathKeys(p.g()));
}

double gapPercent(double value, double optimum) { return 100.0 * (value - optimum) / optimum; }

void stgTable(const std::string& dir, std::int64_t budget, int threads, std::uint64_t seed) {
    std::printf("STG quality: 20 random 50-task graphs, P identical processors, no communication, makespan;\n"
                "gap = 100 (makespan - optimum) / optimum; brkga-order with %lld evaluations, warm start from list-cp and list-mopnr\n\n",
                static_cast<long long>(budget));
    std::printf("%4s %7s %14s %12s %16s %14s %10s\n", "P", "graphs", "list-cp gap %", "list-cp opt", "brkga-order gap %",
                "brkga opt", "s / graph");
    for (int P : {2, 4, 8, 16}) {
        const auto optima = readStgOptima(dir + "/optimal_50_P" + std::to_string(P) + ".csv");
        double gapCp = 0, gapB = 0, secs = 0;
        int optCp = 0, optB = 0, count = 0;
        for (const StgOptimum& o : optima) {
            Problem p;
            p.graph = readStg(dir + "/" + o.file);
            p.platform = Platform::identical(P);
            const double cp = listCp(p);
            const Timed b = runOnce("brkga-order", p, budget, threads, seed);
            gapCp += gapPercent(cp, o.upper);
            gapB += gapPercent(b.result.cost, o.upper);
            optCp += cp <= o.lower;
            optB += b.result.cost <= o.lower;
            secs += b.seconds;
            ++count;
        }
        if (count == 0) continue;
        std::printf("%4d %7d %14.3f %11.0f%% %16.3f %13.0f%% %10.3f\n", P, count, gapCp / count, 100.0 * optCp / count,
                    gapB / count, 100.0 * optB / count, secs / count);
        std::fflush(stdout);
    }
    std::printf("(optimal = makespan equal to the proven optimum; where the CSV gives a range the gap is to its upper\n"
                "bound and 'optimal' means reaching the lower bound)\n\n");
}

void jobShopTable(const std::string& dir, std::int64_t budget, int threads, std::uint64_t seed) {
    std::printf("Job-shop quality: gap to the optimal makespan; brkga-order with %lld evaluations (non-delay list\n"
                "schedules, warm start from list-cp and list-mopnr)\n\n",
                static_cast<long long>(budget));
    std::printf("%-8s %8s %8s %10s %12s %14s %10s\n", "instance", "optimum", "list-cp", "gap %", "brkga-order", "gap %", "seconds");
    double sumCp = 0, sumB = 0;
    int count = 0;
    for (const auto& [name, optimum] : readJobShopBounds(dir + "/bounds.json")) {
        const std::string path = dir + "/" + name + ".txt";
        JobShop js = readJobShop(path);
        Problem p;
        p.graph = js.graph;
        p.platform = js.platform;
        const double cp = listCp(p);
        const Timed b = runOnce("brkga-order", p, budget, threads, seed);
        std::printf("%-8s %8.0f %8.0f %10.2f %12.0f %14.2f %10.3f\n", name.c_str(), optimum, cp, gapPercent(cp, optimum),
                    b.result.cost, gapPercent(b.result.cost, optimum), b.seconds);
        std::fflush(stdout);
        sumCp += gapPercent(cp, optimum);
        sumB += gapPercent(b.result.cost, optimum);
        ++count;
    }
    if (count) std::printf("%-8s %8s %8s %10.2f %12s %14.2f\n\n", "mean", "", "", sumCp / count, "", sumB / count);
}

int runBrkgaBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    const auto sizes = args.takeIntList("sizes", quick ? "100" : "100,1000,10000", 2);
    const std::int64_t evals = args.takeInt("evals", quick ? 200 : 5000);
    const std::int64_t budget = args.takeInt("budget", quick ? 100 : 5000);
    const int devices = static_cast<int>(args.takeInt("devices", 2));
    const Objective objective = objectiveFromString(args.take("objective", "memory"));
    const auto seed = static_cast<std::uint64_t>(args.takeInt("seed", 1));
    const int threads = args.takeThreads(2);
    const std::string data = args.take("data", defaultDataDir());
    const std::string only = args.take("only", "all");
    const std::string method = args.take("method", "brkga");
    if (method != "brkga" && method != "brkga-order") throw UsageError("--method must be brkga or brkga-order");
    args.finish(1);
    if (only == "all" || only == "speed") speedTable(method, sizes, evals, devices, objective, seed);
    if (only == "all" || only == "stg") stgTable(data + "/stg", budget, threads, seed);
    if (only == "all" || only == "jobshop") jobShopTable(data + "/jobshop", budget, threads, seed);
    return 0;
}

SL_CLI_BENCH({"brkga", "BRKGA evaluations per second; gaps on STG and job-shop fixtures vs list-cp",
              "Usage: schedlab-cli bench brkga [--only speed|stg|jobshop|all] [--sizes 100,1000,10000]\n"
              "         [--method brkga|brkga-order (speed table)]\n"
              "         [--evals 5000] [--devices 2] [--objective memory|makespan|both] [--budget 5000]\n"
              "         [--threads 2] [--seed 1] [--data DIR (default: the source tree's tests/data)] [--quick]\n"
              "Speed: --method on layered graphs, evaluations per second with 1 and 2 threads and the seconds\n"
              "for --evals evaluations. Quality: brkga-order (--budget evaluations, --threads) against the\n"
              "critical-path list schedule (list-cp) on --data/stg (20 graphs x P = 2, 4, 8, 16, gap to the\n"
              "optimum in optimal_50_P*.csv) and --data/jobshop (ft06, ft10, la01-la05, bounds.json).\n"
              "--quick: --sizes 100 --evals 200 --budget 100 unless given.\n",
              {}, &runBrkgaBench});

} // namespace
} // namespace bench_brkga
} // namespace sl::cli
