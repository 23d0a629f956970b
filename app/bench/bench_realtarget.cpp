// SPDX-License-Identifier: MIT
// `schedlab-cli bench real-target`: the GFlowNet paper's setting (Zhang et al., ICLR 2023: a cheap
// proxy, a real machine) with a real machine in it (docs/time.md, "A real target"). Each method
// schedules a model's training step on this machine's calibrated roofline; its top k candidates
// are then judged on the same machine with the forward ops' measured times (every op run with
// LibTorch at its shapes, as `schedlab-cli profile` does): where the estimate's top-1 lands, and
// the best of the top k.
#include "bench.h"
#include "candidatetable.h"

#include "app/cli/neural.h"
#include "core/graph/fingerprint.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"
#include "core/optimizer/candidates.h"
#include "core/timing/catalog.h"
#include "core/timing/machine.h"
#include "core/timing/retime.h"
#include "models/timing/tools.h"

#include <cstdio>
#include <filesystem>

namespace sl::cli {
namespace bench_realtarget {
namespace {

namespace fs = std::filesystem;

struct Setup {
    std::vector<MethodSpec> methods;
    int devices = 2, topK = 100, repeats = 10;
    UpdateRule training = UpdateRule::Sgd;
};

/// The model's forward ops with their measured medians (the others keep the reader's estimate).
std::shared_ptr<Graph> measuredForward(const fs::path& file, const models::TimingTools& tools, int repeats) {
    auto g = std::make_shared<Graph>(*loadGraph(file.string()).graph);
    const models::ProfileRun run = tools.profile({.modelPath = file.string(), .repeats = repeats});
    Profile profile;
    profile.fingerprint = modelFingerprintText(modelFingerprint(*g));
    profile.ops = run.ops;
    applyProfile(*g, profile, file.string());
    return g;
}

/// The training step of `forward` on `machine`: every op with work timed by its roofline, the
/// measured ones kept.
std::shared_ptr<const Graph> timedStep(const Graph& forward, UpdateRule rule, const Platform& machine, const DeviceCatalog& catalog) {
    auto step = std::make_shared<Graph>(makeTrainingGraph(forward, {.rule = rule}));
    const TimedGraph timed = retimeGraph(*step, machine, catalog);
    return timed.retimed ? timed.retimed : step;
}

void modelRows(const fs::path& file, const DeviceSpec& device, const Setup& b, const models::TimingTools& tools) {
    DeviceCatalog catalog = DeviceCatalog::instance();   // with this run's calibration, whatever the user's
    catalog.addDevice(device);
    const Platform machine = catalogPlatform(device.id, b.devices, catalog);
    const Graph forward = *loadGraph(file.string()).graph;
    Problem estimate{timedStep(forward, b.training, machine, catalog), machine, {}};
    const std::shared_ptr<const Graph> measured = timedStep(*measuredForward(file, tools, b.repeats), b.training, machine, catalog);
    for (const MethodSpec& m : b.methods) {
        RunOptions o = m.options;
        o.seed = 1;
        o.candidates = b.topK;
        const RunResult r = OptimizerRegistry::instance().create(m.name)->run(estimate, o, {}, {});
        const CandidateReport c = evaluateCandidates(
            estimate, candidatesOf(r), {.topK = b.topK, .targets = {TargetModel::Measured}, .measuredGraph = measured});
        const TargetOutcome& t = c.targets.front();
        std::printf("%-22s %-18s %6d %10.3f %16.3f %14.3f\n", file.stem().string().c_str(), m.label.c_str(), c.kept, c.proxyTop1,
                    t.ofProxyTop1, t.bestOfK);
        std::fflush(stdout);
    }
}

int runRealTargetBench(Args& args) {
    Setup b;
    const std::string data = args.take("data", defaultDataDir());
    const bool quick = args.takeFlag("quick");
    const std::string methods = args.take("methods", quick ? "list-cp,priority-sampler" : "list-cp,brkga-order,priority-sampler,gflownet");
    b.devices = static_cast<int>(args.takeIntIn("devices", 2, 1, 64));
    b.topK = static_cast<int>(args.takeIntIn("top-k", quick ? 10 : 100, 1, 100000));
    b.repeats = static_cast<int>(args.takeIntIn("repeats", quick ? 2 : 10, 1, 1000));
    args.finish(1);   // the bench's name
    for (const std::string& text : splitList(methods)) b.methods.push_back(parseMethodSpec(text));
    loadNeuralMethods();
    const models::TimingTools tools = models::timingTools();
    if (!tools.profile || !tools.calibrate) throw IoError("bench real-target needs the neural module (LibTorch)" + neuralUnavailableNote());
    std::vector<fs::path> files = distinctModels(onnxModelFiles(data));
    if (files.empty()) throw IoError(data + ": no .onnx models under onnx/");
    if (quick) files.resize(1);
    std::printf("calibrating this machine (schedlab-cli calibrate%s) ...\n", quick ? " --quick" : "");
    const DeviceSpec device = tools.calibrate({.quick = quick}).spec;
    std::printf("SGD training steps on %d x %s: scheduled on its roofline (the estimate), judged with the forward ops'\n"
                "measured times (LibTorch, median of %d runs); speedup = total work / makespan, top %d candidates:\n",
                b.devices, device.name.c_str(), b.repeats, b.topK);
    std::printf("%-22s %-18s %6s %10s %16s %14s\n", "model", "method", "kept", "estimate 1", "measured there", "measured best");
    for (const fs::path& f : files) modelRows(f, device, b, tools);
    std::printf("(estimate 1: the estimate's best candidate on the estimate; measured there: the same schedule on the\n"
                " measured times; measured best: the best of the kept candidates on the measured times)\n");
    return 0;
}

SL_CLI_BENCH({"real-target", "schedules made on the calibrated estimate judged on measured op times (a real target)",
              "Usage: schedlab-cli bench real-target [--data DIR] [--methods list-cp,brkga-order,...] [--devices 2]\n"
              "                                      [--top-k 100] [--repeats 10] [--quick]\n"
              "The GFlowNet paper's protocol (a cheap proxy, a real machine) with this machine as the real one:\n"
              "each ONNX model of DATA/onnx (one file per network) as its SGD training step on --devices of\n"
              "this machine, calibrated first (`schedlab-cli calibrate`); each method schedules it on the\n"
              "roofline estimate and keeps its top k candidates, which are judged with the forward ops'\n"
              "measured times. Prints where the estimate's top-1 lands and the best of the top k.\n"
              "--quick: one model, list-cp and the priority sampler, top 10, a quick calibration.\n",
              {"quick"}, &runRealTargetBench, /*needsNeuralMethods=*/true});

} // namespace
} // namespace bench_realtarget
} // namespace sl::cli
