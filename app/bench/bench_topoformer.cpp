// SPDX-License-Identifier: MIT
// `schedlab-cli bench topoformer`: the Topoformer memory orders against the classic memory orders,
// random best-of-100 and the exact DP, in the shape of Gagrani et al. 2022's Table 1 (§5.1),
// on held-out layered graphs, the ONNX models, and the training graphs (forward, loss, gradients,
// SGD/Adam updates) of the ONNX models and of held-out network-like ("nn") graphs.
#include "bench.h"

#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

namespace sl::cli {
namespace bench_topoformer {
namespace {

namespace fs = std::filesystem;

struct Method {
    std::string label;
    std::string name;
    RunOptions options;
};

/// `weights`: a weight file for the topoformer rows (empty: the shipped one).
std::vector<Method> methods(bool withExact, double exactTime, const std::string& weights) {
    std::vector<Method> m;
    auto add = [&](std::string label, std::string name, std::map<std::string, double> values,
                   std::map<std::string, std::string> strings = {}) {
        RunOptions o;
        o.seed = 1;
        o.values = std::move(values);
        o.strings = std::move(strings);
        if (name == "topoformer" && !weights.empty()) o.strings["weights"] = weights;
        m.push_back({std::move(label), std::move(name), o});
    };
    // topoformer: the decoded order or a classic order, whichever is lower (the default);
    // paper: the decoded order alone (classic-candidates 0).
    add("topoformer greedy", "topoformer", {{"greedy", 1}});
    add("topoformer sample-16", "topoformer", {{"samples", 16}});
    add("topoformer beam-16", "topoformer", {{"beam", 16}});
    add("paper greedy", "topoformer", {{"greedy", 1}, {"classic-candidates", 0}});
    add("paper sample-16", "topoformer", {{"samples", 16}, {"classic-candidates", 0}});
    add("paper beam-16", "topoformer", {{"beam", 16}, {"classic-candidates", 0}});
    add("mem-dfs", "mem-dfs", {});
    add("mem-bfs", "mem-bfs", {});
    add("mem-postorder", "mem-postorder", {});
    add("mem-xla-list", "mem-xla-list", {});
    add("random best-of-100", "random-search", {{"samples", 100}, {"space", 2}}, {{"space", "orders"}});
    if (withExact) add("exact-memory", "exact-memory", {{"time", exactTime}});
    return m;
}

struct Outcome {
    double peak = 0;
    double seconds = 0;
    bool optimal = false;
};

Outcome runOne(const Method& m, const std::shared_ptr<Graph>& g) {
    Problem p{.graph = g, .platform = Platform::identical(1), .objective = {.kind = Objective::Memory}};
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = OptimizerRegistry::instance().create(m.name)->run(p, m.options, {}, {});
    Outcome o;
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    o.peak = r.schedule.peakMemory();
    o.optimal = r.note.rfind("optimal", 0) == 0;
    return o;
}

bool isClassic(const std::string& name) { return name.rfind("mem-", 0) == 0; }

/// Every method's outcome on one graph, by label.
using Row = std::map<std::string, Outcome>;

Row runRow(const std::vector<Method>& ms, const std::shared_ptr<Graph>& g) {
    Row row;
    for (const Method& m : ms) row[m.label] = runOne(m, g);
    return row;
}

/// The lowest peak of the classic memory orders in `row`.
double bestClassicPeak(const Row& row, const std::vector<Method>& ms) {
    double classic = kInfinity;
    for (const Method& m : ms)
        if (isClassic(m.name)) classic = std::min(classic, row.at(m.label).peak);
    return classic;
}

bool exactProvedOptimal(const Row& row) { return row.count("exact-memory") && row.at("exact-memory").optimal; }

/// One column group per graph set: mean % gap to the reference and seconds per graph.
struct Column {
    std::string title;
    std::string reference;
    std::map<std::string, double> gap, seconds;
    std::map<std::string, int> better;   ///< graphs where the method beats the best classic order
    int graphs = 0;
    int exactOptimal = 0;
};

Column runSet(const std::string& title, const std::vector<std::shared_ptr<Graph>>& graphs,
              const std::vector<Method>& ms) {
    Column col;
    col.title = title;
    col.graphs = static_cast<int>(graphs.size());
    std::vector<Row> results;
    for (const auto& g : graphs) {
        results.push_back(runRow(ms, g));
        std::fprintf(stderr, ".");
    }
    std::fprintf(stderr, "\n");
    bool exactAll = !graphs.empty();
    for (const Row& row : results) {
        if (exactProvedOptimal(row)) ++col.exactOptimal;
        else exactAll = false;
    }
    col.reference = exactAll ? "exact optimum" : "best classic order";
    for (const Row& row : results) {
        const double classic = bestClassicPeak(row, ms);
        const double ref = exactAll ? row.at("exact-memory").peak : classic;
        for (const Method& m : ms) {
            const Outcome& o = row.at(m.label);
            col.gap[m.label] += 100.0 * (o.peak - ref) / ref / static_cast<double>(results.size());
            col.seconds[m.label] += o.seconds / static_cast<double>(results.size());
            col.better[m.label] += o.peak < classic - 1e-9 * classic;
        }
    }
    return col;
}

void printColumns(const std::vector<Column>& cols, const std::vector<Method>& ms) {
    std::printf("%-22s", "method");
    for (const Column& c : cols) std::printf(" | %-26s", c.title.c_str());
    std::printf("\n%-22s", "");
    for (size_t i = 0; i < cols.size(); ++i) std::printf(" | %8s %7s %9s", "gap %", "beats", "s/graph");
    std::printf("\n");
    for (const Method& m : ms) {
        std::printf("%-22s", m.label.c_str());
        for (const Column& c : cols) {
            if (!c.gap.count(m.label)) {
                std::printf(" | %8s %7s %9s", "-", "-", "-");
                continue;
            }
            std::printf(" | %+8.2f %3d/%-3d %9.4f", c.gap.at(m.label), c.better.at(m.label), c.graphs,
                        c.seconds.at(m.label));
        }
        std::printf("\n");
    }
    std::printf("gap: mean %% above the reference (");
    for (size_t i = 0; i < cols.size(); ++i)
        std::printf("%s%s: %s", i ? "; " : "", cols[i].title.c_str(), cols[i].reference.c_str());
    std::printf("); beats: graphs where the method's peak is below every classic memory order\n");
}

const char* const kLegend =
    "topoformer: the network's order or the best classic order, whichever has the lower peak (option\n"
    "classic-candidates 1, the default); paper: the network's order alone (classic-candidates 0)\n";

/// Inference graphs of the ONNX models: peak MB and seconds per method.
void runOnnxTable(const fs::path& data, const std::vector<Method>& all) {
    const std::vector<fs::path> files = onnxModelFiles(data);
    if (files.empty()) {
        std::printf("\nno ONNX models under %s\n", (data / "onnx").string().c_str());
        return;
    }
    std::printf("\nReal models (%s): peak memory in MB (10^6 bytes) / seconds\n", (data / "onnx").string().c_str());
    std::printf("%-22s", "method");
    for (const auto& f : files) std::printf(" | %-24s", f.stem().string().c_str());
    std::printf("\n");
    std::vector<Row> rows;
    std::vector<std::shared_ptr<Graph>> graphs;
    for (const auto& f : files) {
        const auto g = loadGraph(f.string()).graph;
        graphs.push_back(g);
        rows.push_back(runRow(all, g));
    }
    for (const Method& m : all) {
        std::printf("%-22s", m.label.c_str());
        for (const auto& row : rows) {
            const Outcome& o = row.at(m.label);
            std::printf(" | %10.3f%s %9.4f s", o.peak / 1e6, m.name == "exact-memory" && !o.optimal ? "*" : " ",
                        o.seconds);
        }
        std::printf("\n");
    }
    std::printf("ops:                  ");
    for (const auto& g : graphs) std::printf(" | %-24d", g->opCount());
    std::printf("\n(* exact-memory gave up: best order found, not proven optimal)\n%s", kLegend);
}

std::string fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Options of the training-graph table.
struct TrainingSpec {
    std::vector<UpdateRule> rules;
    std::vector<fs::path> models;   ///< ONNX files whose training graphs are columns
    int generated = 10;             ///< held-out nn graphs
    int minNodes = 20, maxNodes = 120;
    double exactTime = 10;
};

/// One column of the training tables: the training graph of one ONNX model.
struct ModelColumn {
    std::string title;
    std::shared_ptr<Graph> g;
};

/// The training graphs of `spec.models` under `rule`; a model that does not load is skipped (said
/// on stderr).
std::vector<ModelColumn> modelTrainingGraphs(const TrainingSpec& spec, UpdateRule rule) {
    std::vector<ModelColumn> cols;
    for (const fs::path& f : spec.models) {
        try {
            const auto forward = loadGraph(f.string()).graph;
            cols.push_back({f.stem().string(), std::make_shared<Graph>(makeTrainingGraph(*forward, {.rule = rule}))});
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: skipped (%s)\n", f.string().c_str(), e.what());
        }
    }
    return cols;
}

/// The training graphs of the held-out nn graphs: sizes spread evenly over [minNodes, maxNodes],
/// seeds 7000000 + i.
std::vector<std::shared_ptr<Graph>> nnTrainingGraphs(const TrainingSpec& spec, UpdateRule rule) {
    std::vector<std::shared_ptr<Graph>> nn;
    for (int i = 0; i < spec.generated; ++i) {
        const int n = spec.generated == 1 ? spec.minNodes
                                          : spec.minNodes + (spec.maxNodes - spec.minNodes) * i / (spec.generated - 1);
        const auto forward = generateNetworkLike(n, 7000000 + static_cast<std::uint64_t>(i)).graph;
        nn.push_back(std::make_shared<Graph>(makeTrainingGraph(*forward, {.rule = rule})));
    }
    return nn;
}

/// Per method over the nn graphs: the mean % gap to the best classic order, the mean seconds, the
/// graphs below every classic order (beats) and above the best one (worse).
struct NnTally {
    std::map<std::string, double> gap, seconds;
    std::map<std::string, int> beats, worse;
    int exactProven = 0;   ///< graphs exact-memory proved optimal
};

NnTally runNnGraphs(const std::vector<std::shared_ptr<Graph>>& nn, const std::vector<Method>& ms) {
    NnTally t;
    for (const Method& m : ms) t.gap[m.label] = t.seconds[m.label] = t.beats[m.label] = t.worse[m.label] = 0;
    for (const auto& g : nn) {
        const Row row = runRow(ms, g);
        const double classic = bestClassicPeak(row, ms);
        for (const Method& m : ms) {
            const Outcome& o = row.at(m.label);
            t.gap[m.label] += 100.0 * (o.peak - classic) / classic / static_cast<double>(nn.size());
            t.seconds[m.label] += o.seconds / static_cast<double>(nn.size());
            t.beats[m.label] += o.peak < classic - 1e-9 * classic;
            t.worse[m.label] += o.peak > classic + 1e-9 * classic;
        }
        if (exactProvedOptimal(row)) ++t.exactProven;
        std::fprintf(stderr, ".");
    }
    std::fprintf(stderr, "\n");
    return t;
}

/// The models' side of the table: per method the models where it is above the best classic order,
/// and the models exact-memory proved optimal.
struct ModelTally {
    std::map<std::string, int> worse;
    int exactProven = 0;
};

ModelTally tallyModels(const std::vector<Row>& rows, const std::vector<Method>& ms) {
    ModelTally t;
    for (const Method& m : ms) t.worse[m.label] = 0;
    for (const Row& row : rows) {
        const double classic = bestClassicPeak(row, ms);
        for (const Method& m : ms) t.worse[m.label] += row.at(m.label).peak > classic + 1e-9 * classic;
        if (exactProvedOptimal(row)) ++t.exactProven;
    }
    return t;
}

/// The heading and one row per method: each model's peak MB and seconds, then the nn graphs' gap,
/// beats and seconds per graph.
void printTrainingRows(const std::string& ruleName, const std::vector<ModelColumn>& cols, const std::vector<Row>& modelRows,
                       std::size_t nnGraphs, const NnTally& nn, const std::vector<Method>& ms) {
    std::printf("\nTraining graphs, %s (forward, loss, gradient ops, %s updates; core/graph/traininggraph.h), "
                "single device, step-clock peak memory in MB (10^6 bytes) / seconds\n",
                ruleName.c_str(), ruleName.c_str());
    std::printf("%-22s", "method");
    for (const ModelColumn& c : cols) std::printf(" | %-19s", c.title.substr(0, 19).c_str());
    if (nnGraphs) std::printf(" | %-26s", ("nn (" + std::to_string(nnGraphs) + " graphs)").c_str());
    std::printf("\n%-22s", "");
    for (size_t i = 0; i < cols.size(); ++i) std::printf(" | %9s %9s", "MB", "s");
    if (nnGraphs) std::printf(" | %8s %7s %9s", "gap %", "beats", "s/graph");
    std::printf("\n");
    for (const Method& m : ms) {
        std::printf("%-22s", m.label.c_str());
        for (const Row& row : modelRows) {
            const Outcome& o = row.at(m.label);
            std::printf(" | %8.3f%s %7.3f s", o.peak / 1e6, m.name == "exact-memory" && !o.optimal ? "*" : " ",
                        o.seconds);
        }
        if (nnGraphs)
            std::printf(" | %+8.3f %3d/%-3d %9.4f", nn.gap.at(m.label), nn.beats.at(m.label), static_cast<int>(nnGraphs),
                        nn.seconds.at(m.label));
        std::printf("\n");
    }
}

/// Under the rows: the op counts, what the nn graphs are, exact-memory's proofs and where the
/// Topoformer rows are worse than the best classic order.
void printTrainingNotes(const TrainingSpec& spec, const std::vector<ModelColumn>& cols,
                        const std::vector<std::shared_ptr<Graph>>& nn, const NnTally& nnTally, const ModelTally& models,
                        const std::vector<Method>& ms) {
    std::printf("ops:                  ");
    for (const ModelColumn& c : cols) std::printf(" | %-19d", c.g->opCount());
    if (!nn.empty()) {
        int lo = nn.front()->opCount(), hi = lo;
        for (const auto& g : nn) lo = std::min(lo, g->opCount()), hi = std::max(hi, g->opCount());
        std::printf(" | %d-%d", lo, hi);
    }
    std::printf("\n");
    if (!nn.empty())
        std::printf("nn: held-out network-like graphs of %d-%d forward ops (seeds 7000000 + i, sizes evenly spread); "
                    "gap: mean %% above the best classic order; beats: graphs below every classic order\n",
                    spec.minNodes, spec.maxNodes);
    const bool exact = std::any_of(ms.begin(), ms.end(), [](const Method& m) { return m.name == "exact-memory"; });
    if (exact)
        std::printf(
            "exact-memory: %.0f s limit per graph, 2,000,000 op sets; proven optimal on %d/%zu models and %d/%zu nn "
            "graphs (* gave up: best order found, not proven optimal)\n",
            spec.exactTime, models.exactProven, cols.size(), nnTally.exactProven, nn.size());
    std::printf("worse than the best classic order on (models, nn graphs):\n ");
    for (const Method& m : ms)
        if (m.name == "topoformer")
            std::printf(" %s %d/%zu, %d/%zu;", m.label.c_str(), models.worse.at(m.label), cols.size(),
                        nnTally.worse.at(m.label), nn.size());
    std::printf("\n%s", kLegend);
}

/// The training-graph table of one update rule: per method and model, peak and seconds; per method
/// over the nn graphs, the gap to the best classic order, beats and worse counts.
void runTrainingTable(const TrainingSpec& spec, const std::vector<Method>& ms, UpdateRule rule) {
    const std::vector<ModelColumn> cols = modelTrainingGraphs(spec, rule);
    const std::vector<std::shared_ptr<Graph>> nn = nnTrainingGraphs(spec, rule);
    std::vector<Row> modelRows;
    for (const ModelColumn& c : cols) {
        modelRows.push_back(runRow(ms, c.g));
        std::fprintf(stderr, ".");
    }
    const NnTally nnTally = runNnGraphs(nn, ms);
    const ModelTally models = tallyModels(modelRows, ms);
    printTrainingRows(std::string(updateRuleName(rule)), cols, modelRows, nn.size(), nnTally, ms);
    printTrainingNotes(spec, cols, nn, nnTally, models, ms);
}

int runBenchTopoformer(Args& args) {
    const bool quick = args.takeFlag("quick");
    const std::string weights = args.take("weights", "");
    const int count = static_cast<int>(args.takeInt("graphs", quick ? 2 : 20));
    const double exactTime = args.takeDouble("exact-time", quick ? 1 : 10);
    const int exactMax = static_cast<int>(args.takeInt("exact-max-ops", 100));
    const std::vector<int> sizes = args.takeIntList("sizes", quick ? "20" : "40,100,500", 2);
    const fs::path data = args.take("data", defaultDataDir());
    const bool skipOnnx = args.take("onnx", quick ? "0" : "1") == "0";
    const bool training = args.take("training", "1") != "0";
    TrainingSpec spec;
    spec.generated = static_cast<int>(args.takeInt("training-graphs", quick ? 2 : 10));
    const std::string nodes = args.take("training-nodes", quick ? "20-30" : "20-120");
    const std::string rules = args.take("training-rules", quick ? "sgd" : "sgd,adam");
    const std::string example =
        args.take("example", (data / ".." / ".." / "resources" / "examples" / "resnet50.onnx").string());
    args.finish(2);
    if (count < 1 || exactTime < 0) throw UsageError("--graphs >= 1, --exact-time >= 0");
    if (std::sscanf(nodes.c_str(), "%d-%d", &spec.minNodes, &spec.maxNodes) != 2 || spec.minNodes < 8 ||
        spec.maxNodes < spec.minNodes || spec.generated < 0)
        throw UsageError("--training-nodes LO-HI with 8 <= LO <= HI, --training-graphs >= 0");
    for (std::size_t at = 0; at <= rules.size();) {
        const std::size_t comma = std::min(rules.find(',', at), rules.size());
        if (comma > at) {
            const auto rule = parseUpdateRule(rules.substr(at, comma - at));
            if (!rule) throw UsageError("--training-rules: sgd, adam or both, comma-separated");
            spec.rules.push_back(*rule);
        }
        at = comma + 1;
    }
    spec.exactTime = exactTime;
    // Warm-up: load the weights once (not timed per graph); a clear error if they are missing.
    {
        const auto g = generateLayered(10, 1).graph;
        runOne(methods(false, 0, weights)[0], g);
    }
    std::printf("Topoformer memory orders on held-out layered graphs (seeds 1000*N + i, i < %d; training and\n"
                "validation seeds are >= 5e11), single device, step-clock peak memory, %d graphs per set\n\n",
                count, count);
    std::vector<Column> cols;
    std::vector<Method> all = methods(true, exactTime, weights);
    for (int n : sizes) {
        std::vector<std::shared_ptr<Graph>> graphs;
        for (int i = 0; i < count; ++i)
            graphs.push_back(generateLayered(n, static_cast<std::uint64_t>(1000 * n + i)).graph);
        std::vector<Method> ms = methods(n <= exactMax, exactTime, weights);
        cols.push_back(runSet(std::to_string(n) + " ops", graphs, ms));
        if (n <= exactMax)
            std::fprintf(stderr, "%d ops: exact optimal on %d/%d graphs\n", n, cols.back().exactOptimal, count);
    }
    printColumns(cols, all);
    std::printf("%s", kLegend);
    if (!skipOnnx) runOnnxTable(data, all);
    if (training) {
        // The training graphs of the ONNX models (only with --onnx 1) and of the bundled example.
        if (!skipOnnx) spec.models = onnxModelFiles(data);
        if (!skipOnnx && !example.empty() && example != "0") {
            const auto same = std::find_if(spec.models.begin(), spec.models.end(), [&](const fs::path& f) {
                return fs::file_size(f) == fs::file_size(example) && fileBytes(f) == fileBytes(example);
            });
            if (!fs::exists(example))
                std::fprintf(stderr, "--example %s: not found, skipped\n", example.c_str());
            else if (same != spec.models.end())
                std::printf("\n%s is the same file as %s: one column\n",
                            fs::path(example).lexically_normal().string().c_str(), same->filename().string().c_str());
            else
                spec.models.push_back(example);
        }
        for (UpdateRule rule : spec.rules) runTrainingTable(spec, all, rule);
    }
    return 0;
}

SL_CLI_BENCH({"topoformer",
              "Topoformer memory orders vs classic orders, random-100 and exact (Table 1 shape)",
              "Usage: schedlab-cli bench topoformer [OPTIONS]\n"
              "Held-out layered graphs (seeds 1000*N + i), the ONNX models in DATA/onnx, and the training graphs\n"
              "(SGD, Adam) of those models, of the bundled resnet50.onnx and of held-out nn graphs.\n"
              "  --graphs N          graphs per size (default 20)\n"
              "  --weights FILE      Topoformer weights for its rows (default: the shipped file)\n"
              "  --sizes LIST        op counts (default 40,100,500)\n"
              "  --exact-time SEC    exact-memory time limit per graph (default 10)\n"
              "  --exact-max-ops N   run exact-memory up to this size (default 100)\n"
              "  --data DIR          test data folder (default: the source tree's tests/data)\n"
              "  --onnx 0            skip the real models (and their training graphs)\n"
              "  --training 0        skip the training-graph tables\n"
              "  --training-graphs N held-out nn graphs per update rule (default 10; seeds 7000000 + i)\n"
              "  --training-nodes LO-HI  their forward op counts, evenly spread (default 20-120)\n"
              "  --training-rules LIST   sgd, adam or sgd,adam (default sgd,adam)\n"
              "  --example FILE      another ONNX model for the training tables (default: resources/examples/\n"
              "                      resnet50.onnx of the source tree; 0 = none)\n"
              "  --quick             --graphs 2 --sizes 20 --exact-time 1 --onnx 0 --training-graphs 2\n"
              "                      --training-nodes 20-30 --training-rules sgd unless given\n"
              "Weights: --weights FILE (or SCHEDLAB_TOPOFORMER_WEIGHTS, SCHEDLAB_MODELS_DIR) overrides the shipped file.\n",
              {}, &runBenchTopoformer, /*needsNeuralMethods=*/true});

} // namespace
} // namespace bench_topoformer
} // namespace sl::cli
