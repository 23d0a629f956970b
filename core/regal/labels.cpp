// SPDX-License-Identifier: MIT
#include "core/regal/labels.h"

#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/regal/dataset.h"
#include "core/regal/search.h"
#include "core/util/atomicfile.h"
#include "core/util/jsonlines.h"
#include "core/util/random.h"
#include "core/util/workerpool.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace sl::regal {

namespace {

constexpr std::int64_t kPlainBudget = 5000;

double secondsSince(std::chrono::steady_clock::time_point begin) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

nlohmann::json toJson(const OracleLabel& l, int index, bool validation) {
    return {{"part", validation ? "validation" : "train"}, {"index", index}, {"family", l.spec.family},
            {"nodes", l.spec.nodes}, {"seed", l.spec.seed}, {"training", l.spec.training},
            {"devices", l.spec.devices}, {"objective", toString(l.spec.objective)}, {"ops", l.ops},
            {"cost", l.cost}, {"plain_cost", l.plainCost}, {"placement", l.placement}, {"sequence", l.sequence}};
}

/// Rebuilds the entry's problem and checks that its label decodes to the recorded cost.
OracleLabel fromJson(const nlohmann::json& j) {
    OracleLabel l;
    l.spec = {j.at("family").get<std::string>(), j.at("nodes").get<int>(), j.at("seed").get<std::uint64_t>(),
              j.at("training").get<std::string>(), j.at("devices").get<int>(),
              objectiveFromString(j.at("objective").get<std::string>())};
    l.ops = j.at("ops").get<int>();
    l.cost = j.at("cost").get<double>();
    l.plainCost = j.at("plain_cost").get<double>();
    l.placement = j.at("placement").get<std::vector<int>>();
    l.sequence = j.at("sequence").get<std::vector<int>>();
    l.problem = problemOf(l.spec);
    const Problem& problem = l.problem;
    if (problem.g().opCount() != l.ops || static_cast<int>(l.placement.size()) != l.ops)
        throw std::runtime_error("the entry's graph has " + std::to_string(problem.g().opCount()) + " ops, its placement " +
                                 std::to_string(l.placement.size()));
    RegalDecoder decoder(problem);
    const double cost = decoder.decode(keysOf(l, decoder.layout()));
    if (cost != l.cost || !std::ranges::equal(decoder.placement(), l.placement))
        throw std::runtime_error("the entry's label decodes to cost " + std::to_string(cost) + ", not the recorded " +
                                 std::to_string(l.cost));
    return l;
}

/// A finished entry's line and the seconds its runs took.
struct DoneEntry {
    std::string line;
    double seconds = 0;
};

/// Entries already in FILE.partial (a torn last line is ignored and rewritten).
std::map<int, DoneEntry> readPartial(const std::string& partial) {
    std::map<int, DoneEntry> done;
    std::ifstream in(partial);
    for (std::string line; std::getline(in, line);) {
        try {
            const nlohmann::json j = nlohmann::json::parse(line);
            done[j.at("index").get<int>()] = {line, j.value("seconds", 0.0)};
        } catch (const std::exception&) {
        }
    }
    return done;
}

} // namespace

OracleSpec oracleSpec(int i, bool validation) {
    const std::uint64_t seed = (validation ? kOracleValidationSeedBase : kOracleTrainSeedBase) + static_cast<std::uint64_t>(i);
    Rng rng(seed ^ 0x2545F4914F6CDD1DULL);   // not the generator's own stream of the same seed
    OracleSpec s;
    s.seed = seed;
    const int devices[] = {2, 3, 4, 8};
    s.devices = devices[rng.integer(0, 3)];
    s.objective = rng.uniform() < 0.6 ? Objective::Memory : Objective::Makespan;
    if (i % 5 == 4) {
        s.family = "layered";
        s.nodes = static_cast<int>(rng.integer(100, 1000));
    } else {
        s.family = "nn";
        s.nodes = static_cast<int>(rng.integer(40, 700));
        s.training = i % 2 == 0 ? "sgd" : "adam";
    }
    return s;
}

Problem problemOf(const OracleSpec& spec) {
    GeneratedInstance inst = generateInstance(spec.family, spec.nodes, spec.seed);
    std::shared_ptr<const Graph> graph = inst.graph;
    if (!spec.training.empty()) {
        const std::optional<UpdateRule> rule = parseUpdateRule(spec.training);
        if (!rule) throw std::invalid_argument("unknown training step '" + spec.training + "'");
        graph = std::make_shared<Graph>(makeTrainingGraph(*inst.graph, {.rule = *rule}));
    }
    return regalProblem(std::move(graph), spec.devices, spec.objective);
}

std::string describe(const OracleSpec& spec) {
    return spec.family + ":" + std::to_string(spec.nodes) + ":" + std::to_string(spec.seed) +
           (spec.training.empty() ? "" : " " + spec.training) + ", " + std::to_string(spec.devices) + " devices, " +
           toString(spec.objective);
}

std::vector<OpId> orderOf(const OracleLabel& label) {
    std::vector<OpId> order;
    for (const int item : label.sequence)
        if (item >= 0) order.push_back(static_cast<OpId>(item));
    return order;
}

std::vector<double> keysOf(const OracleLabel& label, const RegalLayout& layout) {
    std::vector<double> keys(layout.size(), 0.0);
    for (int v = 0; v < layout.ops; ++v) keys[layout.affinity(static_cast<OpId>(v), label.placement[static_cast<size_t>(v)])] = 1.0;
    const double n = static_cast<double>(label.sequence.size());
    for (size_t rank = 0; rank < label.sequence.size(); ++rank) {
        const int item = label.sequence[rank];
        const double key = 1.0 - static_cast<double>(rank) / n;   // Kahn's takes the highest ready key first
        if (item >= 0) {
            keys[layout.priority(static_cast<OpId>(item))] = key;
        } else {
            const int code = -1 - item;
            keys[layout.transfer(static_cast<TensorId>(code / layout.devices), code % layout.devices)] = key;
        }
    }
    return keys;
}

OracleLabel labelEntry(const OracleSpec& spec, std::int64_t guideBudget, std::stop_token stop) {
    OracleLabel l;
    l.problem = problemOf(spec);
    const Problem& problem = l.problem;
    SearchRequest guide;
    guide.budget = guideBudget;
    guide.seed = spec.seed;
    const brkga::Result best = search(problem, guide, {}, stop).result;
    SearchRequest plain;
    plain.budget = kPlainBudget;
    plain.seed = 1;
    l.spec = spec;
    l.ops = problem.g().opCount();
    l.plainCost = search(problem, plain, {}, stop).result.bestCost;
    RegalDecoder decoder(problem);
    l.cost = decoder.decode(best.best);
    l.placement.assign(decoder.placement().begin(), decoder.placement().end());
    const std::span<const TransferStep> transfers = decoder.transfers();
    for (const int item : decoder.sequence()) {
        if (item < l.ops) {
            l.sequence.push_back(item);
        } else {
            const TransferStep& t = transfers[static_cast<size_t>(item - l.ops)];
            l.sequence.push_back(-1 - (static_cast<int>(t.tensor) * spec.devices + t.device));
        }
    }
    return l;
}

void buildOracleLabelSet(const std::string& path, const OracleLabelSetSize& size,
                         const std::function<void(const std::string&)>& log, std::stop_token stop) {
    const std::string partial = path + ".partial";
    std::map<int, DoneEntry> done = readPartial(partial);
    const int total = size.validation + size.train;
    std::vector<int> todo;
    for (int i = 0; i < total; ++i)
        if (!done.contains(i)) todo.push_back(i);
    log("labelling " + std::to_string(todo.size()) + " of " + std::to_string(total) + " entries (" +
        std::to_string(done.size()) + " done in " + partial + "), " + std::to_string(size.guideBudget) +
        " evaluations each");
    {   // rewrite the partial file without a torn line, then append to it
        std::ostringstream kept;
        for (const auto& [i, entry] : done) kept << entry.line << "\n";
        writeFileAtomically(partial, kept.str());
    }
    std::ofstream out(partial, std::ios::app);
    std::mutex mutex;
    int labelled = 0;
    WorkerPool pool(size.threads);
    pool.run(static_cast<int>(todo.size()), [&](int k, int) {
        if (stop.stop_requested()) return;
        const int i = todo[static_cast<size_t>(k)];
        const bool validation = i < size.validation;
        const auto begin = std::chrono::steady_clock::now();
        const OracleLabel l = labelEntry(oracleSpec(validation ? i : i - size.validation, validation), size.guideBudget, stop);
        if (stop.stop_requested()) return;
        const double seconds = secondsSince(begin);
        nlohmann::json j = toJson(l, i, validation);
        j["seconds"] = seconds;
        const std::lock_guard lock(mutex);
        done[i] = {j.dump(), seconds};
        out << done[i].line << "\n" << std::flush;
        if (++labelled % 10 == 0 || labelled == static_cast<int>(todo.size()))
            log("labelled " + std::to_string(labelled) + " of " + std::to_string(todo.size()) + " (" + describe(l.spec) + ": " +
                std::to_string(l.ops) + " ops, guide " + std::to_string(l.cost) + ", plain 5K " + std::to_string(l.plainCost) + ")");
    });
    out.close();
    if (stop.stop_requested()) throw std::runtime_error("labelling stopped; " + partial + " keeps the finished entries");
    double seconds = 0;
    for (const auto& [i, entry] : done) seconds += entry.seconds;
    std::ostringstream file;
    file << nlohmann::json{{"schedlab_regal_labels", 1}, {"guide_budget", size.guideBudget}, {"cpu_seconds", seconds},
                           {"labeller", "plain BRKGA over REGAL's chromosome, seed = the entry's; plain_cost: 5,000 evaluations, seed 1"}}
                .dump()
         << "\n";
    for (const auto& [i, entry] : done) file << entry.line << "\n";
    writeFileAtomically(path, file.str());
    std::filesystem::remove(partial);
}

OracleLabelSet loadOracleLabelSet(const std::string& path) {
    OracleLabelSet set;
    forEachJsonLine(path, [&](int lineNo, const nlohmann::json& j) {
        if (lineNo == 1) {
            if (j.value("schedlab_regal_labels", 0) != 1) throw std::runtime_error("not a REGAL label set (version 1)");
            set.guideBudget = j.value("guide_budget", std::int64_t{0});
            set.cpuSeconds = j.value("cpu_seconds", 0.0);
            return;
        }
        (j.at("part").get<std::string>() == "validation" ? set.validation : set.train).push_back(fromJson(j));
    });
    if (set.train.empty()) throw std::runtime_error(path + ": no training entries");
    return set;
}

} // namespace sl::regal
