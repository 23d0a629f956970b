// SPDX-License-Identifier: MIT
// `schedlab-cli bench targets`: the candidate protocol of Zhang et al. 2023 (§5 "Candidate
// sampler", Fig. 1; the shape of their Tables 1-2) for any registered methods on the paper's test
// graph families (§5.2, App. E.5).
#include "bench.h"
#include "candidatetable.h"

#include "app/cli/problemargs.h"

#include "core/generators/generators.h"
#include "core/optimizer/candidates.h"

#include <cstdio>

namespace sl::cli {
namespace bench_targets {
namespace {

struct BenchSetup {
    std::vector<std::string> families;
    std::vector<MethodSpec> methods;
    int nodes = 50, graphs = 3, devices = 4;
    std::uint64_t seed = 1;
    ProtocolSetup protocol;
};

void familyTable(const std::string& family, const BenchSetup& b) {
    std::printf("%s, %d graphs of %d ops (seeds %llu..), %d identical devices; speedups, top %d by proxy:\n",
                family.c_str(), b.graphs, b.nodes, static_cast<unsigned long long>(b.seed), b.devices, b.protocol.topK);
    printTableHeader(b.protocol.targets);
    for (const MethodSpec& method : b.methods) {
        Tally t;
        for (int i = 0; i < b.graphs; ++i) {
            const std::uint64_t seed = b.seed + static_cast<std::uint64_t>(i);
            const GeneratedInstance inst = generateInstance(family, b.nodes, seed);
            const Problem p{inst.graph, Platform::identical(b.devices), {}};
            runProtocol(method, p, b.protocol, seed, t);
        }
        printTableRow(method.label, t);
    }
    std::printf("\n");
}

int runTargetsBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    BenchSetup b;
    b.families = splitList(args.take("families", quick ? "erdos-renyi-gfn,layered-gfn"
                                                       : "erdos-renyi-gfn,layered-gfn,sbm-gfn,watts-strogatz,barabasi-albert"));
    for (const std::string& m : splitList(args.take("methods", "list-cp,brkga-order"))) b.methods.push_back(parseMethodSpec(m));
    b.nodes = static_cast<int>(args.takeInt("nodes", quick ? 20 : 50));
    b.graphs = static_cast<int>(args.takeInt("graphs", quick ? 1 : 3));
    b.devices = static_cast<int>(args.takeInt("devices", 4));
    b.protocol.topK = static_cast<int>(args.takeInt("top-k", 100));
    b.protocol.budget = args.takeInt("budget", quick ? 300 : 0);
    b.seed = static_cast<std::uint64_t>(args.takeInt("seed", 1));
    const TargetArgs targets = takeTargets(args);
    args.finish(1);
    b.protocol.targets = targets.models.empty()
                             ? std::vector<TargetModel>{TargetModel::Noisy, TargetModel::Bandwidth, TargetModel::Latency}
                             : targets.models;
    b.protocol.targetSeed = targets.seed;
    if (b.nodes < 1 || b.graphs < 1 || b.devices < 1 || b.protocol.topK < 1 || b.protocol.budget < 0)
        throw UsageError("--nodes, --graphs, --devices and --top-k must be positive, --budget not negative");
    for (const std::string& family : b.families) familyTable(family, b);
    printTableLegend();
    return 0;
}

SL_CLI_BENCH({"targets", "candidate protocol: proxy top-1 / top-k, best-of-k target speedups, diversity",
              std::string("Usage: schedlab-cli bench targets [--families F1,F2] [--methods list-cp,brkga-order]\n"
                          "         [--nodes 50] [--graphs 3] [--devices 4] [--top-k 100] [--budget EVALS]\n"
                          "         [--seed 1] [--target noisy,bandwidth,latency] [--target-seed 1] [--quick]\n"
                          "The candidate protocol of Zhang et al. 2023 (§5, Fig. 1) on generated graphs: each method\n"
                          "runs on the proxy (free transfers), its top k candidates by proxy speedup are judged on\n"
                          "each target model (best of k) and their diversity measured (docs/diversity.md); means over\n"
                          "--graphs graphs per family. Families default to the paper's test families (App. E.5):\n"
                          "erdos-renyi-gfn, layered-gfn, sbm-gfn, watts-strogatz, barabasi-albert. A method may carry\n"
                          "options: 'name:key=value;key=value'. --budget: evaluations of search methods (default: the\n"
                          "method's). --quick: two families, one 20-op graph, --budget 300.\n\n") +
                  targetOptionsHelp(),
              {"quick"}, &runTargetsBench, /*needsNeuralMethods=*/true, /*shardable=*/true});

} // namespace
} // namespace bench_targets
} // namespace sl::cli
