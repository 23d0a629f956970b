// SPDX-License-Identifier: MIT
// `schedlab-cli bench topoformer`: the Topoformer memory orders against the classic memory orders,
// random best-of-100 and the exact DP, in the shape of the paper's Table 1 (spec/topoformer.md §7).
#include "bench.h"
#include "command.h"

#include "core/generators/generators.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

namespace sl::cli {
namespace {

namespace fs = std::filesystem;

struct Method {
    std::string label;
    std::string name;
    RunOptions options;
};

std::vector<Method> methods(bool withExact, double exactTime) {
    std::vector<Method> m;
    auto add = [&](std::string label, std::string name, std::map<std::string, double> values,
                   std::map<std::string, std::string> strings = {}) {
        RunOptions o;
        o.seed = 1;
        o.values = std::move(values);
        o.strings = std::move(strings);
        m.push_back({std::move(label), std::move(name), o});
    };
    add("topoformer greedy", "topoformer", {{"greedy", 1}});
    add("topoformer sample-16", "topoformer", {{"samples", 16}});
    add("topoformer beam-16", "topoformer", {{"beam", 16}});
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
    std::vector<std::map<std::string, Outcome>> results;
    for (const auto& g : graphs) {
        std::map<std::string, Outcome> row;
        for (const Method& m : ms) row[m.label] = runOne(m, g);
        results.push_back(std::move(row));
        std::fprintf(stderr, ".");
    }
    std::fprintf(stderr, "\n");
    bool exactAll = !graphs.empty();
    for (const auto& row : results) {
        auto it = row.find("exact-memory");
        if (it == row.end() || !it->second.optimal) exactAll = false;
        else ++col.exactOptimal;
    }
    col.reference = exactAll ? "exact optimum" : "best classic order";
    for (const auto& row : results) {
        double classic = kInfinity;
        for (const Method& m : ms)
            if (isClassic(m.name)) classic = std::min(classic, row.at(m.label).peak);
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

int runBenchTopoformer(Args& args) {
    const bool quick = args.takeFlag("quick");
    const int count = static_cast<int>(args.takeInt("graphs", quick ? 2 : 20));
    const double exactTime = args.takeDouble("exact-time", quick ? 1 : 10);
    const int exactMax = static_cast<int>(args.takeInt("exact-max-ops", 100));
    const std::vector<int> sizes = args.takeIntList("sizes", quick ? "20" : "40,100,500", 2);
    const fs::path data = args.take("data", defaultDataDir());
    const bool skipOnnx = args.take("onnx", quick ? "0" : "1") == "0";
    args.finish(2);
    if (count < 1 || exactTime < 0) throw UsageError("--graphs >= 1, --exact-time >= 0");
    // Warm-up: load the weights once (not timed per graph); a clear error if they are missing.
    {
        const auto g = generateLayered(10, 1).graph;
        runOne(methods(false, 0)[0], g);
    }
    std::printf("Topoformer memory orders on held-out layered graphs (seeds 1000*N + i, i < %d; training and\n"
                "validation seeds are >= 5e11), single device, step-clock peak memory, %d graphs per set\n\n",
                count, count);
    std::vector<Column> cols;
    std::vector<Method> all = methods(true, exactTime);
    for (int n : sizes) {
        std::vector<std::shared_ptr<Graph>> graphs;
        for (int i = 0; i < count; ++i)
            graphs.push_back(generateLayered(n, static_cast<std::uint64_t>(1000 * n + i)).graph);
        std::vector<Method> ms = methods(n <= exactMax, exactTime);
        cols.push_back(runSet(std::to_string(n) + " ops", graphs, ms));
        if (n <= exactMax)
            std::fprintf(stderr, "%d ops: exact optimal on %d/%d graphs\n", n, cols.back().exactOptimal, count);
    }
    printColumns(cols, all);
    if (skipOnnx) return 0;
    std::vector<fs::path> files;
    if (fs::exists(data / "onnx"))
        for (const auto& e : fs::directory_iterator(data / "onnx"))
            if (e.path().extension() == ".onnx") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::printf("\nno ONNX models under %s\n", (data / "onnx").string().c_str());
        return 0;
    }
    std::printf("\nReal models (%s): peak memory in MB (10^6 bytes) / seconds\n", (data / "onnx").string().c_str());
    std::printf("%-22s", "method");
    for (const auto& f : files) std::printf(" | %-24s", f.stem().string().c_str());
    std::printf("\n");
    std::vector<std::map<std::string, Outcome>> rows;
    std::vector<std::shared_ptr<Graph>> graphs;
    for (const auto& f : files) {
        const auto g = loadGraph(f.string()).graph;
        graphs.push_back(g);
        std::map<std::string, Outcome> row;
        for (const Method& m : all) row[m.label] = runOne(m, g);
        rows.push_back(std::move(row));
    }
    for (const Method& m : all) {
        std::printf("%-22s", m.label.c_str());
        for (const auto& row : rows) {
            const Outcome& o = row.at(m.label);
            std::printf(" | %10.3f%s %9.4f s", o.peak / 1e6, m.name == "exact-memory" && !o.optimal ? "*" : " ", o.seconds);
        }
        std::printf("\n");
    }
    std::printf("ops:                  ");
    for (const auto& g : graphs) std::printf(" | %-24d", g->opCount());
    std::printf("\n(* exact-memory gave up: best order found, not proven optimal)\n");
    return 0;
}

SL_CLI_BENCH({"topoformer", "Topoformer memory orders vs classic orders, random-100 and exact (Table 1 shape)",
              "Usage: schedlab-cli bench topoformer [OPTIONS]\n"
              "Held-out layered graphs (seeds 1000*N + i) and the ONNX models in DATA/onnx.\n"
              "  --graphs N          graphs per size (default 20)\n"
              "  --sizes LIST        op counts (default 40,100,500)\n"
              "  --exact-time SEC    exact-memory time limit per graph (default 10)\n"
              "  --exact-max-ops N   run exact-memory up to this size (default 100)\n"
              "  --data DIR          test data folder (default: the source tree's tests/data)\n"
              "  --onnx 0            skip the real models\n"
              "  --quick             --graphs 2 --sizes 20 --exact-time 1 --onnx 0 unless given\n"
              "Weights: SCHEDLAB_TOPOFORMER_WEIGHTS or SCHEDLAB_MODELS_DIR override the shipped file.\n",
              {}, &runBenchTopoformer});

} // namespace
} // namespace sl::cli
