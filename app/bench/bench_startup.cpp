// SPDX-License-Identifier: MIT
// `schedlab-cli bench startup`: how long the executables take to start (docs/packaging.md, "Start-up time"): a classic run of
// the CLI and the explorer to its first painted layout, as a user's shell sees them (wall clock of
// a fresh process, median of --runs), and which shared libraries each maps. Beside each time: the
// same with the neural module mapped at start (LD_PRELOAD), which is how both started before the
// module split, and the numbers the last build before the split measured.
#include "bench.h"
#include "spawn.h"

#include "core/generators/generators.h"
#include "core/io/graphio.h"
#include "core/plugin/neuralmodule.h"
#include "core/util/installpaths.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace sl::cli {
namespace bench_startup {
namespace {

namespace fs = std::filesystem;

double medianSeconds(const std::vector<std::string>& argv, const std::vector<std::string>& env, int runs) {
    std::vector<double> seconds;
    for (int i = 0; i < runs; ++i) {
        const Finished f = spawnAndWait(argv, {.extraEnv = env});
        if (f.exitCode != 0) throw std::runtime_error(argv[0] + " exited with " + std::to_string(f.exitCode));
        seconds.push_back(f.seconds);
    }
    std::sort(seconds.begin(), seconds.end());
    return seconds[seconds.size() / 2];
}

struct Libraries {
    int count = 0;
    bool torch = false, qt5 = false;
};

/// What the dynamic loader maps at start (LD_TRACE_LOADED_OBJECTS: what ldd prints).
Libraries mappedAtStart(const std::string& executable) {
    const Finished f = spawnAndWait({executable}, {.extraEnv = {"LD_TRACE_LOADED_OBJECTS=1"}, .captureStdout = true});
    Libraries l;
    std::size_t from = 0;
    while (from < f.output.size()) {
        const std::size_t end = std::min(f.output.find('\n', from), f.output.size());
        const std::string line = f.output.substr(from, end - from);
        from = end + 1;
        if (line.find("=>") == std::string::npos && line.find("ld-linux") == std::string::npos) continue;
        ++l.count;
        l.torch = l.torch || line.find("libtorch") != std::string::npos;
        l.qt5 = l.qt5 || line.find("libQt5") != std::string::npos;
    }
    return l;
}

fs::path exampleFile(const std::string& name) {
    if (const fs::path installed = installedDataDir(); !installed.empty()) return installed / "examples" / name;
    return fs::path(defaultDataDir()).parent_path().parent_path() / "resources" / "examples" / name;
}

std::string neuralModulePath() {
    for (const std::string& p : neural::moduleCandidates())
        if (fs::exists(p)) return p;
    return {};
}

void printRow(const char* what, double now, double preloaded, double beforeSplit, double target) {
    std::printf("| %-50s | %5.3f | %16.3f | %12s | %6.3f | %-6s |\n", what, now, preloaded,
                beforeSplit > 0 ? std::to_string(beforeSplit).substr(0, 5).c_str() : "n/a", target, now <= target ? "met" : "MISSED");
}

void printLibraries(const char* name, const Libraries& l) {
    std::printf("%-12s maps %3d shared libraries at start; LibTorch %s, Qt 5 %s\n", name, l.count, l.torch ? "YES" : "no",
                l.qt5 ? "YES" : "no");
}

int runStartupBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    const int runs = static_cast<int>(args.takeIntIn("runs", quick ? 1 : 7, 1, 1000));
    const fs::path bin = executableDir();
    const std::string cli = args.take("cli", (bin / "schedlab-cli").string());
    const std::string gui = args.take("gui", (bin / "schedlab").string());
    const std::string example = args.take("example", exampleFile("resnet50.onnx").string());
    args.finish(1);
    for (const std::string& f : {cli, gui, example})
        if (!fs::exists(f)) throw std::runtime_error("no " + f + " (see --help)");

    const fs::path scratch = fs::temp_directory_path() / ("schedlab-bench-startup-" + std::to_string(getpid()));
    fs::create_directories(scratch);
    const GeneratedInstance g = generateInstance("layered", 100, 1);
    const std::string graph = (scratch / "layered100.json").string();
    saveGraphJson(*g.graph, &g.platform, graph);
    const std::vector<std::string> classicRun = {cli, "optimize", graph, "--method", "list-cp", "--out", (scratch / "s.json").string()};
    const std::vector<std::string> paintedWindow = {gui, example, "--quit-after-paint"};
    const std::vector<std::string> offscreen = {"QT_QPA_PLATFORM=offscreen"};
    const std::string module = neuralModulePath();
    std::vector<std::string> preload = offscreen;
    if (!module.empty()) preload.push_back("LD_PRELOAD=" + module);
    // An ASan build refuses a preloaded library ahead of its runtime; this column is a timing, not a check.
    const char* asan = std::getenv("ASAN_OPTIONS");
    preload.push_back(std::string("ASAN_OPTIONS=") + (asan && *asan ? std::string(asan) + ":" : "") + "verify_asan_link_order=0");

    std::printf("Startup: wall clock of a fresh process, median of %d runs (Qt offscreen). 'module preloaded': the\n"
                "neural module and LibTorch mapped at start (LD_PRELOAD), as both executables started before the\n"
                "split; 'before split': measured with the build of 660886c on this machine (2026-11-25).\n\n",
                runs);
    std::printf("| %-50s | %5s | %16s | %12s | %6s | %-6s |\n|---|--:|--:|--:|--:|---|\n", "seconds", "now",
                module.empty() ? "(no module)" : "module preloaded", "before split", "target", "");
    const double cliNow = medianSeconds(classicRun, offscreen, runs);
    const double cliPre = module.empty() ? 0 : medianSeconds(classicRun, preload, runs);
    printRow("schedlab-cli optimize --method list-cp, 100 ops", cliNow, cliPre, 0.38, 0.05);
    const double guiNow = medianSeconds(paintedWindow, offscreen, runs);
    const double guiPre = module.empty() ? 0 : medianSeconds(paintedWindow, preload, runs);
    printRow(("schedlab " + fs::path(example).filename().string() + " to a painted layout").c_str(), guiNow, guiPre, 0, 0.5);
    std::printf("\n");
    printLibraries("schedlab-cli", mappedAtStart(cli));
    printLibraries("schedlab", mappedAtStart(gui));
    std::printf("neural module: %s\n", module.empty() ? "not found (the neural methods are unavailable)" : module.c_str());
    fs::remove_all(scratch);
    return 0;
}

SL_CLI_BENCH({"startup", "seconds to start: a classic CLI run and the explorer's first painted layout; libraries mapped",
              "Usage: schedlab-cli bench startup [--runs 7] [--cli FILE] [--gui FILE] [--example FILE] [--quick]\n"
              "Starts fresh processes and prints the median wall clock, beside the same with the neural\n"
              "module preloaded (how the executables started when they linked LibTorch) and the targets:\n"
              "  schedlab-cli optimize GRAPH --method list-cp on a 100-op layered graph: at most 0.05 s\n"
              "  schedlab EXAMPLE --quit-after-paint (to the first painted layout): at most 0.5 s\n"
              "then how many shared libraries each executable maps at start, and whether LibTorch or Qt 5\n"
              "are among them (the classic path must map neither).\n"
              "  --runs N        runs per row (default 7)\n"
              "  --cli, --gui    the executables (default: next to this one)\n"
              "  --example FILE  the explorer's graph (default: the bundled resnet50.onnx)\n"
              "  --quick         one run per row\n",
              {"quick"}, &runStartupBench});

} // namespace
} // namespace bench_startup
} // namespace sl::cli
