// SPDX-License-Identifier: MIT
// `schedlab-cli tune`: grid search of BRKGA hyper-parameters over a set of graphs (the papers'
// "Tuned BRKGA", Paliwal et al. 2020, §4.2), scored by the mean % improvement over BRKGA 5K
// defaults.
#include "brkga_fixtures.h"
#include "command.h"
#include "problemargs.h"

#include "core/generators/generators.h"
#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace sl::cli {
namespace {

struct Setting {
    double rho = 0.7, alpha = 1, beta = 1;
    int population = 100;
    double eliteFraction = 0.1, mutantFraction = 0.1;
    int populations = 1;

    RunOptions options() const {
        RunOptions o;
        o.values = {{"rho", rho},
                    {"alpha", alpha},
                    {"beta", beta},
                    {"population", population},
                    {"elites", std::max(1.0, std::round(eliteFraction * population))},
                    {"mutants", std::round(mutantFraction * population)},
                    {"populations", populations}};
        return o;
    }
    std::string label() const {
        char buf[160];
        std::snprintf(buf, sizeof buf, "rho %.1f  Beta(%.1f,%.1f)  pop %3d  elite %.1f  mutant %.1f  K %d", rho, alpha,
                      beta, population, eliteFraction, mutantFraction, populations);
        return buf;
    }
};

/// full: as many settings as REGAL's grid (Paliwal et al. 2020, §4.2), 3^4 x 2^3 = 648, the values
/// ours (docs/brkga.md). quick: 24 settings around the defaults.
std::vector<Setting> grid(const std::string& name) {
    std::vector<Setting> out;
    if (name == "full") {
        for (double rho : {0.6, 0.7, 0.8})
            for (double a : {0.5, 1.0, 2.0})
                for (double b : {0.5, 1.0, 2.0})
                    for (int pop : {50, 100, 200})
                        for (double ef : {0.1, 0.2})
                            for (double mf : {0.1, 0.2})
                                for (int k : {1, 2}) out.push_back({rho, a, b, pop, ef, mf, k});
    } else if (name == "quick") {
        for (double rho : {0.6, 0.7, 0.8})
            for (int pop : {50, 100})
                for (double ef : {0.1, 0.2})
                    for (int k : {1, 2}) out.push_back({rho, 1, 1, pop, ef, 0.1, k});
    } else {
        throw UsageError("unknown grid '" + name + "' (quick or full)");
    }
    return out;
}

struct Instance {
    std::string name;
    Problem problem;
};

std::vector<Instance> instances(Args& args, int devices, Objective objective) {
    std::vector<Instance> out;
    const std::optional<UpdateRule> training = takeTraining(args);
    auto add = [&](std::string name, std::shared_ptr<const Graph> g, std::optional<Platform> platform) {
        Instance in{std::move(name), {}};
        if (training) g = std::make_shared<Graph>(makeTrainingGraph(*g, {.rule = *training}));
        in.problem.graph = std::move(g);
        in.problem.platform = devices > 0 || !platform ? Platform::identical(std::max(devices, 1)) : *platform;
        in.problem.objective.kind = objective;
        in.problem.check();
        out.push_back(std::move(in));
    };
    for (std::size_t i = 0; i < args.positionalCount(); ++i) {
        // STG and job-shop fixtures; other formats once core/io's loaders are in the build.
        const std::string path = args.positional(i, "graph");
        if (path.ends_with(".stg")) {
            add(path, readStg(path), std::nullopt);
        } else if (path.ends_with(".txt") || path.ends_with(".jss")) {
            JobShop js = readJobShop(path);
            add(path, js.graph, js.platform);
        } else {
            throw UsageError(path + ": tune reads .stg and job-shop .txt files (or --generate)");
        }
    }
    // --generate FAMILY:NODES:COUNT (seeds 1..COUNT); the default set when no file is given.
    std::string gen = args.take("generate", args.positionalCount() ? "" : "layered:100:4");
    if (!gen.empty()) {
        std::stringstream ss(gen);
        std::string family, nodes, count;
        if (!std::getline(ss, family, ':') || !std::getline(ss, nodes, ':') || !std::getline(ss, count))
            throw UsageError("--generate expects FAMILY:NODES:COUNT, e.g. layered:100:4");
        for (int s = 1; s <= std::stoi(count); ++s) {
            GeneratedInstance g = generateInstance(family, std::stoi(nodes), static_cast<std::uint64_t>(s));
            add(family + "-" + nodes + "#" + std::to_string(s), g.graph, g.platform);
        }
    }
    return out;
}

int runTune(Args& args) {
    const std::string method = args.take("method", "brkga");
    const std::string gridName = args.take("grid", "quick");
    const std::int64_t budget = args.takeInt("budget", 5000);
    const int threads = args.takeThreads(2);
    const int repeats = static_cast<int>(std::max<std::int64_t>(1, args.takeInt("repeats", 1)));
    const auto seed = static_cast<std::uint64_t>(args.takeInt("seed", 1));
    const std::size_t top = static_cast<std::size_t>(std::max<std::int64_t>(1, args.takeInt("top", 10)));
    const int devices = static_cast<int>(args.takeInt("devices", 2));
    const Objective objective = objectiveFromString(args.take("objective", "memory"));
    const std::string placement = args.take("placement", "auto");   // brkga's decoder, for every setting
    if (method != "brkga" && method != "brkga-order") throw UsageError("--method must be brkga or brkga-order");
    std::vector<Instance> set = instances(args, devices, objective);
    args.finish(args.positionalCount());
    const std::vector<Setting> settings = grid(gridName);

    auto score = [&](const Setting& s, const Instance& in, int rep) {
        RunOptions o = s.options();
        o.budget = budget;
        o.threads = threads;
        o.seed = seed + static_cast<std::uint64_t>(rep);
        if (method == "brkga") o.strings["placement"] = placement;
        return OptimizerRegistry::instance().create(method)->run(in.problem, o, {}, {}).cost;
    };
    std::printf("Tuning %s: %zu settings (grid '%s') x %zu graphs x %d seeds, %lld evaluations each, objective %s\n",
                method.c_str(), settings.size(), gridName.c_str(), set.size(), repeats,
                static_cast<long long>(budget), toString(objective).c_str());
    const auto t0 = std::chrono::steady_clock::now();
    // Reference: BRKGA with the papers' defaults and the same budget and seeds ("BRKGA 5K").
    std::vector<double> base;
    for (const Instance& in : set)
        for (int r = 0; r < repeats; ++r) base.push_back(score(Setting{}, in, r));

    struct Row {
        Setting setting;
        double improvement = 0;   ///< mean % improvement over the reference
        int wins = 0, losses = 0;
    };
    std::vector<Row> rows;
    for (const Setting& s : settings) {
        Row row{s};
        std::size_t i = 0;
        for (const Instance& in : set)
            for (int r = 0; r < repeats; ++r, ++i) {
                const double c = score(s, in, r);
                row.improvement += 100 * (base[i] - c) / base[i];
                row.wins += c < base[i];
                row.losses += c > base[i];
            }
        row.improvement /= static_cast<double>(base.size());
        rows.push_back(row);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.improvement > b.improvement; });
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::printf("\n%4s  %-62s %12s %6s %6s\n", "rank", "setting", "improv. %", "wins", "losses");
    for (std::size_t r = 0; r < rows.size() && r < top; ++r)
        std::printf("%4zu  %-62s %12.3f %6d %6d\n", r + 1, rows[r].setting.label().c_str(), rows[r].improvement,
                    rows[r].wins, rows[r].losses);
    std::printf("%4s  %-62s %12.3f %6s %6s\n", "ref", (Setting{}.label() + " (reference)").c_str(), 0.0, "-", "-");
    std::printf("\nimprovement = mean over graphs and seeds of 100 (reference - cost) / reference; %.1f s in all\n", secs);
    std::printf("best setting as options: --rho %.1f --alpha %.1f --beta %.1f --population %d --elites %.0f --mutants %.0f "
                "--populations %d\n",
                rows[0].setting.rho, rows[0].setting.alpha, rows[0].setting.beta, rows[0].setting.population,
                rows[0].setting.options().values["elites"], rows[0].setting.options().values["mutants"],
                rows[0].setting.populations);
    return 0;
}

SL_CLI_COMMAND(
    {"tune",
     "grid-search BRKGA hyper-parameters over a set of graphs (Tuned BRKGA)",
     "Usage: schedlab-cli tune [GRAPH.stg|JOBSHOP.txt...] [--generate FAMILY:NODES:COUNT] [--method brkga|brkga-order]\n"
     "         [--grid quick|full] [--budget 5000] [--objective memory|makespan|both] [--devices 2]\n"
     "         [--threads 2] [--seed 1] [--repeats 1] [--top 10] [--training sgd|adam]\n"
     "         [--placement auto|affinity|balanced]\n"
     "Runs every setting of the grid on every graph (files, or generated: default layered:100:4)\n"
     "and ranks the settings by their mean % improvement over BRKGA with the papers' defaults\n"
     "(population 100, 10 elites, 10 mutants, rho 0.7, uniform keys) at the same budget and seeds.\n"
     "Grids: quick = rho {0.6,0.7,0.8} x population {50,100} x elite fraction {0.1,0.2} x\n"
     "populations {1,2} (24 settings); full = as many as REGAL's grid (Paliwal et al. 2020, §4.2;\n"
     "the values are ours, docs/brkga.md): rho {0.6,0.7,0.8} x Beta alpha {0.5,1,2} x beta\n"
     "{0.5,1,2} x population {50,100,200} x elite fraction {0.1,0.2} x mutant fraction {0.1,0.2}\n"
     "x populations {1,2} (648 settings). --devices 0 keeps a file's own platform.\n"
     "--training sgd|adam tunes on the graphs' training steps (docs/training-graphs.md).\n"
     "--placement: brkga's decoder for every setting and the reference (docs/brkga.md).\n",
     {},
     &runTune});

} // namespace
} // namespace sl::cli
