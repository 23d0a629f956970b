// SPDX-License-Identifier: MIT
#include "models/topoformer/labelset.h"

#include "core/costmodel/stepmemory.h"
#include "core/costmodel/validator.h"
#include "core/exact/exactmemory.h"
#include "core/generators/generators.h"
#include "core/generators/hlotrainingstep.h"
#include "core/io/graphio.h"
#include "core/graph/traininggraph.h"
#include "core/util/atomicfile.h"
#include "core/util/jsonlines.h"
#include "core/util/random.h"
#include "core/util/workerpool.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <mutex>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace sl::models {

namespace {

/// Networks mix, entry i of the training part, in fives: SGD and Adam steps of 30-250 forward
/// ops, SGD and Adam steps of 250-400, and a layered graph of 50-100 ops (the paper's).
MemoryStepSpec networkTrainSpec(int i) {
    const std::uint64_t seed = kLabelTrainSeedBase + static_cast<std::uint64_t>(i);
    Rng rng(seed);
    switch (i % 5) {
    case 0: return {"nn", static_cast<int>(rng.integer(30, 250)), seed, "sgd"};
    case 1: return {"nn", static_cast<int>(rng.integer(30, 250)), seed, "adam"};
    case 2: return {"nn", static_cast<int>(rng.integer(250, 400)), seed, "sgd"};
    case 3: return {"nn", static_cast<int>(rng.integer(250, 400)), seed, "adam"};
    default: return {"layered", static_cast<int>(rng.integer(50, 100)), seed, ""};
    }
}

MemoryStepSpec networkValidationSpec(int i) {
    const std::uint64_t seed = kLabelValidationSeedBase + static_cast<std::uint64_t>(i);
    Rng rng(seed);
    return {"nn", static_cast<int>(rng.integer(30, 250)), seed, i % 2 == 0 ? "sgd" : "adam"};
}

/// Compiled-steps mix, entry i, in fours: MLP SGD, MLP Adam, transformer SGD, transformer Adam.
MemoryStepSpec compiledSpec(int i, std::uint64_t seedBase) {
    const std::uint64_t seed = seedBase + static_cast<std::uint64_t>(i);
    Rng rng(seed ^ 0x5DEECE66DULL);   // not the generator's own stream of the same seed
    const bool transformer = i % 4 >= 2;
    const int layers = static_cast<int>(transformer ? rng.integer(1, 2) : rng.integer(1, 6));
    return {transformer ? "hlo-transformer" : "hlo-mlp", layers, seed, i % 2 == 0 ? "sgd" : "adam"};
}

/// Model-shapes mix, entry i, in fours: one block SGD, one block Adam, two blocks SGD, two Adam.
MemoryStepSpec modelShapesSpec(int i, std::uint64_t seedBase) {
    return {"hlo-model", 1 + (i % 4) / 2, seedBase + static_cast<std::uint64_t>(i), i % 2 == 0 ? "sgd" : "adam"};
}

MemoryStepSpec trainSpec(LabelMix mix, int i) {
    switch (mix) {
    case LabelMix::Networks: return networkTrainSpec(i);
    case LabelMix::CompiledSteps: return compiledSpec(i, kCompiledLabelTrainSeedBase);
    case LabelMix::ModelShapes: return modelShapesSpec(i, kShapedLabelTrainSeedBase);
    }
    return {};
}

MemoryStepSpec validationSpec(LabelMix mix, int i) {
    switch (mix) {
    case LabelMix::Networks: return networkValidationSpec(i);
    case LabelMix::CompiledSteps: return compiledSpec(i, kCompiledLabelValidationSeedBase);
    case LabelMix::ModelShapes: return modelShapesSpec(i, kShapedLabelValidationSeedBase);
    }
    return {};
}

template <typename T>
T pick(Rng& rng, std::initializer_list<T> values) {
    return *(values.begin() + rng.integer(0, static_cast<std::int64_t>(values.size()) - 1));
}

int pick(Rng& rng, const std::vector<int>& values) {
    return values[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(values.size()) - 1))];
}

/// The generator spec of an hlo-* entry: its seed draws the sizes around the shapes of small
/// PyTorch/XLA modules (docs/training-graphs.md, "HLO training steps").
HloStepSpec compiledStepSpec(const MemoryStepSpec& spec) {
    HloStepSpec s;
    s.seed = spec.seed;
    s.layers = spec.nodes;
    s.adam = spec.training == "adam";
    Rng rng(spec.seed);
    s.bf16 = rng.uniform() < 0.25;
    if (spec.family == "hlo-mlp") {
        s.model = HloStepSpec::Model::Mlp;
        s.hidden = pick(rng, {64, 128, 256, 512});
        s.batch = pick(rng, {8, 16, 32, 64, 128});
        s.inputs = pick(rng, {64, 256, 784, 1024});
        s.classes = pick(rng, {10, 100, 1000});
        s.tensorParallel = pick(rng, {1, 1, 2});
        return s;
    }
    s.model = HloStepSpec::Model::Transformer;
    s.hidden = pick(rng, {64, 128, 256});
    s.heads = pick(rng, {2, 4, 8});
    s.sequence = pick(rng, {16, 32, 64, 128});
    s.batch = pick(rng, {1, 2, 4, 8});
    s.vocab = pick(rng, {500, 1000, 8000, 32000});
    const int tp = pick(rng, {1, 1, 2, 4});
    s.tensorParallel = s.heads % tp == 0 ? tp : 1;
    return s;
}

/// A transformer's shape as its published configuration gives it (hidden width, heads, MLP width,
/// vocabulary), the sequence lengths it is trained at and the tensor-parallel splits it runs with.
struct ModelShape {
    int hidden, heads, ffn, vocab;
    std::vector<int> sequences, splits;
    bool bf16;
};

LabelledStep label(const MemoryStepSpec& spec, double seconds, std::stop_token stop) {
    const std::shared_ptr<Graph> g = graphOf(spec);
    const ExactMemoryResult r = exactMinimumMemory(*g, {.timeLimit = seconds}, std::move(stop));
    return {spec, g->opCount(), r.order, r.peak, r.optimal};
}

nlohmann::json toJson(const LabelledStep& s, const char* part) {
    return {{"part", part}, {"family", s.spec.family}, {"nodes", s.spec.nodes}, {"seed", s.spec.seed},
            {"training", s.spec.training}, {"ops", s.ops}, {"peak", s.peak}, {"optimal", s.optimal}, {"order", s.order}};
}

/// Rebuilds the entry's graph and checks its label against it.
LabelledStep fromJson(const nlohmann::json& j) {
    LabelledStep s;
    s.spec = {j.at("family").get<std::string>(), j.at("nodes").get<int>(), j.at("seed").get<std::uint64_t>(),
              j.at("training").get<std::string>()};
    s.ops = j.at("ops").get<int>();
    s.order = j.at("order").get<std::vector<OpId>>();
    s.peak = j.at("peak").get<double>();
    s.optimal = j.at("optimal").get<bool>();
    const std::shared_ptr<Graph> g = graphOf(s.spec);
    if (g->opCount() != s.ops || static_cast<int>(s.order.size()) != s.ops)
        throw std::runtime_error("the entry's graph has " + std::to_string(g->opCount()) + " ops, its order " +
                                 std::to_string(s.order.size()));
    if (const std::string error = orderError(*g, s.order); !error.empty()) throw std::runtime_error("the entry's label: " + error);
    StepMemory mem(*g, 1);
    if (mem.peak(s.order) != s.peak) throw std::runtime_error("the entry's order does not have the peak it records");
    return s;
}

} // namespace

/// The generator spec of an hlo-model entry: a real model's shape, the seed picking the model,
/// sequence, split and batch (PyTorch/XLA dumps: GPT-2 at TP 1/2/8, GPT-J at TP 2, Llama at TP 4).
HloStepSpec modelShapedStepSpec(const MemoryStepSpec& spec) {
    static const ModelShape kShapes[] = {
        {768, 12, 3072, 50257, {128, 256, 512, 1024}, {1, 2, 4}, false},   // GPT-2 small
        {768, 12, 3072, 30522, {128, 512}, {1, 2, 4}, false},              // BERT base
        {4096, 32, 11008, 32000, {512, 2048, 4096}, {1, 2, 4, 8}, true},   // Llama 2 7B
        {4096, 16, 16384, 50400, {512, 2048}, {1, 2, 4, 8}, false},        // GPT-J 6B
        {32, 8, 16, 8000, {16, 64, 128}, {1, 2, 4}, true},                 // the dumps' tiny Llama
    };
    Rng rng(spec.seed);
    const ModelShape& m = kShapes[rng.integer(0, static_cast<std::int64_t>(std::size(kShapes)) - 1)];
    HloStepSpec s;
    s.model = HloStepSpec::Model::Transformer;
    s.seed = spec.seed;
    s.layers = spec.nodes;
    s.adam = spec.training == "adam";
    s.hidden = m.hidden;
    s.heads = m.heads;
    s.ffn = m.ffn;
    s.vocab = m.vocab;
    s.bf16 = m.bf16;
    s.sequence = pick(rng, m.sequences);
    s.tensorParallel = pick(rng, m.splits);
    s.batch = pick(rng, {1, 2, 4, 8});
    return s;
}

const char* labelMixName(LabelMix mix) {
    switch (mix) {
    case LabelMix::Networks: return "networks";
    case LabelMix::CompiledSteps: return "compiled";
    case LabelMix::ModelShapes: return "models";
    }
    return "";
}

std::optional<LabelMix> parseLabelMix(const std::string& name) {
    if (name == "networks") return LabelMix::Networks;
    if (name == "compiled") return LabelMix::CompiledSteps;
    if (name == "models") return LabelMix::ModelShapes;
    return std::nullopt;
}

std::shared_ptr<Graph> graphOf(const MemoryStepSpec& spec) {
    const bool compiled = spec.family == "hlo-mlp" || spec.family == "hlo-transformer";
    if (compiled || spec.family == "hlo-model") {
        const HloStepSpec step = compiled ? compiledStepSpec(spec) : modelShapedStepSpec(spec);
        const std::string name = spec.family + ":" + std::to_string(spec.nodes) + ":" + std::to_string(spec.seed);
        return parseGraph(generateHloTrainingStep(step).text, GraphFormat::Hlo, name).graph;
    }
    GeneratedInstance inst = generateInstance(spec.family, spec.nodes, spec.seed);
    if (spec.training.empty()) return inst.graph;
    const std::optional<UpdateRule> rule = parseUpdateRule(spec.training);
    if (!rule) throw std::invalid_argument("unknown training step '" + spec.training + "'");
    return std::make_shared<Graph>(makeTrainingGraph(*inst.graph, {.rule = *rule}));
}

LabelSet buildLabelSet(const LabelSetSize& size, const std::function<void(const std::string&)>& log, std::stop_token stop) {
    const auto begin = std::chrono::steady_clock::now();
    const int total = size.validation + size.train;
    std::vector<LabelledStep> entries(static_cast<size_t>(total));
    std::mutex mutex;
    int done = 0, proven = 0;
    WorkerPool pool(size.threads);
    pool.run(total, [&](int i, int) {
        if (stop.stop_requested()) return;
        const bool validation = i < size.validation;
        const MemoryStepSpec spec = validation ? validationSpec(size.mix, i) : trainSpec(size.mix, i - size.validation);
        entries[static_cast<size_t>(i)] = label(spec, size.secondsPerStep, stop);
        const std::lock_guard lock(mutex);
        proven += entries[static_cast<size_t>(i)].optimal;
        if (++done % 50 == 0 || done == total)
            log("labelled " + std::to_string(done) + " of " + std::to_string(total) + " steps, " + std::to_string(proven) +
                " proven optimal");
    });
    if (stop.stop_requested()) throw std::runtime_error("labelling stopped before it finished");
    LabelSet set;
    set.validation.assign(std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.begin() + size.validation));
    set.train.assign(std::make_move_iterator(entries.begin() + size.validation), std::make_move_iterator(entries.end()));
    set.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    set.threads = size.threads;
    set.mix = size.mix;
    return set;
}

void saveLabelSet(const LabelSet& set, const std::string& path) {
    std::ostringstream out;
    out << nlohmann::json{{"schedlab_label_set", 1}, {"seconds", set.seconds}, {"threads", set.threads},
                          {"mix", labelMixName(set.mix)},
                          {"labeller", "exact-memory (single device, step clock, keepOutputs = false)"}}
                .dump()
        << "\n";
    for (const LabelledStep& s : set.validation) out << toJson(s, "validation").dump() << "\n";
    for (const LabelledStep& s : set.train) out << toJson(s, "train").dump() << "\n";
    writeFileAtomically(path, out.str());
}

LabelSet loadLabelSet(const std::string& path) {
    LabelSet set;
    forEachJsonLine(path, [&](int lineNo, const nlohmann::json& j) {
        if (lineNo == 1) {
            if (j.value("schedlab_label_set", 0) != 1) throw std::runtime_error("not a label set (version 1)");
            set.seconds = j.value("seconds", 0.0);
            set.threads = j.value("threads", 1);
            set.mix = parseLabelMix(j.value("mix", "networks")).value_or(LabelMix::Networks);
            return;
        }
        (j.at("part").get<std::string>() == "validation" ? set.validation : set.train).push_back(fromJson(j));
    });
    if (set.train.empty() || set.validation.empty()) throw std::runtime_error(path + ": no training or no validation entries");
    return set;
}

LabelSet loadOrBuildLabelSet(const std::string& path, const LabelSetSize& size,
                             const std::function<void(const std::string&)>& log, std::stop_token stop) {
    if (std::filesystem::exists(path)) return loadLabelSet(path);
    log("building the label set " + path + ": " + std::to_string(size.train) + " training and " +
        std::to_string(size.validation) + " validation steps, exact-memory at most " + std::to_string(size.secondsPerStep) +
        " s each");
    LabelSet set = buildLabelSet(size, log, std::move(stop));
    saveLabelSet(set, path);
    return set;
}

} // namespace sl::models
