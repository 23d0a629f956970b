// SPDX-License-Identifier: MIT
// `schedlab-cli bench memory-steps`: single-device peak memory of training steps (SGD and Adam,
// docs/training-graphs.md) of real models and of large generated networks, per step: the optimum
// exact-memory proves (or its best order and bound), each classic order, Topoformer's network
// alone and with its classic candidates, and the approximate DP of Gagrani et al. 2022; each with
// its time. The summary gives the targets of docs/topoformer.md, "Learning from proven optima".
// `--compiled DIR` adds HLO modules dumped from whole training steps (docs/topoformer.md,
// "Compiled training steps").
#include "bench.h"

#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

namespace sl::cli {
namespace bench_memorysteps {
namespace {

namespace fs = std::filesystem;

struct Method {
    std::string label, name;
    RunOptions options;
};

struct StepCase {
    std::string name;
    std::shared_ptr<Graph> g;
};

struct Outcome {
    double peak = 0, bound = 0, seconds = 0;
    bool optimal = false;
};

std::vector<Method> methods(const std::string& weights, double exactTime, int k) {
    std::vector<Method> m;
    auto add = [&](std::string label, std::string name, std::map<std::string, double> values) {
        RunOptions o;
        o.seed = 1;
        o.values = std::move(values);
        if (name == "topoformer" && !weights.empty()) o.strings["weights"] = weights;
        m.push_back({std::move(label), std::move(name), o});
    };
    add("exact-memory", "exact-memory", {{"time", exactTime}});
    for (const char* classic : {"mem-dfs", "mem-bfs", "mem-postorder", "mem-xla-list"}) add(classic, classic, {});
    add("network greedy", "topoformer", {{"greedy", 1}, {"classic-candidates", 0}});
    add("network beam-16", "topoformer", {{"beam", 16}, {"classic-candidates", 0}});
    add("topoformer (default)", "topoformer", {});
    if (k > 0 && OptimizerRegistry::instance().find("mem-approx-dp"))
        add("approx DP K=" + std::to_string(k), "mem-approx-dp", {{"k", static_cast<double>(k)}});
    return m;
}

Outcome runOne(const Method& m, const std::shared_ptr<Graph>& g) {
    Problem p{.graph = g, .platform = Platform::identical(1), .objective = {.kind = Objective::Memory}};
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = OptimizerRegistry::instance().create(m.name)->run(p, m.options, {}, {});
    return {r.schedule.peakMemory(), r.lowerBound, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
            r.note.rfind("optimal", 0) == 0};
}

bool isClassic(const Method& m) { return m.name.rfind("mem-", 0) == 0 && m.name != "mem-approx-dp"; }

std::vector<StepCase> realSteps(const fs::path& data, const std::vector<UpdateRule>& rules) {
    std::vector<fs::path> files = onnxModelFiles(data);
    if (fs::is_directory(data / "hlo"))
        for (const auto& e : fs::directory_iterator(data / "hlo"))
            if (e.path().extension() == ".hlo") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<StepCase> steps;
    for (const fs::path& f : files) {
        try {
            const auto forward = loadGraph(f.string()).graph;
            for (UpdateRule rule : rules)
                steps.push_back({f.stem().string() + " " + std::string(updateRuleName(rule)),
                                 std::make_shared<Graph>(makeTrainingGraph(*forward, {.rule = rule}))});
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: skipped (%s)\n", f.string().c_str(), e.what());
        }
    }
    return steps;
}

/// HLO modules a compiler dumped from whole training steps (PyTorch/XLA's SyncTensorsGraph):
/// read as they are, their own backward and optimizer included.
std::vector<StepCase> compiledSteps(const std::string& dir) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".hlo" || e.path().string().ends_with(".hlo.txt")) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<StepCase> steps;
    for (const fs::path& f : files) {
        try {
            steps.push_back({f.filename().string(), loadGraph(f.string()).graph});
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: skipped (%s)\n", f.string().c_str(), e.what());
        }
    }
    return steps;
}

/// Held-out generated Adam steps (seeds 9,000,000 + i, which no training or label seed reaches).
std::vector<StepCase> generatedSteps(int count, int lo, int hi) {
    std::vector<StepCase> steps;
    for (int i = 0; i < count; ++i) {
        const int nodes = count == 1 ? lo : lo + (hi - lo) * i / (count - 1);
        const auto forward = generateNetworkLike(nodes, 9'000'000 + static_cast<std::uint64_t>(i)).graph;
        steps.push_back({"nn " + std::to_string(nodes) + " adam", std::make_shared<Graph>(makeTrainingGraph(*forward, {.rule = UpdateRule::Adam}))});
    }
    return steps;
}

/// The tallies behind the summary lines.
struct Tally {
    int steps = 0, proven = 0;
    std::map<std::string, std::vector<double>> gapToOptimum;   ///< over proven steps
    int classicNotOptimal = 0, defaultBelowClassic = 0, defaultAboveClassic = 0;
    std::map<std::string, std::vector<double>> gapToDp;   ///< over all steps, when the DP ran
};

/// Prints one step's rows and adds it to the tally.
void runStep(const StepCase& step, const std::vector<Method>& ms, Tally& tally) {
    std::map<std::string, Outcome> out;
    for (const Method& m : ms) out[m.label] = runOne(m, step.g);
    const Outcome& exact = out.at("exact-memory");
    double classic = kInfinity;
    for (const Method& m : ms)
        if (isClassic(m)) classic = std::min(classic, out.at(m.label).peak);
    const double reference = exact.optimal ? exact.peak : exact.bound;
    std::printf("\n%s: %d ops; %s %.3f MiB%s\n", step.name.c_str(), step.g->opCount(),
                exact.optimal ? "optimum" : "best bound", reference / 1048576.0,
                exact.optimal ? "" : (" (best order " + std::to_string(exact.peak / 1048576.0) + " MiB)").c_str());
    for (const Method& m : ms) {
        const Outcome& o = out.at(m.label);
        std::printf("  %-22s %12.3f MiB  %+8.2f %%  %9.3f s\n", m.label.c_str(), o.peak / 1048576.0,
                    100 * (o.peak - reference) / reference, o.seconds);
    }
    ++tally.steps;
    const std::string dp = ms.back().name == "mem-approx-dp" ? ms.back().label : "";
    for (const Method& m : ms) {
        if (exact.optimal) tally.gapToOptimum[m.label].push_back(100 * (out.at(m.label).peak - exact.peak) / exact.peak);
        if (!dp.empty()) tally.gapToDp[m.label].push_back(100 * (out.at(m.label).peak - out.at(dp).peak) / out.at(dp).peak);
    }
    if (!exact.optimal) return;
    ++tally.proven;
    const double deflt = out.at("topoformer (default)").peak;
    if (classic > exact.peak) {
        ++tally.classicNotOptimal;
        tally.defaultBelowClassic += deflt < classic;
    }
    tally.defaultAboveClassic += deflt > classic;
}

void printSummary(const char* title, const Tally& t, const std::vector<Method>& ms) {
    std::printf("\n%s: %d steps, %d proven optimal by exact-memory\n", title, t.steps, t.proven);
    for (const Method& m : ms) {
        const auto it = t.gapToOptimum.find(m.label);
        if (it != t.gapToOptimum.end() && !it->second.empty()) {
            double sum = 0, worst = -kInfinity;
            for (double g : it->second) sum += g, worst = std::max(worst, g);
            std::printf("  %-22s above the optimum: mean %+7.2f %%, worst %+7.2f %%", m.label.c_str(),
                        sum / static_cast<double>(it->second.size()), worst);
        } else {
            std::printf("  %-22s %43s", m.label.c_str(), "");
        }
        if (const auto dp = t.gapToDp.find(m.label); dp != t.gapToDp.end() && !dp->second.empty()) {
            double sum = 0;
            for (double g : dp->second) sum += g;
            std::printf("   vs approx DP: mean %+7.2f %%", sum / static_cast<double>(dp->second.size()));
        }
        std::printf("\n");
    }
    std::printf("  topoformer (default) below the best classic order on %d of the %d proven steps where that order is not "
                "optimal; above it on %d\n",
                t.defaultBelowClassic, t.classicNotOptimal, t.defaultAboveClassic);
}

int runBenchMemorySteps(Args& args) {
    const bool quick = args.takeFlag("quick");
    const std::string weights = args.take("weights", "");
    const fs::path data = args.take("data", defaultDataDir());
    const double exactTime = args.takeDouble("exact-time", quick ? 1 : 60);
    const int k = static_cast<int>(args.takeInt("k", quick ? 100 : 10000));
    const int large = static_cast<int>(args.takeInt("large", quick ? 1 : 3));
    const std::vector<int> largeNodes = args.takeIntList("large-nodes", quick ? "40,40" : "1200,1700", 2);
    const std::string rules = args.take("rules", quick ? "sgd" : "sgd,adam");
    const std::string compiled = args.take("compiled", "");
    args.finish(2);
    if (!compiled.empty() && !fs::is_directory(compiled)) throw UsageError("--compiled " + compiled + ": not a folder");
    std::vector<UpdateRule> ruleList;
    for (const char* r : {"sgd", "adam"})
        if (rules.find(r) != std::string::npos) ruleList.push_back(*parseUpdateRule(r));
    if (ruleList.empty() || large < 0 || largeNodes.size() != 2 || largeNodes[0] > largeNodes[1])
        throw UsageError("--rules sgd,adam; --large >= 0; --large-nodes LO,HI");
    const std::vector<Method> ms = methods(weights, exactTime, k);
    std::printf("Training steps, one device, step-clock peak memory. Gaps: %% above the optimum exact-memory proves "
                "(--exact-time %.0f s), else above its best bound.\n",
                exactTime);
    Tally real, dumped, generated;
    for (const StepCase& s : realSteps(data, ruleList)) runStep(s, ms, real);
    if (!compiled.empty())
        for (const StepCase& s : compiledSteps(compiled)) runStep(s, ms, dumped);
    for (const StepCase& s : generatedSteps(large, largeNodes[0], largeNodes[1])) runStep(s, ms, generated);
    printSummary("Real models (DATA/onnx, DATA/hlo)", real, ms);
    if (!compiled.empty()) printSummary("Compiled training steps (--compiled)", dumped, ms);
    if (large > 0) printSummary("Generated Adam steps (nn, seeds 9000000 + i)", generated, ms);
    std::printf("network: Topoformer's decoded order alone (classic-candidates 0); topoformer (default): the lower of "
                "it and the classic orders\n");
    return 0;
}

SL_CLI_BENCH({"memory-steps",
              "training steps' peak memory: optimum, classic orders, Topoformer, approximate DP, with times",
              "Usage: schedlab-cli bench memory-steps [OPTIONS]\n"
              "The SGD and Adam steps of the ONNX and HLO models in DATA, and of large generated nn networks; per\n"
              "step every method's peak, its gap to the proven optimum and its time; then the summaries.\n"
              "  --weights FILE      Topoformer weights (default: the shipped file)\n"
              "  --data DIR          test data folder (default: the source tree's tests/data)\n"
              "  --exact-time SEC    exact-memory's time limit per step (default 60)\n"
              "  --k K               the approximate DP's K (default 10000; 0 = skip it)\n"
              "  --large N           generated Adam steps (default 3; 0 = none)\n"
              "  --large-nodes LO,HI their forward op counts, evenly spread (default 1200,1700: about 3,000-4,300 ops)\n"
              "  --rules LIST        sgd, adam or sgd,adam for the real models (default sgd,adam)\n"
              "  --compiled DIR      also the HLO modules in DIR that a compiler dumped from whole training steps\n"
              "                      (PyTorch/XLA's SyncTensorsGraph), read as they are, with a summary of their own\n"
              "  --quick             --exact-time 1 --k 100 --large 1 --large-nodes 40,40 --rules sgd unless given\n",
              {}, &runBenchMemorySteps, /*needsNeuralMethods=*/true});

} // namespace
} // namespace bench_memorysteps
} // namespace sl::cli
