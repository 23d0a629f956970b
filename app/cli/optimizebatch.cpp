// SPDX-License-Identifier: MIT
#include "optimizebatch.h"

#include "distargs.h"
#include "interrupt.h"
#include "problemargs.h"

#include "core/costmodel/validator.h"
#include "core/dist/communicator.h"
#include "core/io/scheduleio.h"
#include "core/util/atomicfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>

namespace sl::cli {

namespace {

namespace fs = std::filesystem;

/// The graph files a folder holds, by extension (.json .dot .gv .stg .onnx .hlo .jss .txt), sorted
/// by name; our own outputs (schedules, model cards, checkpoints) are not graphs.
std::vector<std::string> graphsIn(const fs::path& folder) {
    static const std::set<std::string> extensions{".json", ".dot", ".gv", ".stg", ".onnx", ".hlo", ".jss", ".txt"};
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(folder)) {
        if (!e.is_regular_file() || !extensions.contains(e.path().extension().string())) continue;
        const std::string name = e.path().filename().string();
        if (name.ends_with(".schedule.json") || name.ends_with(".card.json") || name.find(".ckpt.") != std::string::npos) continue;
        files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::string> expandInputs(const Args& args) {
    std::vector<std::string> files;
    for (std::size_t i = 0; i < args.positionalCount(); ++i) {
        const std::string p = args.positional(i, "graph");
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            const std::vector<std::string> inside = graphsIn(p);
            if (inside.empty()) throw InputError(p + ": no graph files in this folder");
            files.insert(files.end(), inside.begin(), inside.end());
        } else {
            files.push_back(p);
        }
    }
    return files;
}

/// "resnet50.onnx" -> "resnet50.onnx.schedule.json" (unique for distinct file names).
std::string scheduleName(const std::string& file) { return fs::path(file).filename().string() + ".schedule.json"; }

/// One graph's row: what the table prints, and its schedule for --out-dir.
nlohmann::json runOne(const std::string& file, const ProblemSpec& spec, const BatchRun& run, bool wantSchedule) {
    nlohmann::json row{{"graph", file}};
    try {
        const LoadedProblem lp = loadProblem(file, spec);
        const Problem& p = lp.problem;
        row["ops"] = p.g().opCount();
        row["devices"] = p.platform.deviceCount();
        const auto t0 = std::chrono::steady_clock::now();
        const RunResult r = OptimizerRegistry::instance().create(run.method)->run(p, run.options, {}, {});
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        requireValidResult(p, r.schedule, run.method);
        row["cost"] = r.cost;
        row["makespan"] = r.schedule.makespan;
        row["peak"] = r.schedule.stepMemory.peak;
        row["evaluations"] = r.evaluations;
        row["seconds"] = seconds;
        if (wantSchedule) row["schedule"] = scheduleToJson(p, r.schedule);
    } catch (const std::exception& e) {
        row["error"] = e.what();
    }
    return row;
}

void printTable(const std::vector<nlohmann::json>& rows, const BatchRun& run, int ranks) {
    std::printf("%s on %zu graph(s)%s, seed %llu%s\n", run.method.c_str(), rows.size(),
                ranks > 1 ? (" over " + std::to_string(ranks) + " ranks").c_str() : "",
                static_cast<unsigned long long>(run.options.seed),
                run.options.budget > 0 ? (", " + std::to_string(run.options.budget) + " evaluations").c_str() : "");
    std::printf("%-40s %6s %7s %14s %14s %16s %11s %9s\n", "graph", "ops", "devices", "cost", "makespan", "peak (bytes)",
                "evaluations", "seconds");
    for (const nlohmann::json& r : rows) {
        const std::string name = fs::path(r["graph"].get<std::string>()).filename().string();
        if (r.contains("error")) {
            std::printf("%-40s error: %s\n", name.c_str(), r["error"].get<std::string>().c_str());
            continue;
        }
        std::printf("%-40s %6d %7d %14.6g %14.6g %16.0f %11lld %9.3f\n", name.c_str(), r["ops"].get<int>(), r["devices"].get<int>(),
                    r["cost"].get<double>(), r["makespan"].get<double>(), r["peak"].get<double>(),
                    static_cast<long long>(r["evaluations"].get<std::int64_t>()), r["seconds"].get<double>());
    }
}

} // namespace

bool isBatch(const Args& args, bool hasOutDir) {
    std::error_code ec;
    return hasOutDir || args.positionalCount() > 1 ||
           (args.positionalCount() == 1 && fs::is_directory(args.positional(0, "graph"), ec));
}

int runOptimizeBatch(Args& args, const BatchRun& run) {
    const dist::DistOptions d = takeDistOptions(args);
    const ProblemSpec spec = takeProblemSpec(args);
    args.finish(static_cast<std::size_t>(-1));
    const std::vector<std::string> files = expandInputs(args);
    if (files.empty()) throw UsageError("missing graph files");
    if (run.outDir) {
        std::error_code ec;
        if (!fs::is_directory(*run.outDir, ec)) throw InputError(*run.outDir + ": --out-dir is not an existing folder");
    }
    quietUnlessRoot(d);   // only rank 0's table reaches stdout
    // Ctrl-C or SIGTERM ends this rank at once, in the rendezvous or between items, and its
    // peers are told (the work takes no stop token, so no step to finish first).
    std::optional<InterruptStop> interrupt;
    if (d.distributed()) interrupt.emplace(std::initializer_list<int>{SIGINT, SIGTERM}, /*polled=*/false);
    const std::unique_ptr<dist::Communicator> comm = dist::connect(d);

    // This rank's graphs, then everyone's rows at every rank (rank 0 prints and writes).
    nlohmann::json mine = nlohmann::json::array();
    for (std::size_t i = 0; i < files.size(); ++i)
        if (dist::ownsItem(d, i)) mine.push_back({{"index", i}, {"row", runOne(files[i], spec, run, run.outDir.has_value())}});
    std::vector<nlohmann::json> rows(files.size());
    for (const std::string& bytes : comm->allGather(mine.dump()))
        for (const nlohmann::json& item : nlohmann::json::parse(bytes)) rows.at(item["index"].get<std::size_t>()) = item["row"];
    if (!comm->isRoot()) {
        reportShare(d, "optimised " + std::to_string(mine.size()) + " of " + std::to_string(files.size()) + " graphs");
        return 0;
    }
    if (run.outDir) {
        OutputSet outputs;
        for (const nlohmann::json& r : rows)
            if (r.contains("schedule"))
                outputs.add((fs::path(*run.outDir) / scheduleName(r["graph"].get<std::string>())).string(), r["schedule"].get<std::string>());
        outputs.commit();
    }
    printTable(rows, run, d.worldSize);
    const auto failed = std::count_if(rows.begin(), rows.end(), [](const nlohmann::json& r) { return r.contains("error"); });
    if (failed > 0) std::fprintf(stderr, "schedlab-cli optimize: %lld of %zu graphs failed (their rows say why)\n",
                                 static_cast<long long>(failed), rows.size());
    return failed > 0 ? 1 : 0;
}

const char* batchOptionsHelp() {
    return "\nBatch: several graphs or folders (every graph file inside, by name), or --out-dir:\n"
           "  schedlab-cli optimize A.json B.onnx FOLDER/ --method M [--out-dir DIR] [problem options]\n"
           "  prints one row per graph (ops, devices, cost, makespan, peak, evaluations, seconds; a graph\n"
           "  that fails gets its error in its row and the exit code is 1); --out-dir writes\n"
           "  DIR/<file>.schedule.json for each (all or none). With the distributed flags the graphs\n"
           "  are split over the ranks and rank 0 prints the table and writes the files:\n";
}

} // namespace sl::cli
