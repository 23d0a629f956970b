// SPDX-License-Identifier: MIT
// `schedlab-cli bench targets`: the candidate protocol of spec/gflownet.md §5.2 (Tables 1-2 of
// the GFlowNet paper) for any registered methods on the §7.2 graph families.
#include "bench.h"
#include "command.h"
#include "problemargs.h"

#include "core/generators/generators.h"
#include "core/optimizer/candidates.h"

#include <cstdio>
#include <sstream>

namespace sl::cli {
namespace {

struct BenchSetup {
    std::vector<std::string> families, methods;
    int nodes = 50, graphs = 3, devices = 4, topK = 100;
    std::int64_t budget = 0;
    std::uint64_t seed = 1;
    TargetArgs targets;
};

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

/// Sums of the report's numbers over graphs, printed as means.
struct Tally {
    double top1 = 0, topKMean = 0, ged = 0, dInv = 0, dSen = 0, distinct = 0;
    std::vector<double> targets;
    int count = 0;
    void add(const CandidateReport& r) {
        top1 += r.proxyTop1;
        topKMean += r.proxyTopKMean;
        ged += r.diversity.ged;
        dInv += r.diversity.dInv;
        dSen += r.diversity.dSen;
        distinct += r.diversity.distinct;
        targets.resize(r.targets.size(), 0.0);
        for (size_t i = 0; i < r.targets.size(); ++i) targets[i] += r.targets[i].bestOfK;
        ++count;
    }
};

CandidateReport runProtocol(const std::string& method, const Problem& p, const BenchSetup& b, std::uint64_t seed) {
    RunOptions o;
    o.seed = seed;
    o.budget = b.budget;
    o.candidates = b.topK;
    const RunResult r = OptimizerRegistry::instance().create(method)->run(p, o, {}, {});
    return evaluateCandidates(p, candidatesOf(r), {.topK = b.topK, .targets = b.targets.models, .targetSeed = b.targets.seed});
}

void printRow(const std::string& method, const Tally& t) {
    const double n = std::max(t.count, 1);
    std::printf("%-16s %7.3f %9.3f", method.c_str(), t.top1 / n, t.topKMean / n);
    for (double x : t.targets) std::printf(" %10.3f", x / n);
    std::printf(" %7.2f %7.2f %7.2f %9.1f\n", t.ged / n, t.dInv / n, t.dSen / n, t.distinct / n);
}

void printHeader(const BenchSetup& b) {
    std::printf("%-16s %7s %9s", "method", "proxy 1", "proxy top");
    for (TargetModel m : b.targets.models) std::printf(" %10s", toString(m).c_str());
    std::printf(" %7s %7s %7s %9s\n", "GED", "d_inv", "d_sen", "distinct");
}

void familyTable(const std::string& family, const BenchSetup& b) {
    std::printf("%s, %d graphs of %d ops (seeds %llu..), %d identical devices; speedups, top %d by proxy:\n",
                family.c_str(), b.graphs, b.nodes, static_cast<unsigned long long>(b.seed), b.devices, b.topK);
    printHeader(b);
    for (const std::string& method : b.methods) {
        Tally t;
        for (int i = 0; i < b.graphs; ++i) {
            const std::uint64_t seed = b.seed + static_cast<std::uint64_t>(i);
            const GeneratedInstance inst = generateInstance(family, b.nodes, seed);
            const Problem p{inst.graph, Platform::identical(b.devices), {}};
            t.add(runProtocol(method, p, b, seed));
        }
        printRow(method, t);
        std::fflush(stdout);
    }
    std::printf("\n");
}

int runTargetsBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    BenchSetup b;
    b.families = splitList(args.take("families", quick ? "erdos-renyi-gfn,layered-gfn"
                                                       : "erdos-renyi-gfn,layered-gfn,sbm-gfn,watts-strogatz,barabasi-albert"));
    b.methods = splitList(args.take("methods", "list-cp,brkga-order"));
    b.nodes = static_cast<int>(args.takeInt("nodes", quick ? 20 : 50));
    b.graphs = static_cast<int>(args.takeInt("graphs", quick ? 1 : 3));
    b.devices = static_cast<int>(args.takeInt("devices", 4));
    b.topK = static_cast<int>(args.takeInt("top-k", 100));
    b.budget = args.takeInt("budget", quick ? 300 : 0);
    b.seed = static_cast<std::uint64_t>(args.takeInt("seed", 1));
    b.targets = takeTargets(args);
    args.finish(1);
    if (b.targets.models.empty()) b.targets.models = {TargetModel::Noisy, TargetModel::Bandwidth, TargetModel::Latency};
    if (b.nodes < 1 || b.graphs < 1 || b.devices < 1 || b.topK < 1 || b.budget < 0)
        throw UsageError("--nodes, --graphs, --devices and --top-k must be positive, --budget not negative");
    for (const std::string& m : b.methods)
        if (!OptimizerRegistry::instance().find(m)) throw UsageError("unknown method '" + m + "' (see 'schedlab-cli methods')");
    for (const std::string& family : b.families) familyTable(family, b);
    std::printf("proxy 1 / proxy top: best and mean proxy speedup of the top k; target columns: best of the top k\n"
                "there; GED, d_inv, d_sen: mean pairwise distances in the top k; distinct: different schedules.\n");
    return 0;
}

SL_CLI_BENCH({"targets", "candidate protocol: proxy top-1 / top-k, best-of-k target speedups, diversity",
              std::string("Usage: schedlab-cli bench targets [--families F1,F2] [--methods list-cp,brkga-order]\n"
                          "         [--nodes 50] [--graphs 3] [--devices 4] [--top-k 100] [--budget EVALS]\n"
                          "         [--seed 1] [--target noisy,bandwidth,latency] [--target-seed 1] [--quick]\n"
                          "spec/gflownet.md §5.2 on generated graphs: each method runs on the proxy (free transfers),\n"
                          "its top k candidates by proxy speedup are judged on each target model (best of k) and\n"
                          "their diversity measured (spec §9); means over --graphs graphs per family.\n"
                          "Families default to the §7.2 test families: erdos-renyi-gfn, layered-gfn, sbm-gfn,\n"
                          "watts-strogatz, barabasi-albert. --budget: evaluations of search methods (default: the\n"
                          "method's). --quick: two families, one 20-op graph, --budget 300.\n\n") +
                  targetOptionsHelp(),
              {"quick"}, &runTargetsBench});

} // namespace
} // namespace sl::cli
