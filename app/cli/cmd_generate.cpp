// SPDX-License-Identifier: MIT
// `schedlab-cli generate FAMILY --nodes N --seed S --out FILE`: seeded random instances; the
// `hlo-step` family writes an XLA HLO text module (core/generators/hlotrainingstep.h) instead.
#include "command.h"
#include "problemargs.h"

#include "core/generators/generators.h"
#include "core/generators/hlotrainingstep.h"
#include "core/io/graphio.h"
#include "core/util/atomicfile.h"

#include <algorithm>
#include <iostream>

namespace sl::cli {
namespace {

constexpr const char* kHloStepFamily = "hlo-step";

HloStepSpec::Model takeHloModel(Args& args) {
    const std::string model = args.take("model", "transformer");
    if (model == "mlp") return HloStepSpec::Model::Mlp;
    if (model == "transformer") return HloStepSpec::Model::Transformer;
    throw UsageError("--model expects mlp or transformer, got '" + model + "'");
}

/// The value of --key, `first` (the default) or `second`: whether it is the second.
bool takeEitherOf(Args& args, const std::string& key, const std::string& first, const std::string& second) {
    const std::string value = args.take(key, first);
    if (value != first && value != second) throw UsageError("--" + key + " expects " + first + " or " + second + ", got '" + value + "'");
    return value == second;
}

HloStepSpec takeHloStepSpec(Args& args) {
    HloStepSpec spec;
    spec.model = takeHloModel(args);
    spec.layers = static_cast<int>(args.takeIntIn("layers", spec.layers, 1, 128));
    spec.hidden = static_cast<int>(args.takeIntIn("hidden", spec.hidden, 1, 65536));
    spec.batch = static_cast<int>(args.takeIntIn("batch", spec.batch, 1, 4096));
    spec.sequence = static_cast<int>(args.takeIntIn("seq", spec.sequence, 1, 32768));
    spec.heads = static_cast<int>(args.takeIntIn("heads", spec.heads, 1, 256));
    spec.tensorParallel = static_cast<int>(args.takeIntIn("tp", spec.tensorParallel, 1, 64));
    spec.adam = takeEitherOf(args, "optimizer", "sgd", "adam");
    spec.bf16 = takeEitherOf(args, "dtype", "f32", "bf16");
    const std::int64_t seed = args.takeInt("seed", 1);
    if (seed < 0) throw UsageError("--seed expects a non-negative whole number");
    spec.seed = static_cast<std::uint64_t>(seed);
    return spec;
}

/// `generate hlo-step`: the module text, not a native graph; --nodes is accepted and ignored.
int runGenerateHloStep(Args& args) {
    const HloStepSpec spec = takeHloStepSpec(args);
    args.take("nodes");
    if (args.take("training")) throw UsageError("hlo-step is a training step already: pick its optimizer with --optimizer");
    const auto out = args.take("out");
    args.finish(1);
    if (!out) throw UsageError("--out FILE is required");
    HloStepModule module;
    try {
        module = generateHloTrainingStep(spec);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    writeFileAtomically(*out, module.text);
    std::cout << kHloStepFamily << " (" << (spec.model == HloStepSpec::Model::Mlp ? "mlp" : "transformer") << ", "
              << spec.layers << (spec.layers == 1 ? " layer, " : " layers, ") << (spec.adam ? "adam" : "sgd")
              << (spec.tensorParallel > 1 ? ", tp " + std::to_string(spec.tensorParallel) : "") << (spec.bf16 ? ", bf16" : "")
              << ", seed " << spec.seed << "): " << module.ops.size() << " ops -> " << *out << "\n";
    return 0;
}

int runGenerate(Args& args) {
    const std::string family = args.positional(0, "generator family");
    if (family == kHloStepFamily) return runGenerateHloStep(args);
    const std::int64_t nodes = args.takeInt("nodes", 100);
    const std::int64_t seed = args.takeInt("seed", 1);
    const auto out = args.take("out");
    const std::optional<UpdateRule> training = takeTraining(args);
    args.finish(1);
    if (!out) throw UsageError("--out FILE is required");
    if (nodes < 1 || nodes > 10'000'000) throw UsageError("--nodes expects 1..10000000");
    if (seed < 0) throw UsageError("--seed expects a non-negative whole number");
    const auto families = generatorFamilies();
    if (std::find(families.begin(), families.end(), family) == families.end()) {
        std::string list;
        for (const auto& f : families) list += " " + f;
        throw UsageError("unknown family '" + family + "'; one of:" + list + " " + kHloStepFamily);
    }
    GeneratedInstance inst = generateInstance(family, static_cast<int>(nodes), static_cast<std::uint64_t>(seed));
    if (training) inst.graph = std::make_shared<Graph>(makeTrainingGraph(*inst.graph, {.rule = *training}));
    saveGraphJson(*inst.graph, &inst.platform, *out);
    std::cout << family << " (seed " << seed
              << (training ? ", training step " + std::string(updateRuleName(*training)) : "")
              << "): " << inst.graph->opCount() << " ops, " << inst.graph->edgeCount() << " edges, "
              << inst.platform.deviceCount() << (inst.platform.deviceCount() == 1 ? " device -> " : " devices -> ")
              << *out << "\n";
    return 0;
}

std::string generateHelp() {
    std::string list;
    for (const auto& f : generatorFamilies()) list += " " + f;
    return "Usage: schedlab-cli generate FAMILY --nodes N --seed S --out FILE.json [--training sgd|adam]\n"
           "       schedlab-cli generate hlo-step [--model mlp|transformer] [--layers N] ... --out FILE.hlo\n"
           "Writes a random instance (graph and the platform it is meant for) as native JSON.\n"
           "The same family, size and seed always give the same graph. 'nn' makes network-like\n"
           "graphs (ResNet, Inception, DenseNet, Transformer styles; docs/training-graphs.md).\n"
           "'hlo-step' writes an XLA HLO text module instead: a training step as PyTorch/XLA compiles\n"
           "it (forward, loss, backward, optimizer update, the updated weights aliased to their\n"
           "parameters), which every command reads as a graph (docs/training-graphs.md).\n\n"
           "Families:" + list + " " + kHloStepFamily + "\n\n"
           "Options:\n"
           "  --nodes N    number of ops (job-shop: rounded to jobs x machines; default 100); with\n"
           "               --training, the forward graph's; ignored by hlo-step (see --layers)\n"
           "  --seed S     random seed (default 1); hlo-step: picks biases, the GELU form, the causal\n"
           "               mask, the embedding lowering, weight decay and a few widths\n"
           "  --out FILE   output file (required)\n"
           "  --training R write the generated graph's training step instead: sgd or adam\n\n"
           "hlo-step options:\n"
           "  --model M      mlp or transformer (default transformer)\n"
           "  --layers N     hidden layers (mlp) or blocks (transformer); default 2\n"
           "  --hidden H     hidden width (default 128)\n"
           "  --batch B      batch size (default 8)\n"
           "  --seq S        tokens per sample (transformer; default 64)\n"
           "  --heads A      attention heads, a divisor of --hidden (transformer; default 4)\n"
           "  --tp T         tensor-parallel shards: Megatron-style split weights and all-reduces;\n"
           "                 a divisor of --heads for a transformer (default 1)\n"
           "  --optimizer O  sgd or adam (Adam's m and v are updated in place too; default sgd)\n"
           "  --dtype D      f32, or bf16 for the matmuls (autocast; default f32)\n";
}

SL_CLI_COMMAND({"generate", "write a seeded random instance (layered, erdos-renyi, sbm, jobshop, ...)",
                generateHelp(), {}, &runGenerate});

} // namespace
} // namespace sl::cli
