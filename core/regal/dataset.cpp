// SPDX-License-Identifier: MIT
#include "core/regal/dataset.h"

#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"
#include "core/regal/augment.h"
#include "core/util/fnv.h"
#include "core/util/random.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace sl::regal {

namespace {

std::uint64_t firstSeed(Split split) {
    switch (split) {
    case Split::Training: return 3000000;
    case Split::Validation: return 4000000;
    case Split::HeldOut: return 5000000;
    }
    return 0;
}

/// The basis the dataset's name hash has always used (FNV's with its last digit dropped): kept so
/// that every file keeps its perturbation streams, and the shipped REGAL weights their data.
constexpr std::uint64_t kNameHashBasis = 1469598103934665603ULL;

/// SGD for even seeds, Adam for odd ones: both update rules in every split.
UpdateRule ruleFor(std::uint64_t seed) { return seed % 2 == 0 ? UpdateRule::Sgd : UpdateRule::Adam; }


std::shared_ptr<const Graph> trainingStep(const Graph& forward, const DatasetSpec& spec, std::uint64_t seed,
                                          std::string& name) {
    if (spec.inference) return std::make_shared<Graph>(forward);
    const UpdateRule rule = ruleFor(seed);
    name += " " + std::string(updateRuleName(rule));
    return std::make_shared<Graph>(makeTrainingGraph(forward, {.rule = rule}));
}

} // namespace

Problem regalProblem(std::shared_ptr<const Graph> graph, int devices, Objective objective) {
    Problem p;
    p.graph = std::move(graph);
    p.platform = Platform::identical(devices);
    p.objective.kind = objective;
    return p;
}

std::vector<Instance> makeDataset(const DatasetSpec& spec, Split split) {
    if (spec.families.empty() && spec.onnxFiles.empty()) throw std::invalid_argument("REGAL dataset: no families and no ONNX files");
    if (spec.minNodes < 2 || spec.maxNodes < spec.minNodes || spec.graphs < 0 || spec.devices < 1 || spec.onnxCopies < 0 ||
        std::any_of(spec.deviceCounts.begin(), spec.deviceCounts.end(), [](int d) { return d < 1; }))
        throw std::invalid_argument("REGAL dataset: sizes, counts and devices out of range");
    std::vector<Instance> out;
    const std::uint64_t base = firstSeed(split);
    for (int i = 0; i < spec.graphs && !spec.families.empty(); ++i) {
        const std::uint64_t seed = base + static_cast<std::uint64_t>(i);
        Rng rng(seed);
        const std::string& family = spec.families[static_cast<std::size_t>(i) % spec.families.size()];
        const int nodes = static_cast<int>(rng.integer(spec.minNodes, spec.maxNodes));
        GeneratedInstance g = generateInstance(family, nodes, seed);
        std::string name = family + ":" + std::to_string(nodes) + ":" + std::to_string(seed);
        const int devices = spec.deviceCounts.empty() ? spec.devices
                                                      : spec.deviceCounts[static_cast<std::size_t>(i) % spec.deviceCounts.size()];
        out.push_back({name, regalProblem(trainingStep(*g.graph, spec, seed, name), devices, spec.objective)});
    }
    for (const std::string& file : spec.onnxFiles) {
        const LoadedGraph loaded = loadGraph(file);
        const std::string stem = std::filesystem::path(file).filename().string();
        for (int c = 0; c < spec.onnxCopies; ++c) {
            const std::uint64_t seed = base + 100000 + static_cast<std::uint64_t>(c);
            // Copy 0 of the held-out split is the model itself; the rest carry the noise of Paliwal et al.
            // 2020, App. A.1.
            const bool original = split == Split::HeldOut && c == 0;
            const Graph g = original ? *loaded.graph : perturbTensorSizes(*loaded.graph, deriveSeed(seed, fnv1a64(stem, kNameHashBasis)));
            std::string name = stem + " #" + std::to_string(c);
            out.push_back({name, regalProblem(trainingStep(g, spec, seed, name), spec.devices, spec.objective)});
        }
    }
    return out;
}

std::vector<Instance> realTrainingSteps(const std::vector<std::string>& files, int devices, Objective objective) {
    std::vector<Instance> out;
    for (const std::string& file : files) {
        const LoadedGraph loaded = loadGraph(file);
        const std::string stem = std::filesystem::path(file).filename().string();
        for (const UpdateRule rule : {UpdateRule::Sgd, UpdateRule::Adam}) {
            auto step = std::make_shared<Graph>(makeTrainingGraph(*loaded.graph, {.rule = rule}));
            out.push_back({stem + " " + std::string(updateRuleName(rule)), regalProblem(std::move(step), devices, objective)});
        }
    }
    return out;
}

} // namespace sl::regal
