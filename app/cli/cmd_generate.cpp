// SPDX-License-Identifier: MIT
// `schedlab-cli generate FAMILY --nodes N --seed S --out FILE`: seeded random instances.
#include "command.h"
#include "problemargs.h"

#include "core/generators/generators.h"
#include "core/io/graphio.h"

#include <algorithm>
#include <iostream>

namespace sl::cli {
namespace {

int runGenerate(Args& args) {
    const std::string family = args.positional(0, "generator family");
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
        throw UsageError("unknown family '" + family + "'; one of:" + list);
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
           "Writes a random instance (graph and the platform it is meant for) as native JSON.\n"
           "The same family, size and seed always give the same graph. 'nn' makes network-like\n"
           "graphs (ResNet, Inception, DenseNet, Transformer styles; docs/training-graphs.md).\n\n"
           "Families:" + list + "\n\n"
           "Options:\n"
           "  --nodes N    number of ops (job-shop: rounded to jobs x machines; default 100); with\n"
           "               --training, the forward graph's\n"
           "  --seed S     random seed (default 1)\n"
           "  --out FILE   output file (required)\n"
           "  --training R write the generated graph's training step instead: sgd or adam\n";
}

SL_CLI_COMMAND({"generate", "write a seeded random instance (layered, erdos-renyi, sbm, jobshop, ...)",
                generateHelp(), {}, &runGenerate});

} // namespace
} // namespace sl::cli
