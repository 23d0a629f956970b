// SPDX-License-Identifier: MIT
#include "problemargs.h"

#include "core/profile/profilefile.h"
#include "core/timing/machine.h"
#include "core/timing/retime.h"
#include "core/util/limits.h"

#include <algorithm>

namespace sl::cli {
namespace {

/// No platform given or in the file: one device per machine type the graph uses (one device when
/// every op has type 0), so that typed graphs (e.g. a job-shop converted to DOT) still run.
Platform defaultPlatform(const Graph& g) {
    int maxType = 0;
    for (const Op& op : g.ops()) maxType = std::max(maxType, op.machineType);
    Platform p = Platform::identical(maxType + 1);
    for (int t = 0; t <= maxType; ++t) p.devices[static_cast<size_t>(t)].machineType = t;
    return p;
}

} // namespace

GraphFormat takeGraphFormat(Args& args) {
    const auto name = args.take("format");
    if (!name) return GraphFormat::Auto;
    try {
        return graphFormatFromString(*name);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

std::optional<UpdateRule> takeTraining(Args& args) {
    const auto text = args.take("training");
    if (!text) return std::nullopt;
    const auto rule = parseUpdateRule(*text);
    if (!rule) throw UsageError("--training expects sgd or adam, got '" + *text + "'");
    return rule;
}

void applyTraining(LoadedGraph& loaded, std::optional<UpdateRule> rule) {
    if (!rule) return;
    try {
        loaded.graph = std::make_shared<Graph>(makeTrainingGraph(*loaded.graph, {.rule = *rule}));
    } catch (const GraphError& e) {
        throw IoError(loaded.sourcePath + ": " + e.what());
    }
}

// One text for problemOptionsHelp() and trainingOptionHelp() (string literals concatenate).
#define SL_TRAINING_HELP                                                                                               \
    "  --training R          use the graph's training step instead (docs/training-graphs.md):\n"                       \
    "                        forward ops, loss, a gradient op per op, an update per weighted op;\n"                    \
    "                        R = sgd or adam (Adam's update also holds 2x the weights of state)\n"

const char* trainingOptionHelp() { return SL_TRAINING_HELP; }

ProblemSpec takeProblemSpec(Args& args) {
    ProblemSpec spec;
    spec.format = takeGraphFormat(args);
    spec.training = takeTraining(args);
    spec.devices = args.takeInt("devices", 0);
    spec.platformPath = args.take("platform");
    spec.preset = args.take("preset");
    spec.device = args.take("device");
    spec.profile = args.take("profile");
    spec.sharedLinks = args.takeFlag("shared-links");
    spec.freeLinks = args.takeFlag("free-links");
    if (spec.sharedLinks && spec.freeLinks) throw UsageError("give one of --shared-links and --free-links");
    if ((spec.preset ? 1 : 0) + (spec.device ? 1 : 0) + (spec.platformPath ? 1 : 0) > 1)
        throw UsageError("give one of --preset, --device and --platform");
    const std::string objective = args.take("objective", "makespan");
    const std::string clock = args.take("memory-clock", "step");
    spec.objective.memoryWeight = args.takeDouble("memory-weight", 0.5);
    spec.memoryCap = args.takeDouble("memory-cap", 0);
    if (spec.devices < 0 || spec.devices > limits().devices)
        throw UsageError("--devices expects 1.." + std::to_string(limits().devices));
    if (spec.devices > 0 && spec.platformPath) throw UsageError("give either --devices or --platform, not both");
    if (spec.preset && spec.preset->empty()) throw UsageError("--preset expects a preset id (schedlab-cli devices lists them)");
    if (spec.device && spec.device->empty()) throw UsageError("--device expects a device id (schedlab-cli devices lists them)");
    if (spec.objective.memoryWeight < 0 || spec.objective.memoryWeight > 1)
        throw UsageError("--memory-weight expects a number in [0, 1]");
    if (spec.memoryCap < 0) throw UsageError("--memory-cap expects a positive number of bytes");
    try {
        spec.objective.kind = objectiveFromString(objective);
        spec.objective.memoryClock = memoryClockFromString(clock);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return spec;
}

namespace {

/// The machine of --preset or --device, in the graph's time unit (core's one rule); asking for
/// more devices than the preset has is a usage error.
Platform catalogueMachine(const ProblemSpec& spec, const Graph& g) {
    const MachineName name{spec.preset.value_or(""), spec.device.value_or(""), static_cast<int>(spec.devices)};
    try {
        return resolveMachine(name, DeviceCatalog::instance(), g.timeUnit());
    } catch (const MachineSizeError& e) {
        throw UsageError(std::string("--devices: ") + e.what());
    }
}

/// --shared-links / --free-links: only a topology has links to share.
void shareLinks(Platform& platform, bool shared) {
    if (platform.topology.empty())
        throw UsageError(std::string(shared ? "--shared-links" : "--free-links") +
                         " needs a platform with a topology (--preset, or a platform file with \"topology\")");
    platform.topology.shared = shared;
}

} // namespace

LoadedProblem loadProblem(const std::string& path, const ProblemSpec& spec) {
    LoadedProblem out;
    out.problem.objective = spec.objective;
    out.loaded = loadGraph(path, spec.format);
    if (spec.profile) {
        auto measured = std::make_shared<Graph>(*out.loaded.graph);
        out.profile = applyProfileFile(*measured, *spec.profile);
        out.loaded.graph = std::move(measured);
    }
    applyTraining(out.loaded, spec.training);
    out.training = spec.training;
    out.problem.graph = out.loaded.graph;
    if (spec.preset || spec.device) out.problem.platform = catalogueMachine(spec, *out.loaded.graph);
    else if (spec.platformPath) out.problem.platform = loadPlatform(*spec.platformPath);
    else if (spec.platform) out.problem.platform = *spec.platform;
    else if (spec.devices > 0) out.problem.platform = Platform::identical(static_cast<int>(spec.devices));
    else if (out.loaded.platform) out.problem.platform = *out.loaded.platform;
    else out.problem.platform = defaultPlatform(*out.loaded.graph);
    if (spec.memoryCap > 0)
        for (Device& d : out.problem.platform.devices) d.memoryCapacity = spec.memoryCap;
    if (spec.sharedLinks || spec.freeLinks) shareLinks(out.problem.platform, spec.sharedLinks);
    const TimedGraph timed = retimeGraph(*out.loaded.graph, out.problem.platform, DeviceCatalog::instance());
    if (timed.retimed) out.problem.graph = out.loaded.graph = timed.retimed;
    out.timing = out.profile && timed.devices.empty() ? out.profile->describe() : timed.describe();
    try {
        out.problem.check();
    } catch (const GraphError& e) {
        throw IoError(path + ": does not fit the platform: " + e.what());
    }
    return out;
}

LoadedProblem takeProblem(Args& args, std::size_t graphIndex) {
    const std::string path = args.positional(graphIndex, "graph file");
    return loadProblem(path, takeProblemSpec(args));
}

const char* problemOptionsHelp() {
    return "  --format F            graph format: json, dot, stg, jobshop, wfcommons, onnx, hlo\n"
           "                        (default: from the extension)\n" SL_TRAINING_HELP
           "  --devices N           N identical devices (default: the file's platform, else one\n"
           "                        device per machine type the graph uses)\n"
           "  --platform P.json     the machine: devices, machine types, capacities, interconnect\n"
           "  --preset ID           a real machine: its devices, their op times and its links\n"
           "                        (dgx-a100, 2x-dgx-h100, 4x-l4-pcie4, cpu-host; with --devices\n"
           "                        N, its first N devices; `schedlab-cli devices` lists them)\n"
           "  --device ID           --devices N (default 1) of one catalogue device, e.g. h100-sxm5-80gb\n"
           "                        or this-machine (after `schedlab-cli calibrate`)\n"
           "  --profile FILE        measured op times: a profile of `schedlab-cli profile`, or ONNX\n"
           "                        Runtime's profiling JSON (its ops matched by name; a profile of\n"
           "                        another model is refused)\n"
           "  --free-links          every transfer has its route to itself (contention-free); a\n"
           "                        machine with a topology (--preset, a platform file's\n"
           "                        \"topology\") shares its links by default: one transfer at a\n"
           "                        time per link (docs/time.md, \"Shared links\")\n"
           "  --shared-links        share the links of a topology whose file says \"shared\": false\n"
           "  --objective O         makespan (default), memory, or both (weighted)\n"
           "  --memory-weight W     weight of memory in 'both', in [0, 1] (default 0.5)\n"
           "  --memory-cap BYTES    memory capacity of every device (default: unlimited)\n"
           "  --memory-clock C      the peak memory the cost reads: step (default; one op or\n"
           "                        transfer per step of the order, as the papers) or time (memory\n"
           "                        over time of the timed schedule, as the memory view draws it)\n";
}

TargetArgs takeTargets(Args& args) {
    TargetArgs out;
    const auto list = args.take("target");
    const std::int64_t seed = args.takeInt("target-seed", 1);
    if (seed < 0) throw UsageError("--target-seed expects a non-negative whole number");
    out.seed = static_cast<std::uint64_t>(seed);
    if (!list) return out;
    const std::string text = *list == "all" ? "noisy,bandwidth,latency" : *list;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        const std::string item = text.substr(from, comma - from);
        try {
            if (item.rfind("measured:", 0) == 0 && item.size() > 9) {
                out.measuredProfile = item.substr(9);
                out.models.push_back(TargetModel::Measured);
            } else if (item.rfind("measured", 0) == 0) {
                throw UsageError("--target measured:FILE needs the profile's file");
            } else {
                out.models.push_back(targetModelFromString(item));
            }
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--target: ") + e.what());
        }
        from = comma + 1;
    }
    return out;
}

std::shared_ptr<const Graph> TargetArgs::measuredGraph(const Problem& p) const {
    auto measured = std::make_shared<Graph>(p.g());
    applyProfileFile(*measured, *measuredProfile);
    return measured;
}

Problem TargetArgs::problemFor(const Problem& p, TargetModel m) const {
    return m == TargetModel::Measured ? measuredTargetProblem(p, measuredGraph(p)) : targetProblem(p, m, seed);
}

const char* targetOptionsHelp() {
    return "  --target T            also judge the schedule on target models (Zhang et al. 2023, §5.1):\n"
           "                        noisy (durations x exp(N(0, 0.5^2)) per op), bandwidth (transfer\n"
           "                        delay 8 x mean duration per memory unit + 0.1 x mean), latency\n"
           "                        (0.1 x mean per unit + 2 x mean), proxy (free transfers),\n"
           "                        shared-links (the problem's machine with its links shared: a\n"
           "                        schedule planned on free links judged where transfers queue); a\n"
           "                        comma-separated list, or all (noisy,bandwidth,latency); or\n"
           "                        measured:FILE, the problem's machine with the measured op times of\n"
           "                        a profile (docs/time.md, \"A real target\"). One memory\n"
           "                        unit = 2 x the graph's mean positive tensor bytes (docs/costmodel.md)\n"
           "  --target-seed S       seed of the noisy target's durations (default 1)\n";
}

} // namespace sl::cli
