// SPDX-License-Identifier: MIT
// `schedlab-cli bench distributed`: how data-parallel training and a sharded batch scale with the
// number of ranks on this machine (docs/distributed.md, "Numbers"). Each row starts its ranks as child processes of this
// executable on a free loopback port, as scripts/launch-local.sh does, and times them.
#include "bench.h"
#include "spawn.h"

#include "core/generators/generators.h"
#include "core/io/graphio.h"
#include "core/util/installpaths.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sl::cli {
namespace bench_distributed {
namespace {

namespace fs = std::filesystem;

/// A loopback port nobody uses (the kernel's pick for port 0).
int freeLoopbackPort() {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t n = sizeof a;
    if (s < 0 || ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &n) != 0)
        throw std::runtime_error("bench distributed: no free loopback port");
    ::close(s);
    return ntohs(a.sin_port);
}

/// Runs `args` (after the executable) on `ranks` ranks at once; the wall time until the last ends.
/// Throws with the failing rank's standard error.
double timeRanks(int ranks, const std::vector<std::string>& args, const fs::path& scratch) {
    const std::string port = std::to_string(freeLoopbackPort());
    std::vector<Started> started;
    for (int r = 0; r < ranks; ++r) {
        std::vector<std::string> argv{(executableDir() / "schedlab-cli").string()};
        argv.insert(argv.end(), args.begin(), args.end());
        SpawnOptions o;
        o.extraEnv = {"WORLD_SIZE=" + std::to_string(ranks), "RANK=" + std::to_string(r), "MASTER_ADDR=127.0.0.1",
                      "MASTER_PORT=" + port};
        o.stderrFile = (scratch / ("rank" + std::to_string(r) + ".err")).string();
        started.push_back(spawnProcess(argv, o));
    }
    double seconds = 0;
    std::string failure;
    for (int r = 0; r < ranks; ++r) {
        const Finished f = waitFor(started[static_cast<std::size_t>(r)]);
        seconds = std::max(seconds, f.seconds);
        if (f.exitCode != 0 && failure.empty()) {
            std::ifstream err(scratch / ("rank" + std::to_string(r) + ".err"));
            std::stringstream text;
            text << err.rdbuf();
            failure = "rank " + std::to_string(r) + " exited with " + std::to_string(f.exitCode) + ": " + text.str();
        }
    }
    if (!failure.empty()) throw std::runtime_error("bench distributed: " + failure);
    return seconds;
}

struct Workload {
    std::vector<int> ranks{1, 2};
    int steps = 40, graphs = 48, nodes = 100, devices = 4;
    std::int64_t budget = 20000;
    std::string method = "brkga";
};

std::vector<std::string> trainArgs(int steps, const fs::path& scratch) {
    return {"train", "gflownet", "--nodes", "20-30", "--devices", "4", "--graphs", "32", "--validation-graphs", "1",
            "--eval-samples", "4", "--batch", "16", "--width", "32", "--layers", "2", "--threads", "1",
            "--log-every", "1000", "--checkpoint-every", "100000", "--steps", std::to_string(steps),
            "--out", (scratch / "bench.slw").string()};
}

void trainingTable(const Workload& w, const fs::path& scratch) {
    std::printf("Data-parallel training: train gflownet, 20-30 ops on 4 devices, width 32, 2 layers, 16 trajectories per rank\n"
                "and step, 1 math thread per rank; a step's time is (t(%d steps) - t(0 steps)) / %d, so set-up, rendezvous and\n"
                "the final checkpoint are left out. Efficiency = trajectories/s over N ranks / (N x one rank's).\n\n",
                w.steps, w.steps);
    std::printf("| ranks | s for %d steps | steps/s | trajectories/s | efficiency |\n|---:|---:|---:|---:|---:|\n", w.steps);
    double base = 0;
    for (int ranks : w.ranks) {
        const double fixed = timeRanks(ranks, trainArgs(0, scratch), scratch);
        const double total = timeRanks(ranks, trainArgs(w.steps, scratch), scratch);
        const double seconds = std::max(1e-9, total - fixed);
        const double stepsPerSecond = w.steps / seconds, trajectories = stepsPerSecond * 16 * ranks;
        if (base == 0) base = trajectories / ranks;
        std::printf("| %d | %.2f | %.2f | %.1f | %.0f %% |\n", ranks, seconds, stepsPerSecond, trajectories,
                    100 * trajectories / (ranks * base));
        std::fflush(stdout);
    }
}

void sweepTable(const Workload& w, const fs::path& scratch) {
    const fs::path folder = scratch / "graphs";
    fs::create_directories(folder);
    for (int i = 0; i < w.graphs; ++i) {
        const GeneratedInstance g = generateLayered(w.nodes, static_cast<std::uint64_t>(i + 1));
        saveGraphJson(*g.graph, nullptr, (folder / ("g" + std::to_string(i) + ".json")).string());
    }
    std::printf("\nSharded sweep: optimize over %d generated layered graphs of %d ops, %s, %lld evaluations each, %d devices,\n"
                "one table gathered at rank 0 (wall time of the whole command, start-up included)\n\n",
                w.graphs, w.nodes, w.method.c_str(), static_cast<long long>(w.budget), w.devices);
    std::printf("| ranks | seconds | graphs/s | speed-up | efficiency |\n|---:|---:|---:|---:|---:|\n");
    double base = 0;
    for (int ranks : w.ranks) {
        const double seconds = timeRanks(ranks, {"optimize", folder.string(), "--method", w.method, "--budget", std::to_string(w.budget),
                                                 "--devices", std::to_string(w.devices)},
                                         scratch);
        const double rate = w.graphs / seconds;
        if (base == 0) base = rate;
        std::printf("| %d | %.2f | %.2f | %.2fx | %.0f %% |\n", ranks, seconds, rate, rate / base, 100 * rate / (base * ranks));
        std::fflush(stdout);
    }
}

int runDistributedBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    Workload w;
    w.ranks = args.takeIntList("ranks", "1,2");
    w.steps = static_cast<int>(args.takeIntIn("steps", quick ? 4 : 40, 1, 1'000'000));
    w.graphs = static_cast<int>(args.takeIntIn("graphs", quick ? 4 : 48, 1, 100'000));
    w.nodes = static_cast<int>(args.takeIntIn("nodes", quick ? 20 : 100, 2, 100'000));
    w.budget = args.takeIntIn("budget", quick ? 200 : 20000, 1, std::int64_t(1) << 40);
    w.method = args.take("method", "brkga");
    const std::string parts = args.take("only", "training,sweep");
    args.finish(1);
    const fs::path scratch = fs::temp_directory_path() / ("schedlab-bench-distributed-" + std::to_string(::getpid()));
    fs::create_directories(scratch);
    try {
        if (parts.find("training") != std::string::npos) trainingTable(w, scratch);
        if (parts.find("sweep") != std::string::npos) sweepTable(w, scratch);
    } catch (...) {
        fs::remove_all(scratch);
        throw;
    }
    fs::remove_all(scratch);
    return 0;
}

SL_CLI_BENCH({"distributed", "data-parallel training steps/s and a sharded sweep's graphs/s with 1, 2, ... ranks",
              "Usage: schedlab-cli bench distributed [--ranks 1,2] [--steps S] [--graphs G] [--nodes N]\n"
              "                                      [--method M] [--budget EVALS] [--only training,sweep] [--quick]\n"
              "Starts each row's ranks as processes of this executable on a free loopback port (LibTorch's c10d,\n"
              "Gloo) and times them: train gflownet for S steps (default 40), and a batch optimize of G generated\n"
              "graphs (default 48 of 100 ops, brkga, 20,000 evaluations each). Prints steps/s, trajectories/s,\n"
              "graphs/s and the scaling efficiency against one rank. --quick: 4 steps, 4 graphs of 20 ops.\n",
              {"quick"}, &runDistributedBench, /*needsNeuralMethods=*/true});

} // namespace
} // namespace bench_distributed
} // namespace sl::cli
