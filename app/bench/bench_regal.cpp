// SPDX-License-Identifier: MIT
// `schedlab-cli bench regal`: REGAL against plain and tuned BRKGA at the same total budget and
// seeds, on held-out generated training graphs and on the training graphs of the ONNX models in
// DATA/onnx; the paper's Table 1 (TF test set) beside ours (Paliwal et al. 2020, §4.3-4.4, Table 1).
#include "bench.h"
#include "candidatetable.h"
#include "shard.h"

#include "core/analysis/bounds.h"
#include "core/optimizer/optimizer.h"
#include "core/regal/dataset.h"
#include "core/regal/oracle.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

namespace sl::cli {
namespace {

namespace fs = std::filesystem;

using Method = MethodSpec;

constexpr std::int64_t kFeatureBudget = 400;   ///< REGAL's feature run (Paliwal et al. 2020, App. A.1)

/// The tuned setting, "key=value,..." in brkga's options (checked as a method spec is).
std::map<std::string, double> tunedValues(const std::string& text) {
    std::string spec = "brkga:";
    for (const std::string& item : splitList(text)) spec += item + ";";
    return parseMethodSpec(spec).options.values;
}

std::vector<Method> methods(const std::map<std::string, double>& tuned, const std::string& weights, std::int64_t budget, int threads,
                            int referenceTimes, int oracleTimes) {
    RunOptions base;
    base.budget = budget;
    base.threads = threads;
    std::vector<Method> m = {{"BRKGA 5K", "brkga", base}, {"Tuned BRKGA", "brkga", base}, {"REGAL", "regal", base},
                             {"REGAL + elites", "regal", base}};
    m[1].options.values = tuned;
    m[3].options.values["warm-start"] = 1;
    for (std::size_t i = 2; i < m.size(); ++i)
        if (!weights.empty()) m[i].options.strings["weights"] = weights;
    if (budget != 5000) m[0].label = "BRKGA " + std::to_string(budget);
    if (referenceTimes > 1) {
        // What more search finds with the same decoder: the room a 5,000-evaluation method has.
        Method reference{"BRKGA " + std::to_string(referenceTimes) + "x", "brkga", base};
        reference.options.budget = budget * referenceTimes;
        m.push_back(reference);
    }
    if (oracleTimes > 1) {
        // REGAL's action space handed the answer: Betas toward a long run's best (core/regal/oracle.h)
        Method oracle{"Oracle " + std::to_string(oracleTimes) + "x", "oracle", base};
        oracle.options.budget = budget - kFeatureBudget;   // what REGAL's learned run gets
        oracle.options.values["guide-budget"] = static_cast<double>(budget * oracleTimes);
        m.push_back(oracle);
    }
    return m;
}

struct Outcome {
    double cost = 0, seconds = 0;
};

/// The oracle's guide is one long run per graph, the same for every seed of the steered run.
constexpr std::uint64_t kOracleGuideSeed = 99;

double costOf(const Method& m, const Problem& p, std::uint64_t seed) {
    if (m.name == "oracle")
        return regal::oracleSearch(p, static_cast<std::int64_t>(m.options.values.at("guide-budget")), kOracleGuideSeed,
                                   m.options.budget, seed)
            .cost;
    RunOptions o = m.options;
    o.seed = seed;
    return OptimizerRegistry::instance().create(m.name)->run(p, o, {}, {}).cost;
}

/// One item of a distributed run (shard.h).
Outcome runOne(const Method& m, const Problem& p, std::uint64_t seed) {
    const std::vector<double> r = shardItem(2, [&] {
        const auto t0 = std::chrono::steady_clock::now();
        const double cost = costOf(m, p, seed);
        return std::vector<double>{cost, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
    });
    return {r[0], r[1]};
}

double meanOf(const std::vector<double>& xs) {
    double s = 0;
    for (double x : xs) s += x;
    return xs.empty() ? 0 : s / static_cast<double>(xs.size());
}

/// Per method, one entry per (graph, seed): % improvement over the first method, % above the cut
/// bound (core/analysis/bounds.h), % gap from the best known (the lowest peak any method of the
/// bench found on the graph, any seed: the second measure of the paper's Table 1); and seconds.
struct Summary {
    std::vector<double> improvement, aboveBound, gapFromBest;
    double seconds = 0;
    int runs = 0;
    double mean() const { return meanOf(improvement); }
    double share() const {
        return improvement.empty() ? 0
                                   : static_cast<double>(std::count_if(improvement.begin(), improvement.end(), [](double x) { return x >= -1e-9; })) /
                                         static_cast<double>(improvement.size());
    }
};

std::vector<Summary> runSet(const std::vector<regal::Instance>& set, const std::vector<Method>& ms, int seeds, bool perGraph) {
    std::vector<Summary> sums(ms.size());
    for (const regal::Instance& inst : set) {
        const double bound = lowerBounds(inst.problem).memory;
        std::vector<std::vector<Outcome>> outs;   // [seed][method]
        double best = kInfinity;
        for (int s = 1; s <= seeds; ++s) {
            outs.emplace_back();
            for (const Method& m : ms) {
                outs.back().push_back(runOne(m, inst.problem, static_cast<std::uint64_t>(s)));
                best = std::min(best, outs.back().back().cost);
            }
        }
        std::vector<double> mean(ms.size(), 0);
        for (const std::vector<Outcome>& out : outs)
            for (std::size_t i = 0; i < ms.size(); ++i) {
                sums[i].improvement.push_back(100 * (out[0].cost - out[i].cost) / out[0].cost);
                sums[i].aboveBound.push_back(100 * (out[i].cost - bound) / bound);
                sums[i].gapFromBest.push_back(100 * (out[i].cost - best) / best);
                sums[i].seconds += out[i].seconds;
                ++sums[i].runs;
                mean[i] += out[i].cost / seeds;
            }
        if (perGraph) {
            std::printf("  %-28s %5d ops", inst.name.c_str(), inst.problem.g().opCount());
            for (std::size_t i = 0; i < ms.size(); ++i) std::printf(" | %10.3f MB", mean[i] / 1e6);
            std::printf("\n");
        } else {
            std::fprintf(stderr, ".");
        }
    }
    if (!perGraph) std::fprintf(stderr, "\n");
    return sums;
}

void printSummary(const std::vector<Summary>& sums, const std::vector<Method>& ms) {
    std::printf("%-14s | %14s | %16s | %8s | %8s | %13s | %11s | %9s | %8s\n", "method", "mean % better", "better or equal",
                "best %", "worst %", "gap from best", "above bound", "s / graph", "time x");
    for (std::size_t i = 0; i < ms.size(); ++i) {
        const Summary& s = sums[i];
        const auto [lo, hi] = std::minmax_element(s.improvement.begin(), s.improvement.end());
        const double secs = s.seconds / std::max(1, s.runs), base = sums[0].seconds / std::max(1, sums[0].runs);
        std::printf("%-14s | %+13.2f%% | %15.1f%% | %+7.2f%% | %+7.2f%% | %12.2f%% | %10.2f%% | %9.4f | %7.2fx\n",
                    ms[i].label.c_str(), s.mean(), 100 * s.share(), *hi, *lo, meanOf(s.gapFromBest), meanOf(s.aboveBound), secs,
                    secs / base);
    }
}

void printTargets(const std::vector<Summary>& sums, const std::vector<Method>& ms) {
    const auto verdict = [](bool ok) { return ok ? "met" : "MISSED"; };
    for (std::size_t i = 2; i < ms.size(); ++i) {
        if (ms[i].name != "regal") continue;
        const Summary& r = sums[i];
        const double timeRatio = (r.seconds / r.runs) / (sums[0].seconds / sums[0].runs);
        std::printf("targets (REGAL's acceptance bar, the paper's numbers rounded down; docs/regal.md), %s: mean >= 2.00 %% better: %+.2f %% %s; better or equal on >= 70 %%: %.1f %% %s; "
                    "<= 1.25x seconds: %.2fx %s\n",
                    ms[i].label.c_str(), r.mean(), verdict(r.mean() >= 2), 100 * r.share(), verdict(r.share() >= 0.7), timeRatio,
                    verdict(timeRatio <= 1.25));
    }
}

/// How much room the set leaves, in the terms of the paper's Table 1: BRKGA 5K's gap from the best known, and the
/// share of it the 2 % target asks a method to close (the paper's REGAL closed 54 %).
void printRoom(const std::vector<Summary>& sums) {
    const double room = meanOf(sums[0].gapFromBest) / 100;
    if (room <= 0) return;
    std::printf("room: BRKGA 5K is %.2f %% above the best known peak on average (paper: 9.65 %%); 2 %% better than BRKGA "
                "closes about %.0f %% of that (the paper's REGAL closed 54 %%: 9.65 -> 4.44 %%)\n",
                100 * room, 100 * 0.02 * (1 + room) / room);
}

void printPaper() {
    std::printf("\nPaper (Paliwal et al. 2020, Table 1 and §4.3-4.4, TF peak-memory test set, 2 devices, 5,000 evaluations;\n"
                "REGAL 400 + 4,600; best known: CP-SAT's 24-hour optimum, else the best of all methods):\n"
                "%-14s | %14s | %16s | %13s | %9s\n",
                "method", "mean % better", "better or equal", "gap from best", "s / graph");
    struct Row {
        const char* name;
        double better, share, gap, seconds;
    };
    for (const Row& r : {Row{"BRKGA 5K", 0.0, -1, 9.65, 0.89}, Row{"Tuned BRKGA", 0.8, -1, 8.54, 1.04}, Row{"GAS", 0.16, -1, 9.33, 1.04},
                         Row{"REGAL", 3.56, 88.92, 4.44, 1.04}}) {
        const std::string share = r.share < 0 ? "-" : std::to_string(r.share).substr(0, 5) + "%";
        std::printf("%-14s | %+13.2f%% | %16s | %12.2f%% | %9.2f\n", r.name, r.better, share.c_str(), r.gap, r.seconds);
    }
}

std::vector<std::string> onnxFiles(const fs::path& data) {
    std::vector<std::string> files;
    if (fs::exists(data / "onnx"))
        for (const auto& e : fs::directory_iterator(data / "onnx"))
            if (e.path().extension() == ".onnx") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

int runBenchRegal(Args& args) {
    const bool quick = args.takeFlag("quick");
    const int graphs = static_cast<int>(args.takeInt("graphs", quick ? 3 : 20));
    const int seeds = static_cast<int>(args.takeInt("seeds", 1));
    const std::string nodes = args.take("nodes", "20-120");
    const std::string families = args.take("families", "nn");
    const std::int64_t budget = args.takeInt("budget", 5000);
    const int threads = args.takeThreads(1);
    const std::string weights = args.take("weights", "");
    const std::string tunedText = args.take("tuned", "rho=0.8,alpha=2,beta=2,population=100,elites=20,mutants=10,populations=2");
    const fs::path data = args.take("data", defaultDataDir());
    const bool withOnnx = args.take("onnx", quick ? "0" : "1") != "0";
    const int referenceTimes = static_cast<int>(args.takeInt("reference", quick ? 2 : 0));
    const int oracleTimes = static_cast<int>(args.takeInt("oracle", quick ? 2 : 0));
    args.finish(2);
    if (graphs < 0 || seeds < 1 || budget < 500 || threads < 1 || referenceTimes < 0 || oracleTimes < 0)
        throw UsageError("--graphs >= 0, --seeds >= 1, --budget >= 500, --threads >= 1, --reference >= 0, --oracle >= 0");
    regal::DatasetSpec spec;
    if (std::sscanf(nodes.c_str(), "%d-%d", &spec.minNodes, &spec.maxNodes) != 2) throw UsageError("--nodes: LO-HI");
    spec.graphs = graphs;
    spec.families = splitList(families);
    const std::vector<Method> ms = methods(tunedValues(tunedText), weights, budget, threads, referenceTimes, oracleTimes);

    std::printf("REGAL vs BRKGA at %lld evaluations (REGAL: 400 feature + %lld learned), %d seed(s) per graph, "
                "2 identical devices, peak memory (step clock), %d thread(s) per run\n"
                "Tuned BRKGA: %s\n\n",
                static_cast<long long>(budget), static_cast<long long>(budget - kFeatureBudget), seeds, threads, tunedText.c_str());
    std::printf("Held-out generated training graphs (%s, %s forward ops, seeds 5000000 + i, %d graphs):\n", families.c_str(),
                nodes.c_str(), graphs);
    const std::vector<Summary> held = runSet(regal::makeDataset(spec, regal::Split::HeldOut), ms, seeds, false);
    printSummary(held, ms);
    printRoom(held);
    printTargets(held, ms);

    if (withOnnx) {
        regal::DatasetSpec real;
        real.families.clear();
        real.onnxFiles = onnxFiles(data);
        real.onnxCopies = 1;
        if (!real.onnxFiles.empty()) {
            std::string columns;
            for (const Method& m : ms) columns += (columns.empty() ? "" : " | ") + m.label;
            std::printf("\nTraining graphs of the ONNX models in %s (mean peak over seeds: %s):\n",
                        (data / "onnx").string().c_str(), columns.c_str());
            const std::vector<Summary> onnx = runSet(regal::makeDataset(real, regal::Split::HeldOut), ms, seeds, true);
            printSummary(onnx, ms);
        }
    }
    printPaper();
    return 0;
}

SL_CLI_BENCH({"regal", "REGAL vs plain and tuned BRKGA at the same budget (held-out graphs, ONNX training graphs)",
              "Usage: schedlab-cli bench regal [OPTIONS]\n"
              "REGAL, plain BRKGA and tuned BRKGA with the same total budget and seeds on held-out generated\n"
              "training graphs and on the training graphs of DATA/onnx; mean % improvement over plain BRKGA,\n"
              "share of graphs better or equal, seconds per graph, and the paper's numbers.\n"
              "  --graphs N        held-out generated graphs (default 20)\n"
              "  --nodes LO-HI     their forward ops (default 20-120)\n"
              "  --families LIST   their generator families (default nn)\n"
              "  --seeds S         seeds per graph (default 1)\n"
              "  --budget N        evaluations per run (default 5000)\n"
              "  --threads T       threads per run (default 1)\n"
              "  --weights FILE    REGAL weights (default: models/weights/regal-memory.slw)\n"
              "  --tuned K=V,...   Tuned BRKGA's setting (default: the one docs/regal.md reports)\n"
              "  --data DIR        test data folder (default: the source tree's tests/data)\n"
              "  --onnx 0          skip the ONNX models\n"
              "  --reference K     add plain BRKGA at K times the budget: the room more search finds\n"
              "  --oracle K        add REGAL's action space handed the answer: the Betas toward the best of\n"
              "                    a K-times-budget BRKGA run (one per graph), steering BRKGA as REGAL does\n"
              "  --quick           --graphs 3 --onnx 0 --reference 2 --oracle 2 unless given\n",
              {"quick"}, &runBenchRegal, /*needsNeuralMethods=*/true, /*shardable=*/true});

} // namespace
} // namespace sl::cli
