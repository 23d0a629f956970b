// SPDX-License-Identifier: MIT
// `schedlab-cli bench cost-model`: the catalogue's op times against measured ones on this machine
// (docs/time.md, "How good the estimates are"). Every op of each ONNX model is measured with
// LibTorch at its shapes (`schedlab-cli profile`) and estimated by the roofline of this machine's
// calibrated entry (`schedlab-cli calibrate`, run here first unless --device names an entry); the
// errors per op class and overall, then again with a correction per op class fitted on the other
// models only (leave one model out).
#include "bench.h"

#include "app/cli/neural.h"
#include "app/cli/profiledmodels.h"
#include "core/io/graphio.h"
#include "core/profile/repetitions.h"
#include "core/timing/catalog.h"
#include "models/timing/tools.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

namespace sl::cli {
namespace bench_optimes {
namespace {

namespace fs = std::filesystem;

struct OpSample {
    std::string model, name, type;
    OpClass opClass;
    double estimated = 0, measured = 0;   ///< microseconds
};

/// The median (NaN for none), as the profiles take it (core/profile/repetitions.h).
double median(std::vector<double> v) {
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    return sortedQuantile(v, 0.5);
}

double relativeError(double estimated, double measured) { return std::abs(estimated - measured) / measured; }

/// The device whose estimates are judged: --device ID, else this machine calibrated now.
DeviceSpec judgedDevice(const std::optional<std::string>& id, const models::TimingTools& tools, bool quick) {
    if (id) return DeviceCatalog::instance().device(*id);
    std::printf("calibrating this machine (schedlab-cli calibrate%s) ...\n", quick ? " --quick" : ", about 10 s");
    const models::CalibrationRun run = tools.calibrate({.quick = quick});
    return run.spec;
}

std::vector<OpSample> measureModel(const fs::path& file, const DeviceSpec& device, const models::TimingTools& tools, int repeats) {
    const LoadedGraph loaded = loadGraph(file.string());
    const Graph& g = *loaded.graph;
    const models::ProfileRun run = tools.profile({.modelPath = file.string(), .repeats = repeats});
    std::vector<OpSample> out;
    for (const OpMeasurement& m : run.ops) {
        const OpId v = g.findOp(m.name);
        if (v == kNoOp || !g.op(v).work.known() || !(m.medianUs > 0)) continue;
        out.push_back({file.stem().string(), m.name, m.type, g.op(v).work.opClass, rooflineMicroseconds(device, g.op(v).work), m.medianUs});
    }
    return out;
}

/// The correction's key: the op type (BatchNormalization and LRN are both "normalization" but run
/// unlike kernels) when the other models have kMinTypeSamples of it, else the op class when they
/// have as many of that; else no correction (two LRNs do not speak for a BatchNormalization).
constexpr int kMinTypeSamples = 3;

/// Median of measured / estimated over the other models' samples, per op type and per op class.
struct Factors {
    std::map<std::string, double> byType;
    std::map<OpClass, double> byClass;
};

Factors fitFactors(const std::vector<OpSample>& all, const std::string& leftOut) {
    std::map<std::string, std::vector<double>> types;
    std::map<OpClass, std::vector<double>> classes;
    for (const OpSample& s : all)
        if (s.model != leftOut && s.estimated > 0) {
            types[s.type].push_back(s.measured / s.estimated);
            classes[s.opClass].push_back(s.measured / s.estimated);
        }
    Factors f;
    for (auto& [t, r] : types)
        if (static_cast<int>(r.size()) >= kMinTypeSamples) f.byType[t] = median(std::move(r));
    for (auto& [c, r] : classes)
        if (static_cast<int>(r.size()) >= kMinTypeSamples) f.byClass[c] = median(std::move(r));
    return f;
}

/// The samples with the leave-one-model-out correction applied.
std::vector<OpSample> corrected(const std::vector<OpSample>& all) {
    std::map<std::string, Factors> factors;
    std::vector<OpSample> out = all;
    for (OpSample& s : out) {
        if (!factors.count(s.model)) factors[s.model] = fitFactors(all, s.model);
        const Factors& f = factors[s.model];
        if (auto t = f.byType.find(s.type); t != f.byType.end()) s.estimated *= t->second;
        else if (auto c = f.byClass.find(s.opClass); c != f.byClass.end()) s.estimated *= c->second;
    }
    return out;
}

/// Every op, for finding what the model gets wrong.
void printOps(const std::vector<OpSample>& samples) {
    std::printf("\n%-22s %-28s %-14s %-13s %12s %12s %8s\n", "model", "op", "type", "class", "measured us", "estimated us", "error");
    for (const OpSample& s : samples)
        std::printf("%-22s %-28s %-14s %-13s %12.2f %12.2f %7.0f%%\n", s.model.c_str(), s.name.substr(0, 28).c_str(), s.type.c_str(),
                    std::string(toString(s.opClass)).c_str(), s.measured, s.estimated, 100 * (s.estimated - s.measured) / s.measured);
}

void printTables(const std::vector<OpSample>& samples, const char* title) {
    std::printf("\n%s\n%-26s %5s %12s %12s %9s %14s\n", title, "model", "ops", "measured ms", "estimated ms", "sum err", "median op err");
    std::map<std::string, std::vector<const OpSample*>> byModel;
    for (const OpSample& s : samples) byModel[s.model].push_back(&s);
    std::vector<double> allErrors, sumErrors;
    for (const auto& [model, list] : byModel) {
        double measured = 0, estimated = 0;
        std::vector<double> errors;
        for (const OpSample* s : list) {
            measured += s->measured;
            estimated += s->estimated;
            errors.push_back(relativeError(s->estimated, s->measured));
        }
        allErrors.insert(allErrors.end(), errors.begin(), errors.end());
        sumErrors.push_back(relativeError(estimated, measured));
        std::printf("%-26s %5zu %12.3f %12.3f %8.1f%% %13.1f%%\n", model.c_str(), list.size(), measured / 1e3, estimated / 1e3,
                    100 * sumErrors.back(), 100 * median(errors));
    }
    std::printf("%-26s %5zu %12s %12s %8.1f%% %13.1f%%   (sum err: the worst model)\n", "all", allErrors.size(), "", "",
                100 * *std::max_element(sumErrors.begin(), sumErrors.end()), 100 * median(allErrors));
    std::map<OpClass, std::vector<double>> byClass;
    for (const OpSample& s : samples) byClass[s.opClass].push_back(relativeError(s.estimated, s.measured));
    std::printf("%-26s %5s %14s\n", "op class", "ops", "median op err");
    for (auto& [c, errors] : byClass)
        std::printf("%-26s %5zu %13.1f%%\n", std::string(toString(c)).c_str(), errors.size(), 100 * median(errors));
}

/// A model's measured ops with the base entry's roofline and, when `learned` is given, its fitted
/// estimate (as `estimated`).
std::vector<OpSample> runtimeSamples(const ProfiledModel& m, const DeviceSpec& base, const DeviceSpec* learned) {
    const Graph& g = *m.graph;
    std::vector<OpSample> out;
    for (const OpMeasurement& measured : m.profile.ops) {
        const OpId v = g.findOp(measured.name);
        if (v == kNoOp || !(measured.medianUs > 0)) continue;
        const Op& op = g.op(v);
        if (!(rooflineBodyMicroseconds(base, op.work) > 0)) continue;
        const double estimate =
            learned ? estimatedMicroseconds(*learned, op.type, op.work) : rooflineMicroseconds(base, op.work);
        out.push_back({fs::path(m.modelPath).stem().string(), measured.name, op.type, op.work.opClass, estimate,
                       measured.medianUs});
    }
    return out;
}

/// --runtime: leave one model out over profiles of any runtime; each model estimated by the base
/// entry's roofline, then by a machine learned from the other models' profiles.
int runRuntimeBench(Args& args, const std::string& pairs) {
    const std::string baseId = args.take("device", "this-machine");
    const bool ops = args.takeFlag("ops");
    args.finish(1);
    const std::vector<ProfiledModel> models = readProfiledModels(pairs, "runtime");
    if (models.size() < 2)
        throw UsageError("--runtime needs profiles of at least two models (each is estimated from the others)");
    const DeviceSpec& base = DeviceCatalog::instance().device(baseId);
    std::printf("estimates: %s (%s); measured: %s\n", base.name.c_str(), base.id.c_str(),
                models.front().describe().c_str());
    std::vector<OpSample> plain, learned;
    for (size_t i = 0; i < models.size(); ++i) {
        std::vector<ProfiledModel> others = models;
        others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
        const DeviceSpec fitted = learnedDevice(base, others, "leave-one-out");
        const std::vector<OpSample> a = runtimeSamples(models[i], base, nullptr),
                                    b = runtimeSamples(models[i], base, &fitted);
        plain.insert(plain.end(), a.begin(), a.end());
        learned.insert(learned.end(), b.begin(), b.end());
    }
    if (ops) printOps(learned);
    printTables(plain, "The base entry's roofline:");
    printTables(learned,
                "A machine learned from the other models' profiles (calibrate --from; targets: median op error\n"
                "<= 20 %, model sum within 10 %):");
    return 0;
}

int runOpTimesBench(Args& args) {
    if (const std::optional<std::string> pairs = args.take("runtime")) return runRuntimeBench(args, *pairs);
    const std::string data = args.take("data", defaultDataDir());
    const std::optional<std::string> device = args.take("device");
    const bool quick = args.takeFlag("quick");
    const bool ops = args.takeFlag("ops");
    const int repeats = static_cast<int>(args.takeIntIn("repeats", quick ? 2 : 20, 1, 1000));
    args.finish(1);   // the bench's name
    loadNeuralMethods();
    const models::TimingTools tools = models::timingTools();
    if (!tools.profile || !tools.calibrate) throw IoError("bench cost-model needs the neural module (LibTorch)" + neuralUnavailableNote());
    std::vector<fs::path> files = distinctModels(onnxModelFiles(data));
    if (quick && files.size() > 2) files.resize(2);   // two networks: the leave-one-out needs another
    if (files.empty()) throw IoError(data + ": no .onnx models under onnx/");
    const DeviceSpec judged = judgedDevice(device, tools, quick);
    std::printf("estimates: %s (%s)\nmeasured: every op alone with LibTorch at its shapes, 1 thread, median of %d runs\n",
                judged.name.c_str(), judged.id.c_str(), repeats);
    std::vector<OpSample> samples;
    for (const fs::path& f : files) {
        const std::vector<OpSample> model = measureModel(f, judged, tools, repeats);
        samples.insert(samples.end(), model.begin(), model.end());
    }
    if (ops) printOps(samples);
    printTables(samples, "Roofline of the calibrated entry (targets: median op error <= 30 % per class and overall, sum within 15 %):");
    printTables(corrected(samples), "With a correction per op type (per op class where the other models have fewer than 3 ops of\n"
                                    "the type; none where they have fewer of the class) fitted on the other models (targets: 15 % and 8 %):");
    return 0;
}

SL_CLI_BENCH({"cost-model",
              "op times: the calibrated roofline against LibTorch measurements on this machine",
              "Usage: schedlab-cli bench cost-model [--data DIR] [--device ID] [--repeats 20] [--ops] [--quick]\n"
              "       schedlab-cli bench cost-model --runtime MODEL=PROFILE,MODEL=PROFILE,... [--device BASE] [--ops]\n"
              "Measures every op of the ONNX models of DATA/onnx (default tests/data; one file per network)\n"
              "with LibTorch at its shapes (as `schedlab-cli profile` does) and compares each with\n"
              "the roofline estimate of this machine's calibrated entry (`schedlab-cli calibrate` runs\n"
              "first, about 10 s, unless --device names a catalogue entry). Prints per model the summed\n"
              "measured and estimated times and the median relative error per op, per op class and\n"
              "overall; then the same with a correction per op type (or class) fitted on the other models only\n"
              "(leave one model out). Not to be confused with `bench costmodel` (evaluation speed).\n"
              "--ops: every op's measured and estimated time first. --quick: two networks, 2 runs per op, a\n"
              "quick calibration (a smoke test, not numbers).\n"
              "--runtime: profiles of any runtime you have (ONNX Runtime's, `profile`'s), one per model; leave\n"
              "one model out: each model's ops estimated by the BASE entry's roofline (default this-machine)\n"
              "and by a machine learned from the other models' profiles (calibrate --from). Needs no LibTorch.\n",
              {"quick", "ops"},
              &runOpTimesBench,
              /*needsNeuralMethods=*/true});

} // namespace
} // namespace bench_optimes
} // namespace sl::cli
