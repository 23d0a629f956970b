// SPDX-License-Identifier: MIT
// `schedlab-cli train regal`: options -> TrainConfig, progress lines on stdout.
#include "models/regal/trainercommand.h"

#include "models/regal/training.h"
#include "models/train/trainers.h"

#include <cstdio>

namespace sl::regal {

namespace {

const char* const kHelp =
    "  --families nn                  generator families of the training graphs (any `generate` family)\n"
    "  --nodes LO-HI                  forward ops of the generated graphs (20-120)\n"
    "  --graphs G --validation-graphs V   generated training / validation graphs (256, 16)\n"
    "  --onnx A.onnx,B.onnx --onnx-copies C   real models: C copies each with tensor sizes x U(0.5, 1.5) (none, 0)\n"
    "  --inference 1                  train on the graphs as generated instead of their training steps\n"
    "  --devices D --objective memory|makespan   (2, memory)\n"
    "  --budget N --feature-budget N --seeds-per-graph S   BRKGA evaluations per reward (1000), feature run (400), seeds (2)\n"
    "  --learn placement,scheduling[,elite]   action types the policy steers (placement,scheduling)\n"
    "  --batch B --steps S --lr X --clip X --lambda X   (4, 2000, 1e-4, 10, 1e-4)\n"
    "  --samples-per-graph S          action draws per graph, leave-one-out advantages when S > 1 (1: the paper)\n"
    "  --state D --rounds T --k K --aggregation mean|sum   network (32, 16, 2, mean)\n"
    "  --seed S --threads T --time-limit SEC   (1, 1, none)\n"
    "  --log-every K --checkpoint-every K      (25, 250; validation at every checkpoint)\n"
    "  --out FILE                     best weights (+ FILE.card.json); checkpoints FILE.ckpt.*\n"
    "  --resume 1                     continue from FILE.ckpt.*\n";

/// An optional list option: empty text, no items.
std::vector<std::string> listOption(models::TrainOptionReader& r, const std::string& key, const std::string& fallback) {
    const std::string text = r.text(key, fallback);
    try {
        return text.empty() ? std::vector<std::string>{} : models::splitList(text);
    } catch (const std::exception& e) {
        throw models::TrainUsageError("--" + key + ": " + e.what());
    }
}

std::pair<int, int> rangeOption(models::TrainOptionReader& r, const std::string& key, std::pair<int, int> fallback) {
    const std::string text = r.text(key, "");
    try {
        return text.empty() ? fallback : models::parseRange(text);
    } catch (const std::exception& e) {
        throw models::TrainUsageError("--" + key + ": " + e.what());
    }
}

void readLearned(models::TrainOptionReader& r, TrainConfig& c) {
    c.learned = {.placement = false, .scheduling = false};
    for (const std::string& item : listOption(r, "learn", "placement,scheduling")) {
        if (item == "placement") c.learned.placement = true;
        else if (item == "scheduling") c.learned.scheduling = true;
        else if (item == "elite") c.eliteBias = true;
        else throw models::TrainUsageError("--learn: placement, scheduling or elite, not '" + item + "'");
    }
}

TrainConfig readConfig(const models::TrainArgs& a) {
    models::TrainOptionReader r{a.options};
    TrainConfig c;
    c.data.families = listOption(r, "families", "nn");
    std::tie(c.data.minNodes, c.data.maxNodes) = rangeOption(r, "nodes", {c.data.minNodes, c.data.maxNodes});
    c.data.graphs = static_cast<int>(r.integer("graphs", c.data.graphs));
    c.validationGraphs = static_cast<int>(r.integer("validation-graphs", c.validationGraphs));
    c.data.onnxFiles = listOption(r, "onnx", "");
    c.data.onnxCopies = static_cast<int>(r.integer("onnx-copies", c.data.onnxFiles.empty() ? 0 : 8));
    c.data.inference = r.flag("inference", false);
    c.data.devices = static_cast<int>(r.integer("devices", c.data.devices));
    try {
        c.data.objective = objectiveFromString(r.text("objective", "memory"));
    } catch (const std::exception& e) {
        throw models::TrainUsageError(std::string("--objective: ") + e.what());
    }
    c.budget = r.integer("budget", c.budget);
    c.featureBudget = r.integer("feature-budget", c.featureBudget);
    c.seedsPerGraph = static_cast<int>(r.integer("seeds-per-graph", c.seedsPerGraph));
    readLearned(r, c);
    c.batch = static_cast<int>(r.integer("batch", c.batch));
    c.samplesPerGraph = static_cast<int>(r.integer("samples-per-graph", c.samplesPerGraph));
    c.steps = r.integer("steps", c.steps);
    c.learningRate = r.number("lr", c.learningRate);
    c.clipNorm = r.number("clip", c.clipNorm);
    c.baselineWeight = r.number("lambda", c.baselineWeight);
    c.state = static_cast<int>(r.integer("state", c.state));
    c.rounds = static_cast<int>(r.integer("rounds", c.rounds));
    c.k = static_cast<int>(r.integer("k", c.k));
    const std::string aggregation = r.text("aggregation", "mean");
    if (aggregation != "mean" && aggregation != "sum") throw models::TrainUsageError("--aggregation: mean or sum");
    c.meanAggregation = aggregation == "mean";
    c.seed = static_cast<std::uint64_t>(r.integer("seed", static_cast<long long>(c.seed)));
    c.threads = static_cast<int>(r.integer("threads", c.threads));
    c.timeLimit = r.number("time-limit", c.timeLimit);
    c.logEvery = static_cast<int>(r.integer("log-every", c.logEvery));
    c.checkpointEvery = static_cast<int>(r.integer("checkpoint-every", c.checkpointEvery));
    c.out = r.text("out", "regal.slw");
    c.resume = r.flag("resume", false);
    r.rejectUnknown();
    if (c.batch < 1 || c.samplesPerGraph < 1 || c.steps < 0 || c.budget < 1 || c.featureBudget < 1 || c.seedsPerGraph < 1 || c.threads < 1 ||
        c.logEvery < 1 || c.checkpointEvery < 1 || c.state < 1 || c.rounds < 0 || c.k < 1 || c.k > 255 ||
        c.validationGraphs < 1 || c.data.devices < 1 || !(c.learningRate > 0) || c.clipNorm < 0 || c.baselineWeight < 0)
        throw models::TrainUsageError("counts, sizes and budgets >= 1 (--rounds >= 0, --k <= 255); --lr > 0; --clip, --lambda >= 0");
    c.command = a.commandLine;
    c.dist = a.dist;
    return c;
}

int run(const models::TrainArgs& a) {
    const TrainConfig c = readConfig(a);
    std::printf("%s\n", c.command.c_str());
    std::fflush(stdout);
    const TrainReport rep = trainRegal(c, [](const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    }, a.stop);
    std::printf("done: %lld steps in %.0f s; reward %.4f -> %.4f; best validation %+.3f %% vs plain BRKGA at step %lld; weights %s\n",
                static_cast<long long>(rep.steps), rep.seconds, rep.firstReward, rep.lastReward, rep.bestValidation,
                static_cast<long long>(rep.bestStep), c.out.c_str());
    return 0;
}

} // namespace

void registerRegalTrainer() {
    models::addTrainer({.name = "regal",
                        .summary = "REGAL (Paliwal et al., ICLR 2020): REINFORCE-trained graph network steering BRKGA's "
                                   "key distributions",
                        .help = kHelp,
                        .run = run});
}

} // namespace sl::regal
