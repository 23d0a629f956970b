// SPDX-License-Identifier: MIT
// `schedlab-cli bench priority-sampler`: the paper's tables (Jeon et al. 2023, Tabs. 3/5/7) on our
// held-out generated sets: Greedy / S(16) / S(64) / S(256) against list-cp, list-mopnr, list-spt.
#include "bench.h"
#include "shard.h"

#include "core/optimizer/optimizer.h"
#include "models/prioritysampler/datasets.h"
#include "models/prioritysampler/optimizer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

namespace sl::cli {
namespace bench_prioritysampler {
namespace {

struct Row {
    std::string label;
    std::string method;
    RunOptions options;
};

struct Cell {
    double metric = 0;    ///< summed speedup (layered) or makespan (job-shop)
    double seconds = 0;   ///< summed wall seconds
    double maxSeconds = 0;
    int count = 0;
};

std::vector<Row> rows(int threads, std::uint64_t seed, const std::string& weights, bool random, double temperature) {
    auto neural = [&](const std::string& label, int samples, bool greedy) {
        Row r{label, "priority-sampler", {}};
        r.options.seed = seed;
        r.options.threads = threads;
        r.options.values["samples"] = samples;
        r.options.values["greedy"] = greedy;
        r.options.values["temperature"] = temperature;
        if (!weights.empty()) r.options.strings["weights"] = weights;
        return r;
    };
    std::vector<Row> out{{"CP", "list-cp", {}}, {"SPT", "list-spt", {}}, {"MOPNR", "list-mopnr", {}}};
    if (random) {
        Row r{"Random S(256) [extra]", "random-search", {}};
        r.options.seed = seed;
        r.options.threads = threads;
        r.options.budget = 256;
        r.options.strings["space"] = "priorities";
        out.push_back(r);
    }
    out.push_back(neural("Greedy (ours)", 1, true));
    for (int k : {16, 64, 256}) out.push_back(neural("S(" + std::to_string(k) + ") (ours)", k, false));
    return out;
}

/// Runs every row on `count` bench graphs of `spec`; metric = speedup (sum of durations / makespan)
/// or makespan.
std::vector<Cell> runSet(const ps::TaskSpec& spec, ps::Split split, int count, const std::vector<Row>& table, bool speedup) {
    std::vector<Cell> cells(table.size());
    for (int i = 0; i < count; ++i) {
        const Problem p = ps::makespanProblem(ps::taskInstance(spec, split, i));
        for (size_t r = 0; r < table.size(); ++r) {
            const std::vector<double> item = shardItem(2, [&] {   // one item of a distributed run
                const auto t0 = std::chrono::steady_clock::now();
                const RunResult res = OptimizerRegistry::instance().create(table[r].method)->run(p, table[r].options, {}, {});
                return std::vector<double>{res.schedule.makespan,
                                           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
            });
            const double s = item[1];
            cells[r].metric += speedup ? p.g().totalWork() / item[0] : item[0];
            cells[r].seconds += s;
            cells[r].maxSeconds = std::max(cells[r].maxSeconds, s);
            ++cells[r].count;
        }
    }
    return cells;
}

void printTable(const std::string& title, const std::vector<std::string>& columns, const std::vector<Row>& table,
                const std::vector<std::vector<Cell>>& sets, const char* metricName, bool higherIsBetter) {
    std::printf("%s\n\n| %-22s |", title.c_str(), "");
    for (const std::string& c : columns) std::printf(" %s %s | Time |", c.c_str(), metricName);
    std::printf("\n|%s|", std::string(24, '-').c_str());
    for (size_t c = 0; c < columns.size(); ++c) std::printf("---|---|");
    std::printf("\n");
    for (size_t r = 0; r < table.size(); ++r) {
        std::printf("| %-22s |", table[r].label.c_str());
        for (const auto& cells : sets) {
            const Cell& x = cells[r];
            std::printf(" %.3f | %.3f |", x.metric / std::max(x.count, 1), x.seconds / std::max(x.count, 1));
        }
        std::printf("\n");
    }
    // Gains against the best heuristic (the first three rows), per set.
    std::printf("\nGain over the best of CP / SPT / MOPNR (positive = ours better):\n");
    for (size_t r = 3; r < table.size(); ++r) {
        std::printf("  %-22s", table[r].label.c_str());
        for (size_t s = 0; s < sets.size(); ++s) {
            double best = sets[s][0].metric;
            for (size_t h = 1; h < 3; ++h) best = higherIsBetter ? std::max(best, sets[s][h].metric) : std::min(best, sets[s][h].metric);
            const double ours = sets[s][r].metric;
            const double gain = higherIsBetter ? (ours - best) / best : (best - ours) / best;
            std::printf("  %s %+6.2f%%", columns[s].c_str(), 100 * gain);
        }
        std::printf("\n");
    }
    std::printf("\n");
}

int runPrioritySamplerBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    const int graphs = static_cast<int>(args.takeInt("graphs", quick ? 2 : 20));
    const int jobshops = static_cast<int>(args.takeInt("jobshops", quick ? 2 : 50));
    const int threads = args.takeThreads(2);
    const auto seed = static_cast<std::uint64_t>(args.takeInt("seed", 1));
    const std::vector<int> sizes = args.takeIntList("sizes", quick ? "50" : "200,500,1000", 2);
    const std::string only = args.take("only", "all");
    const std::string weightsLayered = args.take("weights-layered", "");
    const std::string weightsJobshop = args.take("weights-jobshop", "");
    const bool random = args.take("random", "1") != "0";
    const double temperature = args.takeDouble("temperature", 1.0);
    const std::string splitName = args.take("split", "bench");
    if (splitName != "bench" && splitName != "validation") throw UsageError("--split bench|validation");
    const ps::Split split = splitName == "bench" ? ps::Split::Bench : ps::Split::Validation;
    args.finish(1);
    if (only != "all" && only != "layered" && only != "jobshop") throw UsageError("--only all|layered|jobshop");
    auto check = [](const std::string& given, const char* task) {
        const std::string w = given.empty() ? ps::shippedWeights(task) : given;
        if (!std::filesystem::exists(w)) throw InputError(w + ": no such weight file");
    };
    if (only != "jobshop") check(weightsLayered, "layered-typed");
    if (only != "layered") check(weightsJobshop, "jobshop");

    if (split == ps::Split::Validation)
        std::printf("VALIDATION graphs (seeds 2000000+i): for choosing between checkpoints, not for reporting.\n");
    std::printf("Priority sampler benchmark: held-out generated graphs (seeds 3000000+i, never used in training),\n"
                "mean over the graphs; Time = wall seconds per graph (features, encoder and list scheduling\n"
                "included), %d thread(s), sampling seed %llu.\n\n", threads, static_cast<unsigned long long>(seed));
    if (only != "jobshop") {
        const std::vector<Row> table = rows(threads, seed, weightsLayered, random, temperature);
        std::vector<std::vector<Cell>> sets;
        std::vector<std::string> columns;
        for (int n : sizes) {
            ps::TaskSpec spec;
            spec.task = "layered-typed";
            spec.minNodes = spec.maxNodes = n;
            sets.push_back(runSet(spec, split, graphs, table, true));
            columns.push_back(std::to_string(n));
        }
        printTable("Layered-typed computation graphs (machine types 0/1/2, capacities 1/1/4), " + std::to_string(graphs) +
                       " graphs per size; SpeedUp = sum of durations / makespan (higher is better)",
                   columns, table, sets, "SpeedUp", true);
        // The 1,000-op speed target.
        for (size_t s = 0; s < sizes.size(); ++s)
            std::printf("S(256) at %d ops: mean %.3f s, max %.3f s per graph\n", sizes[s],
                        sets[s].back().seconds / std::max(sets[s].back().count, 1), sets[s].back().maxSeconds);
        std::printf("\n");
    }
    if (only != "layered") {
        const std::vector<Row> table = rows(threads, seed, weightsJobshop, random, temperature);
        ps::TaskSpec spec;
        spec.task = "jobshop";
        const std::vector<std::vector<Cell>> sets{runSet(spec, split, jobshops, table, false)};
        printTable("Random 25x10 job-shop instances (Taillard-style durations 1..99), " + std::to_string(jobshops) +
                       " instances; makespan (lower is better)",
                   {"(25,10)"}, table, sets, "Makespan", false);
    }
    return 0;
}

SL_CLI_BENCH({"priority-sampler", "neural priority sampler (Greedy, S(16/64/256)) vs list-cp/mopnr/spt, paper-shaped",
              "Usage: schedlab-cli bench priority-sampler [--only all|layered|jobshop] [--graphs 20]\n"
              "         [--sizes 200,500,1000] [--jobshops 50] [--threads 2] [--seed 1] [--random 1]\n"
              "         [--weights-layered FILE] [--weights-jobshop FILE] [--temperature 1] [--split bench] [--quick]\n"
              "Tables in the shape of Jeon et al. (ICLR 2023) Tabs. 3/7 (SpeedUp on layered-typed graphs per\n"
              "size) and Tab. 5 (makespan on 25x10 job-shops) on held-out generated sets (seeds 3000000+i),\n"
              "with the gain of each mode over the best of CP / SPT / MOPNR and the S(256) seconds per graph.\n"
              "Weights default to the shipped models in models/weights. '--random 0' drops the extra\n"
              "random-priority best-of-256 row. '--split validation' runs on validation seeds (2000000+i) to\n"
              "choose between checkpoints without looking at the benchmark graphs.\n"
              "--quick: --graphs 2 --sizes 50 --jobshops 2 unless given.\n",
              {}, &runPrioritySamplerBench, /*needsNeuralMethods=*/true, /*shardable=*/true});

} // namespace
} // namespace bench_prioritysampler
} // namespace sl::cli
