// SPDX-License-Identifier: MIT
#pragma once
/// The benchmarks of `schedlab-cli bench NAME ...`, app/bench's own registry: each benchmark lives
/// in its own bench_*.cpp and registers itself with SL_CLI_BENCH, as commands do with
/// SL_CLI_COMMAND (app/cli/command.h). The CLI sees none of this: its `bench` command goes
/// through benchcommand.h. Nothing calls a bench_*.cpp by name, so schedlab-cli links this
/// library whole (app/CMakeLists.txt); a plain link would drop every benchmark.

#include "app/cli/args.h"
#include "core/graph/graph.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sl::cli {

struct Bench {
    std::string name;
    std::string summary;
    std::string help;
    std::vector<std::string> flags;
    std::function<int(Args&)> run;
    bool needsNeuralMethods = false;   ///< load the neural module first (app/cli/neural.h)
    /// Splits its items over the ranks of a distributed run (shard.h); false for benches that
    /// measure time on one machine.
    bool shardable = false;
};

std::vector<Bench>& benches();

/// Where the quality benches find their fixtures by default: tests/data of the source tree the
/// build this binary runs from sits in (core/util/installpaths.h), else ./tests/data. An
/// installed binary has neither: its benches take --data DIR.
std::string defaultDataDir();
/// The .onnx files of DATA/onnx, sorted (none when the folder is missing).
std::vector<std::filesystem::path> onnxModelFiles(const std::filesystem::path& data);
/// `files` with one file per network: a copy of another (the same ops and tensors by
/// sl::modelFingerprint, other weights) left out.
std::vector<std::filesystem::path> distinctModels(const std::vector<std::filesystem::path>& files);

/// A layered graph whose ops carry work (a third matmuls, the rest element-wise, FLOPs and bytes
/// from the generated durations and tensor sizes), as an imported model's would; microseconds.
std::shared_ptr<Graph> graphWithWork(int ops, std::uint64_t seed);

/// Median of `runs` wall-clock timings of f(), in milliseconds.
template <typename F>
double medianMs(int runs, F f) {
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

struct BenchRegistrar {
    explicit BenchRegistrar(Bench b) { benches().push_back(std::move(b)); }
};

} // namespace sl::cli

#define SL_CLI_BENCH_CONCAT2(a, b) a##b
#define SL_CLI_BENCH_CONCAT(a, b) SL_CLI_BENCH_CONCAT2(a, b)
/// Each bench_<name>.cpp keeps its helpers in namespace sl::cli::bench_<name>: a unity batch
/// compiles several benchmarks as one unit, and their Method, Outcome or Workload stay apart.
/// Registers a benchmark: SL_CLI_BENCH({"name", "summary", "help", {"flag"}, &runFn});
#define SL_CLI_BENCH(...) \
    static const ::sl::cli::BenchRegistrar SL_CLI_BENCH_CONCAT(slCliBench_, __COUNTER__)(::sl::cli::Bench __VA_ARGS__)
