// SPDX-License-Identifier: MIT
#include "models/topoformer/labelset.h"

#include "core/costmodel/stepmemory.h"
#include "core/costmodel/validator.h"
#include "core/exact/exactmemory.h"
#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/util/atomicfile.h"
#include "core/util/random.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace sl::models {

namespace {

/// Entry i of the training part, in fives: SGD and Adam steps of 30-250 forward ops, SGD and
/// Adam steps of 250-400, and a layered graph of 50-100 ops (the paper's).
MemoryStepSpec trainSpec(int i) {
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

MemoryStepSpec validationSpec(int i) {
    const std::uint64_t seed = kLabelValidationSeedBase + static_cast<std::uint64_t>(i);
    Rng rng(seed);
    return {"nn", static_cast<int>(rng.integer(30, 250)), seed, i % 2 == 0 ? "sgd" : "adam"};
}

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

std::shared_ptr<Graph> graphOf(const MemoryStepSpec& spec) {
    GeneratedInstance inst = generateInstance(spec.family, spec.nodes, spec.seed);
    if (spec.training.empty()) return inst.graph;
    const std::optional<UpdateRule> rule = parseUpdateRule(spec.training);
    if (!rule) throw std::invalid_argument("unknown training step '" + spec.training + "'");
    return std::make_shared<Graph>(makeTrainingGraph(*inst.graph, {.rule = *rule}));
}

LabelSet buildLabelSet(const LabelSetSize& size, const std::function<void(const std::string&)>& log, std::stop_token stop) {
    const auto begin = std::chrono::steady_clock::now();
    LabelSet set;
    int proven = 0;
    for (int i = 0; i < size.validation + size.train && !stop.stop_requested(); ++i) {
        const bool validation = i < size.validation;
        LabelledStep s = label(validation ? validationSpec(i) : trainSpec(i - size.validation), size.secondsPerStep, stop);
        proven += s.optimal;
        (validation ? set.validation : set.train).push_back(std::move(s));
        if ((i + 1) % 200 == 0) log("labelled " + std::to_string(i + 1) + " steps, " + std::to_string(proven) + " proven optimal");
    }
    if (stop.stop_requested()) throw std::runtime_error("labelling stopped before it finished");
    set.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return set;
}

void saveLabelSet(const LabelSet& set, const std::string& path) {
    std::ostringstream out;
    out << nlohmann::json{{"schedlab_label_set", 1}, {"seconds", set.seconds},
                          {"labeller", "exact-memory (single device, step clock, keepOutputs = false)"}}
                .dump()
        << "\n";
    for (const LabelledStep& s : set.validation) out << toJson(s, "validation").dump() << "\n";
    for (const LabelledStep& s : set.train) out << toJson(s, "train").dump() << "\n";
    writeFileAtomically(path, out.str());
}

LabelSet loadLabelSet(const std::string& path) {
    std::istringstream in(readFile(path));
    LabelSet set;
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
        try {
            const nlohmann::json j = nlohmann::json::parse(line);
            if (lineNo == 1) {
                if (j.value("schedlab_label_set", 0) != 1) throw std::runtime_error("not a label set (version 1)");
                set.seconds = j.value("seconds", 0.0);
                continue;
            }
            (j.at("part").get<std::string>() == "validation" ? set.validation : set.train).push_back(fromJson(j));
        } catch (const std::exception& e) {
            throw std::runtime_error(path + ":" + std::to_string(lineNo) + ": " + e.what());
        }
    }
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
