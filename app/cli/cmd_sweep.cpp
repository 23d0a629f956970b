// SPDX-License-Identifier: MIT
// `schedlab-cli sweep GRAPH --sampler S`: the temperature sweep of core/sweep/sweep.h, as a table.
#include "command.h"
#include "neural.h"
#include "problemargs.h"

#include "core/sweep/sweep.h"
#include "core/sweep/sweepio.h"
#include "core/util/atomicfile.h"
#include "core/util/errors.h"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace sl::cli {
namespace {

/// --temperatures N (log-spaced in [--t-min, --t-max]) or an explicit list a,b,c.
std::vector<double> takeTemperatures(Args& args) {
    const std::string text = args.take("temperatures", "20");
    const double lo = args.takeDouble("t-min", 1e-3), hi = args.takeDouble("t-max", 1);
    if (!(lo > 0) || !(hi >= lo)) throw UsageError("--t-min and --t-max need 0 < t-min <= t-max");
    std::vector<double> list;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        std::size_t used = 0;
        double x = 0;
        try {
            x = std::stod(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != item.size() || !(x > 0)) throw UsageError("--temperatures expects a count or positive numbers a,b,c, not '" + text + "'");
        list.push_back(x);
    }
    const bool count = list.size() == 1 && text.find('.') == std::string::npos && text.find('e') == std::string::npos;
    if (!count) return list;
    if (list[0] > 10000) throw UsageError("--temperatures: at most 10000");
    return logSpacedTemperatures(static_cast<int>(list[0]), lo, hi);
}

void checkFolder(const std::string& path) {
    const auto folder = std::filesystem::path(path).parent_path();
    if (!folder.empty() && !std::filesystem::is_directory(folder)) throw IoError(path + ": the folder does not exist");
}

void printTable(const Sweep& s) {
    std::cout << "sweep of " << s.sampler << ": " << s.points.size() << " temperatures x " << s.options.samples
              << " samples, top " << s.options.topK << " kept; U = proxy speedup (x)\n";
    std::cout << std::right << std::setw(10) << "sigma" << std::setw(9) << "mean U" << std::setw(8) << "std" << std::setw(8)
              << "top-1" << std::setw(9) << "top-k" << std::setw(10) << "distinct" << std::setw(8) << "relab" << std::setw(7)
              << "GED" << std::setw(9) << "d_inv" << std::setw(9) << "d_sen";
    for (TargetModel m : s.options.targets) std::cout << std::setw(11) << toString(m);
    std::cout << "\n" << std::fixed;
    for (const SweepPoint& p : s.points) {
        std::cout << std::setw(10) << std::setprecision(4) << p.temperature << std::setprecision(3) << std::setw(9) << p.proxyMean
                  << std::setw(8) << p.proxyStd << std::setw(8) << p.proxyTop1 << std::setw(9) << p.proxyTopKMean << std::setw(10)
                  << p.distinct.exact << std::setw(8) << p.distinct.upToRelabelling << std::setprecision(1) << std::setw(7)
                  << p.topK.ged << std::setprecision(2) << std::setw(9) << p.topK.dInv << std::setw(9) << p.topK.dSen
                  << std::setprecision(3);
        for (const TargetOutcome& t : p.targets) std::cout << std::setw(11) << t.bestOfK;
        std::cout << "\n";
    }
    std::cout << std::defaultfloat;
    if (!s.options.targets.empty()) std::cout << "target columns: best-of-k target speedup (x)\n";
    if (s.cancelled) std::cout << "(stopped early)\n";
}

int runSweepCommand(Args& args) {
    const std::string samplerName = args.take("sampler", "list-gumbel");
    SweepOptions o;
    o.temperatures = takeTemperatures(args);
    o.samples = static_cast<int>(args.takeInt("samples", 1000));
    o.topK = static_cast<int>(args.takeInt("top-k", 100));
    const std::int64_t seed = args.takeInt("seed", 1);
    o.threads = args.takeThreads(1);
    if (o.samples < 1 || o.samples > 10'000'000) throw UsageError("--samples expects 1..10000000");
    if (o.topK < 1) throw UsageError("--top-k expects a whole number >= 1");
    if (seed < 0) throw UsageError("--seed expects a non-negative whole number");
    if (o.threads < 1 || o.threads > 256) throw UsageError("--threads expects 1..256");
    o.seed = static_cast<std::uint64_t>(seed);
    TargetArgs targets = takeTargets(args);
    o.targets = targets.models.empty() ? SweepOptions{}.targets : targets.models;
    std::erase(o.targets, TargetModel::Proxy);   // the proxy has its own columns
    o.targetSeed = targets.seed;
    const auto out = args.take("out");
    const auto csv = args.take("csv");
    LoadedProblem lp = takeProblem(args);
    args.finish(1);
    const SamplerRegistry& registry = SamplerRegistry::instance();
    if (!findSampler(samplerName))
        throw UsageError("sampler '" + samplerName + "' is not in this build (available: " + registry.names() + ")" +
                         neuralUnavailableNote());
    if (lp.problem.objective.kind != Objective::Makespan) throw UsageError("the sweep ranks by proxy speedup: use --objective makespan");
    for (const auto& path : {out, csv})
        if (path) checkFolder(*path);
    auto sampler = registry.create(samplerName);
    Sweep s = runSweep(lp.problem, samplerName, *sampler, o, {}, {});
    s.graphName = std::filesystem::path(args.positional(0, "graph file")).filename().string();
    printTable(s);
    OutputSet outputs;   // both files or neither
    if (out) outputs.add(*out, sweepToJson(s));
    if (csv) outputs.add(*csv, sweepToCsv(s));
    outputs.commit();
    for (const auto& path : {out, csv})
        if (path) std::cout << "wrote " << *path << "\n";
    return 0;
}

std::string sweepHelp() {
    loadNeuralMethods();
    std::string samplers;
    for (const SamplerInfo& i : SamplerRegistry::instance().list()) samplers += "                        " + i.name + ": " + i.summary + "\n";
    return "Usage: schedlab-cli sweep GRAPH [--sampler S] [--temperatures N|a,b,c] [--samples N] [--top-k K]\n"
           "         [--target all] [--out sweep.json] [--csv sweep.csv] [problem options]\n"
           "The temperature sweep (docs/sweep.md; Zhang et al. 2023, §3.3, App. E.2): at each temperature\n"
           "sigma, draw N schedules from the sampler on the proxy (free transfers), keep the top k by proxy\n"
           "speedup U, and print mean, std and top-1 of U, the top-k mean, distinct schedules (exact and\n"
           "up to device relabelling), GED / d_inv / d_sen over the top k and the best of k on each target.\n\n"
           "Options:\n"
           "  --sampler S           the temperature sampler (default list-gumbel); this build has:\n" +
           samplers +
           "  --temperatures N      N temperatures log-spaced in [--t-min, --t-max] (default 20), or a\n"
           "                        comma-separated list of temperatures\n"
           "  --t-min T, --t-max T  the range for a count (default 0.001 and 1)\n"
           "  --samples N           samples per temperature (default 1000)\n"
           "  --top-k K             candidates kept per temperature (default 100)\n"
           "  --seed S              temperature i samples with a seed derived from (S, i) (default 1)\n"
           "  --threads N           sampling threads; results do not depend on it (default 1)\n"
           "  --out FILE.json       save the sweep (the explorer opens it: File > Open Sweep)\n"
           "  --csv FILE.csv        one row per temperature\n" +
           std::string(targetOptionsHelp()) + "                        (default: all three targets)\n" + problemOptionsHelp();
}

SL_CLI_COMMAND({"sweep", "sample schedules across temperatures: quality and diversity per sigma", &sweepHelp, {}, &runSweepCommand});

} // namespace
} // namespace sl::cli
