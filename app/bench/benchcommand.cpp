// SPDX-License-Identifier: MIT
// `schedlab-cli bench`: the benchmark registry and the command's run and help (benchcommand.h).
#include "benchcommand.h"
#include "bench.h"
#include "shard.h"

#include "app/cli/distargs.h"
#include "app/cli/interrupt.h"
#include "app/cli/neural.h"

#include "core/dist/communicator.h"
#include "core/generators/generators.h"
#include "core/graph/fingerprint.h"
#include "core/io/graphio.h"
#include "core/util/installpaths.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace sl::cli {

std::shared_ptr<Graph> graphWithWork(int ops, std::uint64_t seed) {
    auto g = std::make_shared<Graph>(*generateLayered(ops, seed).graph);
    for (OpId v = 0; v < g->opCount(); ++v) {
        Op& o = g->mutableOp(v);
        const bool matmul = v % 3 == 0;
        o.work = {.opClass = matmul ? OpClass::Matmul : OpClass::Elementwise,
                  .dtype = DType::BF16,
                  .flops = o.duration * (matmul ? 1e9 : 1e6),
                  .bytesRead = 1e5 * (1 + v % 7),
                  .bytesWritten = 1e5};
    }
    g->setTimeUnit(TimeUnit::Microseconds);
    g->finalize();
    return g;
}

std::string defaultDataDir() {
    namespace fs = std::filesystem;
    if (const fs::path source = buildSourceTree("tests/data"); !source.empty()) return (source / "tests" / "data").string();
    return (fs::path("tests") / "data").string();
}

std::vector<std::filesystem::path> onnxModelFiles(const std::filesystem::path& data) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    if (fs::exists(data / "onnx"))
        for (const auto& e : fs::directory_iterator(data / "onnx"))
            if (e.path().extension() == ".onnx") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::filesystem::path> distinctModels(const std::vector<std::filesystem::path>& files) {
    std::vector<std::filesystem::path> out;
    std::vector<std::uint64_t> seen;
    for (const auto& f : files) {
        const std::uint64_t fp = modelFingerprint(*loadGraph(f.string()).graph);
        if (std::find(seen.begin(), seen.end(), fp) != seen.end()) continue;
        seen.push_back(fp);
        out.push_back(f);
    }
    return out;
}

std::vector<Bench>& benches() {
    static std::vector<Bench> list;
    return list;
}

namespace {

std::string benchList() {
    auto list = benches();
    std::sort(list.begin(), list.end(), [](auto& a, auto& b) { return a.name < b.name; });
    std::string out;
    for (const Bench& b : list)
        out += "  " + b.name + std::string(b.name.size() < 18 ? 18 - b.name.size() : 1, ' ') + b.summary +
               (b.shardable ? " [ranks]" : "") + "\n";
    return out;
}

} // namespace

int runBenchCommand(Args& args) {
    const std::string name = args.positional(0, "benchmark name (one of:\n" + benchList() + ")");
    const auto& list = benches();
    auto it = std::find_if(list.begin(), list.end(), [&](const Bench& b) { return b.name == name; });
    if (it == list.end()) throw UsageError("unknown benchmark '" + name + "'; one of:\n" + benchList());
    if (it->needsNeuralMethods && !loadNeuralMethods().available)
        throw std::runtime_error("bench " + name + " needs the neural methods" + neuralUnavailableNote());
    const dist::DistOptions d = takeDistOptions(args);
    if (!d.distributed()) return it->run(args);
    if (!it->shardable)
        throw UsageError("bench " + name + " measures time on one machine and does not split over ranks: run it with one rank");
    quietUnlessRoot(d);   // only rank 0's table reaches stdout
    // Ctrl-C or SIGTERM ends this rank at once, in the rendezvous or between items, and its
    // peers are told (the work takes no stop token, so no step to finish first).
    const InterruptStop interrupt({SIGINT, SIGTERM}, /*polled=*/false);
    const std::unique_ptr<dist::Communicator> comm = dist::connect(d);
    const Args pristine = args;   // each pass parses its own copy
    return runSharded([&] {
        Args a = pristine;
        return it->run(a);
    }, *comm);
}

std::optional<std::string> benchHelp(const std::string& name) {
    for (const Bench& b : benches())
        if (b.name == name) return b.help;
    return std::nullopt;
}

std::string benchCommandHelp() {
    return "Usage: schedlab-cli bench NAME [OPTIONS]\n"
           "Runs a benchmark and prints its table. 'schedlab-cli bench NAME --help' lists its options;\n"
           "'--quick' runs every benchmark on a few small instances, in seconds (a smoke test, not numbers).\n"
           "Build Release for meaningful numbers (scripts/setup.sh does).\n\n"
           "Distributed: the quality benchmarks marked [ranks] split their runs over the ranks of a\n"
           "distributed run and rank 0 prints the one-process table (scripts/launch-local.sh N starts\n"
           "N ranks here; docs/distributed.md):\n" + std::string(dist::distFlagsHelp()) + "\n"
           "Benchmarks:\n" + benchList();
}

} // namespace sl::cli
