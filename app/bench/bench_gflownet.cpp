// SPDX-License-Identifier: MIT
// `schedlab-cli bench gflownet`: the GFlowNet paper's Tables 1 and 2 in the same shape (Zhang et
// al. 2023, §5.1-5.2): the GFlowNet at sigma = 0.005 and 1 against list scheduling, BRKGA at an
// equal number of cost-model evaluations and the priority sampler, under the candidate protocol
// (§5 "Candidate sampler", Fig. 1), on the bundled example, on held-out generated graphs and on a
// WfCommons trace.
#include "bench.h"
#include "bench_gflownet_scale.h"
#include "bench_gflownet_speed.h"
#include "candidatetable.h"
#include "shard.h"

#include "app/cli/problemargs.h"

#include "core/costmodel/target.h"
#include "core/generators/generators.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"
#include "core/timing/catalog.h"
#include "core/timing/machine.h"
#include "core/timing/retime.h"
#include "models/gflownet/sampler.h"

#include <cstdio>
#include <filesystem>

namespace sl::cli {
namespace bench_gflownet {
namespace {

namespace fs = std::filesystem;

struct Workload {
    std::string title;
    std::vector<Problem> problems;
};

struct BenchSetup {
    std::vector<MethodSpec> methods;
    ProtocolSetup protocol;
    int devices = 4, seeds = 3, graphs = 5, nodes = 50;
    std::string examplePath, tracePath, exampleWeights;
    std::optional<Platform> machine;   ///< --preset: its first `devices` devices and links, else identical devices
};

/// list-cp, BRKGA twice, the priority sampler and the GFlowNet at sigma 0.005 and 1. BRKGA is the
/// paper's baseline (§5, App. E.1) as `brkga-chains` decodes it, a priority and a device key per op
/// (the paper gives no encoding; docs/brkga.md): once at the run's budget (equal evaluations, for
/// the top-1 comparison) and once as the paper ran it, pymoo's defaults (population 1000 of 200
/// elites, 700 children, 100 mutants, bias 0.7) for 75 generations, 1,000 + 74 x 800 = 60,200
/// evaluations (for the diversity of a converged population).
std::string defaultMethods(bool quick) {
    const std::string paperBrkga = quick ? "brkga-chains:population=100;elites=20;mutants=10;budget=1700;label=brkga-chains (21 gen.)"
                                         : "brkga-chains:population=1000;elites=200;mutants=100;budget=60200;label=brkga-chains (paper: 75 gen.)";
    return "list-cp,brkga-chains:label=brkga-chains (equal evals),priority-sampler," + paperBrkga +
           ",gflownet:temperature=0.005,gflownet:temperature=1";
}

/// `g` on the bench's machine: --devices identical devices, or the preset's first --devices with
/// the ops that carry work timed on its devices (as optimize --preset does). The methods draw on
/// the preset's links contention-free, the paper's kind of proxy; the shared-links target shares them.
Problem onDevices(std::shared_ptr<const Graph> g, const BenchSetup& b) {
    if (!b.machine) return Problem{std::move(g), Platform::identical(b.devices), {}};
    Platform machine = firstDevices(*b.machine, b.devices);
    machine.topology.shared = false;
    const TimedGraph timed = retimeGraph(*g, machine, DeviceCatalog::instance());
    return Problem{timed.retimed ? timed.retimed : std::move(g), machine, {}};
}

/// Not a candidate method: `method` run on each target itself, so it sees what the others must
/// guess (list-cp there is the contention-aware list schedule of a shared-links target). Its mean
/// target speedups show how much better than the proxy's candidates a schedule can do there (a
/// reference, not a bound).
void printTargetOracleRow(const Workload& w, const BenchSetup& b, const std::string& method) {
    const std::vector<TargetModel>& targets = b.protocol.targets;
    std::vector<double> mean(targets.size(), 0.0);
    for (const Problem& p : w.problems) {
        const std::vector<double> best = shardItem(targets.size(), [&] {
            std::vector<double> v;
            for (TargetModel m : targets) {
                const Problem target = targetProblem(p, m, b.protocol.targetSeed);
                RunOptions o;
                o.seed = 1;
                v.push_back(targetSpeedup(
                    target, OptimizerRegistry::instance().create(method)->run(target, o, {}, {}).schedule));
            }
            return v;
        });
        for (size_t i = 0; i < mean.size(); ++i) mean[i] += best[i] / static_cast<double>(w.problems.size());
    }
    printTargetOnlyRow(method + " on each target (sees it)", mean);
}

/// Each method on every problem with seeds 1..seeds; a row of means per method; then the tabu
/// oracle row unless `oracle` is false.
void printWorkload(const Workload& w, const BenchSetup& b, const std::vector<MethodSpec>& methods, bool oracle = true) {
    std::printf("%s\n", w.title.c_str());
    printTableHeader(b.protocol.targets);
    for (const MethodSpec& method : methods) {
        Tally t;
        for (const Problem& p : w.problems)
            for (int s = 1; s <= b.seeds; ++s) runProtocol(method, p, b.protocol, static_cast<std::uint64_t>(s), t);
        printTableRow(method.label, t);
    }
    if (oracle)
        for (const char* method : {"list-cp", "tabu"}) printTargetOracleRow(w, b, method);
    std::printf("\n");
}

/// The methods with the single-graph weights for the gflownet rows (Table 1 trains on its graph).
std::vector<MethodSpec> withWeights(std::vector<MethodSpec> methods, const std::string& weights) {
    if (weights.empty()) return methods;
    for (MethodSpec& m : methods)
        if (m.name == "gflownet" && !m.options.strings.count("weights")) {
            m.options.strings["weights"] = weights;
            m.label += " (1-graph)";
        }
    return methods;
}

void printPaperTables() {
    std::printf("The paper (Zhang et al. 2023, 4 devices), Table 1, one ~78-op graph (train = test):\n"
                "  list scheduling 3.23 proxy | noisy 2.75 | bandwidth 1.02 | latency 1.74 | GED 0\n"
                "  BRKGA           3.22 proxy | noisy 2.86 | bandwidth 1.29 | latency 1.80 | GED 55.92\n"
                "  GFlowNet        3.21 proxy | noisy 3.05 | bandwidth 1.78 | latency 2.11 | GED 94.79\n"
                "Table 2, unseen 50-op synthetic graphs (5 families): proxy 1 / proxy 100 / GED\n"
                "  list scheduling 3.44 / 3.44 / 0    BRKGA 3.46 / 3.45 / 46.59    GFlowNet 3.46 / 3.41 / 92.02\n"
                "Absolute GED / d_inv / d_sen values are not comparable (normalisation, docs/diversity.md); compare orderings.\n");
}

/// --only speed: sampling seconds on the example with the conditional and the single-graph model.
int runSpeed(Args& args, const BenchSetup& b, int samples) {
    if (shardingActive()) throw UsageError("bench gflownet --only speed times one machine: run it with one rank");
    SpeedSetup s;
    s.graphPath = b.examplePath;
    s.samples = samples;
    s.threads = args.takeIntList("threads", "1,2");
    s.temperatures = static_cast<int>(args.takeIntIn("temperatures", 20, 1, 1000));
    args.finish(1);
    if (b.devices < 1 || samples < 1) throw UsageError("--devices and --samples must be positive");
    const Problem p = onDevices(loadGraph(b.examplePath).graph, b);
    for (const std::string& w : {gfn::defaultWeightsFor(p), b.exampleWeights})
        if (!w.empty()) s.weights.push_back(w);
    if (s.weights.empty()) throw UsageError("no gflownet weights found (models/weights)");
    return runGflowNetSpeedBench(p, s);
}

/// --only scale: seconds per 1,000 samples from 24 to 1,000 ops and on the ONNX models, then
/// top-1, top-k and GED beside list-cp and both BRKGAs on held-out er, layered and nn graphs of
/// 50, 200 and 1,000 ops.
int runScale(const BenchSetup& b, int samples) {
    ScaleSetup s;
    s.samples = samples;
    s.perStateWeights = b.exampleWeights;
    std::vector<ScaleGraph> graphs;
    for (int n : {24, 100, 200, 500, 1000})
        graphs.push_back({"layered-gfn seed 7", onDevices(generateInstance("layered-gfn", n, 7).graph, b)});
    for (const char* onnx : {"light_squeezenet.onnx", "light_resnet50.onnx", "light_bvlc_alexnet.onnx"}) {
        const fs::path path = fs::path(defaultDataDir()) / "onnx" / onnx;
        if (fs::exists(path)) graphs.push_back({onnx, onDevices(loadGraph(path.string()).graph, b)});
    }
    printGflowNetScaleSpeed(graphs, s);
    const std::vector<MethodSpec> methods = [&] {
        std::vector<MethodSpec> m;
        for (const std::string& text : splitList(defaultMethods(false)))
            if (text.find("priority-sampler") == std::string::npos && text.find("temperature=1") == std::string::npos)
                m.push_back(parseMethodSpec(text));
        return m;
    }();
    for (int n : {50, 200, 1000})
        for (const std::string family : {"erdos-renyi-gfn", "layered-gfn", "nn"}) {
            Workload w{family + ", " + std::to_string(b.graphs) + " held-out graphs of " + std::to_string(n) + " ops (seeds 1..)", {}};
            for (int i = 1; i <= b.graphs; ++i)
                w.problems.push_back(onDevices(generateInstance(family, n, static_cast<std::uint64_t>(i)).graph, b));
            printWorkload(w, b, methods, /*oracle=*/false);
        }
    printTableLegend();
    return 0;
}

int runGflowNetBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    BenchSetup b;
    const fs::path root = fs::path(defaultDataDir()).parent_path().parent_path();
    const std::optional<std::string> graph = args.take("graph");
    b.examplePath = graph.value_or((root / "resources" / "examples" / "gflownet-layered24.json").string());
    b.tracePath = args.take("trace", (fs::path(defaultDataDir()) / "wfcommons" / "blast-chameleon-small-001.json").string());
    // The single-graph model trained on the bundled example, when the source tree has it (another
    // --graph gets the conditional model unless --example-weights names one).
    const fs::path shippedSingle = root / "models" / "weights" / "gflownet-layered24.slw";
    b.exampleWeights =
        args.take("example-weights", !graph && fs::exists(shippedSingle) ? shippedSingle.string() : std::string());
    b.devices = static_cast<int>(args.takeInt("devices", 4));
    if (const std::optional<std::string> preset = args.take("preset")) {   // time units: the graphs' own
        const DeviceCatalog& catalog = DeviceCatalog::instance();
        b.machine = presetPlatform(catalog.preset(*preset), catalog, TimeUnit::Microseconds);
        if (b.devices > b.machine->deviceCount())
            throw UsageError("--devices " + std::to_string(b.devices) + ": preset '" + *preset + "' has " +
                             std::to_string(b.machine->deviceCount()) + " devices");
    }
    b.seeds = static_cast<int>(args.takeInt("seeds", quick ? 1 : 3));
    b.graphs = static_cast<int>(args.takeInt("graphs", quick ? 1 : 5));
    b.nodes = static_cast<int>(args.takeInt("nodes", quick ? 20 : 50));
    const int samples = static_cast<int>(args.takeInt("samples", quick ? 100 : 1000));
    b.protocol.topK = static_cast<int>(args.takeInt("top-k", quick ? 10 : 100));
    const std::string only = args.take("only", "all");
    if (only == "speed") return runSpeed(args, b, samples);
    const TargetArgs targets = takeTargets(args);
    const std::string methods = args.take("methods", defaultMethods(quick));
    args.finish(1);
    if (b.devices < 1 || b.seeds < 1 || b.graphs < 1 || b.nodes < 2 || samples < 1 || b.protocol.topK < 1)
        throw UsageError("--devices, --seeds, --graphs, --samples and --top-k must be positive, --nodes at least 2");
    if (only != "all" && only != "example" && only != "generated" && only != "trace" && only != "scale")
        throw UsageError("--only takes example, generated, trace, speed, scale or all");
    for (const std::string& m : splitList(methods)) b.methods.push_back(parseMethodSpec(m));
    // Equal budgets: BRKGA's evaluations and the samplers' draws are both `samples`
    // (docs/gflownet.md), except for a method given its own (the paper's BRKGA).
    b.protocol.budget = samples;
    b.protocol.targets = targets.models.empty()
                             ? std::vector<TargetModel>{TargetModel::Noisy, TargetModel::Bandwidth, TargetModel::Latency}
                             : targets.models;
    b.protocol.targetSeed = targets.seed;

    const std::string machine = b.machine ? "of " + b.machine->name : "identical devices";
    std::printf("GFlowNet benchmark: %d devices %s, %d evaluations / samples per run (a method's own\n"
                "budget aside), top %d by proxy speedup, means over seeds 1..%d; speedup = total work /\n"
                "makespan (at most %d)\n\n",
                b.devices, machine.c_str(), samples, b.protocol.topK, b.seeds, b.devices);
    if (only == "scale") return runScale(b, samples);
    if (only == "all" || only == "example") {
        const LoadedGraph example = loadGraph(b.examplePath);
        printWorkload({"Table 1 analogue: " + std::string(graph ? "" : "the bundled example ") +
                           fs::path(b.examplePath).filename().string() + " (" +
                           std::to_string(example.graph->opCount()) + " ops)",
                       {onDevices(example.graph, b)}},
                      b, withWeights(b.methods, b.exampleWeights));
    }
    if (only == "all" || only == "generated")
        for (const std::string family : {"erdos-renyi-gfn", "layered-gfn"}) {
            Workload w{"Table 2 analogue: " + family + ", " + std::to_string(b.graphs) + " held-out graphs of " +
                           std::to_string(b.nodes) + " ops (seeds 1.., not in any training set)",
                       {}};
            for (int i = 1; i <= b.graphs; ++i)
                w.problems.push_back(
                    onDevices(generateInstance(family, b.nodes, static_cast<std::uint64_t>(i)).graph, b));
            printWorkload(w, b, b.methods);
        }
    if (only == "all" || only == "trace") {
        const LoadedGraph trace = loadGraph(b.tracePath);
        printWorkload({"WfCommons trace " + fs::path(b.tracePath).filename().string() + " (" +
                           std::to_string(trace.graph->opCount()) + " tasks)",
                       {onDevices(trace.graph, b)}},
                      b, b.methods);
    }
    printTableLegend();
    std::printf("list-cp, tabu on each target (sees it): run on each target model itself, not under the protocol:\n"
                "how much better than the proxy's candidates a schedule can do on that target (on shared-links,\n"
                "list-cp there is the contention-aware list schedule).\n");
    printPaperTables();
    return 0;
}

SL_CLI_BENCH(
    {"gflownet",
     "the GFlowNet paper's Tables 1-2: GFlowNet vs list-cp, BRKGA, priority sampler",
     std::string("Usage: schedlab-cli bench gflownet [--only example|generated|trace|speed|scale|all] [--devices 4]\n"
                 "         [--samples 1000] [--top-k 100] [--seeds 3] [--graphs 5] [--nodes 50]\n"
                 "         [--graph FILE] [--example-weights FILE] [--trace FILE]\n"
                 "         [--methods M1,M2] [--target noisy,bandwidth,latency] [--target-seed 1] [--quick]\n"
                 "         [--preset ID]\n"
                 "Each method runs on the proxy (free transfers) with --samples evaluations or samples;\n"
                 "its top k candidates are judged on each target (best of k) and their diversity measured\n"
                 "(Zhang et al. 2023, §5; docs/diversity.md). Workloads: the bundled example (--graph;\n"
                 "gflownet rows use --example-weights, by default the shipped single-graph model\n"
                 "gflownet-layered24.slw for the bundled example, the conditional model for another\n"
                 "--graph), held-out erdos-renyi-gfn and\n"
                 "layered-gfn graphs, and a WfCommons trace (--trace). Default methods: list-cp,\n"
                 "brkga-chains (the paper's BRKGA, docs/brkga.md) at --samples evaluations, priority-sampler,\n"
                 "brkga-chains as the paper ran it (population 1000 = 200 elites + 700 children + 100\n"
                 "mutants, 75 generations: 60,200 evaluations), gflownet at sigma 0.005 and 1\n"
                 "('name:key=value;...' sets options; the keys budget and label set a method's own\n"
                 "evaluations and its row's name). Each table ends with list-cp and tabu run on each target\n"
                 "itself (they see the target, unlike the methods; references for the target columns).\n"
                 "--preset ID: the preset's first --devices devices and links instead of identical devices,\n"
                 "ops that carry work timed on its devices; the methods see its links contention-free.\n"
                 "With --target shared-links, their candidates are judged on that machine with its links\n"
                 "shared (docs/time.md, \"Shared links\").\n"
                 "The paper's numbers are printed after the tables. --quick: 100 samples, top 10, one\n"
                 "seed, one 20-op graph per family.\n"
                 "--only speed [--threads 1,2] [--temperatures 20]: seconds for --samples samples and for a\n"
                 "temperature sweep of the example, with the conditional and the single-graph weights.\n"
                 "--only scale: seconds for --samples samples of layered-gfn graphs of 24 to 1,000 ops and\n"
                 "of the ONNX models in tests/data (the shipped GFlowNet, the per-state one up to 100 ops,\n"
                 "the priority sampler, list-cp), then the candidate tables on --graphs held-out\n"
                 "erdos-renyi-gfn, layered-gfn and nn graphs of 50, 200 and 1,000 ops.\n\n") +
         targetOptionsHelp(),
     {"quick"},
     &runGflowNetBench,
     /*needsNeuralMethods=*/true,
     /*shardable=*/true});

} // namespace
} // namespace bench_gflownet
} // namespace sl::cli
