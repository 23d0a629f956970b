// SPDX-License-Identifier: MIT
// `schedlab-cli profile MODEL.onnx`: every op of an ONNX model measured on this CPU with LibTorch,
// written as a profile file (core/profile/profile.h). The measuring needs LibTorch and lives in the
// neural module (models/timing/modelprofiler.h); this command checks the model with SchedLab's own
// reader (so that a bad file is refused in its words, and the op names are the graph's), dispatches
// and writes.
#include "command.h"
#include "interrupt.h"
#include "neural.h"

#include "core/graph/fingerprint.h"
#include "core/io/graphio.h"
#include "core/profile/profile.h"
#include "models/timing/tools.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace sl::cli {
namespace {

/// The positionals without `-o FILE`, which Args takes for two positionals; `out` gets FILE.
std::vector<std::string> profilePositionals(const Args& args, std::optional<std::string>& out) {
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.positionalCount(); ++i) {
        const std::string p = args.positional(i, "");
        if (p != "-o") {
            rest.push_back(p);
            continue;
        }
        if (i + 1 >= args.positionalCount()) throw UsageError("-o expects a file name");
        out = args.positional(++i, "");
    }
    return rest;
}

std::string profileTimestamp() {
    const std::time_t t = std::time(nullptr);
    std::tm local{};
    localtime_r(&t, &local);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &local);
    return buffer;
}

/// The module names ops by core's reading of the model (core/io/onnxmodel.h), so its names are
/// the graph's; this checks that every op was measured or listed as unmeasured, and no other.
void checkProfiledNames(const Graph& g, const models::ProfileRun& run, const std::string& model) {
    std::set<std::string> graphNames, profiled;
    for (OpId v = 0; v < g.opCount(); ++v) graphNames.insert(g.op(v).name);
    for (const OpMeasurement& m : run.ops) profiled.insert(m.name);
    for (const UnmeasuredOp& u : run.unmeasured) profiled.insert(u.name);
    for (const std::string& name : profiled)
        if (!graphNames.count(name)) throw std::runtime_error(model + ": the profiler named an op '" + name + "' that SchedLab's ONNX reader does not have (a bug: the two name nodes differently)");
    for (const std::string& name : graphNames)
        if (!profiled.count(name)) throw std::runtime_error(model + ": op '" + name + "' of the graph was neither measured nor listed as unmeasured (a bug)");
}

void printProfileSummary(const models::ProfileRun& run, const std::string& model, const models::ProfileRequest& r) {
    std::map<std::string, std::pair<int, double>> byType;   // type -> count, sum of medians (us)
    double totalUs = 0;
    for (const OpMeasurement& m : run.ops) {
        auto& [count, us] = byType[m.type];
        ++count;
        us += m.medianUs;
        totalUs += m.medianUs;
    }
    std::vector<std::pair<std::string, std::pair<int, double>>> rows(byType.begin(), byType.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
    std::printf("%s on %s: %zu ops measured, %zu not; median of %d runs after %d warm-up runs\n\n", model.c_str(), run.device.c_str(),
                run.ops.size(), run.unmeasured.size(), r.repeats, r.warmup);
    std::printf("%-24s %6s %16s\n", "op type", "count", "total median ms");
    for (const auto& [type, v] : rows) std::printf("%-24s %6d %16.3f\n", type.c_str(), v.first, v.second / 1e3);
    std::printf("%-24s %6zu %16.3f\n", "all measured ops", run.ops.size(), totalUs / 1e3);
    if (run.unmeasured.empty()) return;
    std::printf("\nNot measured (they keep the catalogue's estimate):\n");
    for (const UnmeasuredOp& u : run.unmeasured) std::printf("  %s (%s): %s\n", u.name.c_str(), u.type.c_str(), u.reason.c_str());
}

int runProfile(Args& args) {
    const auto start = std::chrono::steady_clock::now();
    std::optional<std::string> out = args.take("out");
    const std::vector<std::string> positionals = profilePositionals(args, out);
    if (positionals.empty()) throw UsageError("missing the ONNX model (schedlab-cli profile MODEL.onnx)");
    if (positionals.size() > 1) throw UsageError("unexpected argument '" + positionals[1] + "'");
    models::ProfileRequest request;
    request.modelPath = positionals[0];
    request.repeats = static_cast<int>(args.takeIntIn("repeats", 20, 1, 1000000));
    request.warmup = static_cast<int>(args.takeIntIn("warmup", 3, 0, 1000000));
    request.threads = args.takeThreads(1);
    args.finish(args.positionalCount());
    const std::string outPath = out.value_or(std::filesystem::path(request.modelPath).stem().string() + ".profile.json");

    // SchedLab's reader first: a missing or broken file is refused naming it, and its graph gives
    // the op names and the fingerprint the profile must match
    const LoadedGraph loaded = loadGraph(request.modelPath, GraphFormat::Onnx);
    const std::string model = std::filesystem::path(request.modelPath).filename().string();

    loadNeuralMethods();
    const models::TimingTools tools = models::timingTools();
    if (!tools.profile)
        throw std::runtime_error("profile runs the ops with LibTorch, from the neural module, which is not loaded" + neuralUnavailableNote());
    const InterruptStop interrupt({SIGINT, SIGTERM});
    request.stop = interrupt.token();
    request.progress = [](const std::string& line) { std::cerr << line << "\n"; };
    const models::ProfileRun run = tools.profile(request);
    if (run.stopped) {
        std::cerr << "profile: interrupted after " << run.ops.size() + run.unmeasured.size() << " of " << loaded.graph->opCount()
                  << " ops; nothing written\n";
        return 130;
    }
    checkProfiledNames(*loaded.graph, run, request.modelPath);

    Profile p;
    p.model = model;
    p.fingerprint = modelFingerprintText(modelFingerprint(*loaded.graph));
    p.device = run.device;
    p.created = profileTimestamp();
    p.tool = "schedlab-cli profile";
    p.ops = run.ops;
    p.unmeasured = run.unmeasured;
    saveProfile(p, outPath);

    printProfileSummary(run, model, request);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("\nwall time %.1f s (measuring %.1f s)\nwrote %s\n", wall, run.measuredSeconds, outPath.c_str());
    return 0;
}

const char* const kProfileHelp =
    "Usage: schedlab-cli profile MODEL.onnx [-o OUT.json] [--repeats N] [--warmup W] [--threads T]\n"
    "Measures every op of an ONNX model on this CPU: each op runs alone with LibTorch (ATen) at its\n"
    "inferred shapes and dtype, on random inputs; W untimed runs, then N timed ones. The profile\n"
    "keeps each op's median and interquartile range (docs/formats.md, \"Profiles\"); ops with no ATen\n"
    "equivalent keep the catalogue's estimate and are listed. Prints a table by op type.\n"
    "Needs the neural module (LibTorch). Ctrl-C stops it without writing anything (exit code 130).\n\n"
    "Options:\n"
    "  -o, --out FILE   the profile (default: MODEL's name with .profile.json, here)\n"
    "  --repeats N      timed runs per op (default 20)\n"
    "  --warmup W       untimed runs before them (default 3)\n"
    "  --threads T      LibTorch's and OpenBLAS's threads (default 1: the steadiest numbers)\n";

SL_CLI_COMMAND({"profile", "measure every op of an ONNX model on this CPU with LibTorch (a profile file)", kProfileHelp, {}, &runProfile});

} // namespace
} // namespace sl::cli
