// SPDX-License-Identifier: MIT
// `schedlab-cli train regal`: options -> TrainConfig, progress lines on stdout.
#include "models/regal/trainercommand.h"

#include "models/regal/labelreport.h"
#include "models/regal/network.h"
#include "models/regal/training.h"
#include "models/train/trainers.h"

#include <cstdio>
#include <filesystem>

namespace sl::regal {

namespace {

const char* const kHelp =
    "  --families nn                  generator families of the training graphs (any `generate` family)\n"
    "  --nodes LO-HI                  forward ops of the generated graphs (40-700; their training steps have 100-2,000 ops)\n"
    "  --graphs G --validation-graphs V   generated training / validation graphs (256, 12)\n"
    "  --onnx A.onnx,B.onnx --onnx-copies C   real models: C copies each with tensor sizes x U(0.5, 1.5) join training (none, 0)\n"
    "  --validation-models A.onnx,...  real models whose SGD and Adam steps validate (none)\n"
    "  --validation-devices 2,4 --validation-budget N --validation-seeds S   (2,4; 5000; 2)\n"
    "  --inference 1                  train on the graphs as generated instead of their training steps\n"
    "  --devices 2,3,4,...            device counts of the training graphs, graph i gets the (i mod n)-th (2)\n"
    "  --objective memory|makespan    (memory)\n"
    "  --budget N --steer-after G --seeds-per-graph S   evaluations per reward (1000), plain generations before\n"
    "                                 the policy steers (3), BRKGA seeds per graph (4)\n"
    "  --learn placement,scheduling   key types the policy steers (both)\n"
    "  --batch B --samples-per-graph S --steps N --lr X --clip X   (4, 4, 2000, 3e-4, 10)\n"
    "  --sigma X --stay X             exploration noise of the shifts, price of a mean away from 0 (0.5, 0.5)\n"
    "  --state D --rounds T --aggregation mean|sum   network (32, 16, mean)\n"
    "  --heads-read-input 1           the heads read the op's own features beside the GNN's state (0)\n"
    "  --seed S --threads T --time-limit SEC   (1, 1, none)\n"
    "  --log-every K --checkpoint-every K      (25, 250; validation at every checkpoint)\n"
    "  --loss reinforce|imitation     the paper's reward, or the likelihood of the oracle's actions (reinforce)\n"
    "  --labels FILE                  train on this label set's entries of the objective and validate on its\n"
    "                                 validation entries; built first when missing (resumable; --steps 0: only build)\n"
    "  --label-steps N --label-validation N --label-budget N --label-threads T\n"
    "                                 a label set built here: entries, validation entries, evaluations of each\n"
    "                                 entry's long BRKGA run, entries side by side (480, 32, 100000, 1)\n"
    "  --teacher frees-first          with --loss imitation and no label set: imitate a rule on the generated\n"
    "                                 graphs (regal::freesFirstActions: an op's priority up when its output is\n"
    "                                 smaller than its inputs, down when larger; docs/regal.md)\n"
    "  --init FILE                    start from these weights (e.g. imitation's, before reinforce)\n"
    "  --report validation|training   print what the --init policy predicts against the label set's entries of the\n"
    "                                 objective (per device count and feature quartile) and where the oracle's gain\n"
    "                                 comes from (--validation-seeds runs each, --validation-budget), then stop\n"
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
        else throw models::TrainUsageError("--learn: placement or scheduling, not '" + item + "'");
    }
}

std::vector<int> countsOption(models::TrainOptionReader& r, const std::string& key, const std::string& fallback) {
    std::vector<int> counts;
    for (const std::string& item : listOption(r, key, fallback)) {
        try {
            std::size_t used = 0;
            counts.push_back(std::stoi(item, &used));
            if (used != item.size() || counts.back() < 1 || counts.back() > 64) throw std::invalid_argument(item);
        } catch (const std::exception&) {
            throw models::TrainUsageError("--" + key + ": device counts from 1 to 64, not '" + item + "'");
        }
    }
    return counts;
}

void readData(models::TrainOptionReader& r, TrainConfig& c) {
    c.data.families = listOption(r, "families", "nn");
    std::tie(c.data.minNodes, c.data.maxNodes) = rangeOption(r, "nodes", {40, 700});
    c.data.graphs = static_cast<int>(r.integer("graphs", c.data.graphs));
    c.validationGraphs = static_cast<int>(r.integer("validation-graphs", c.validationGraphs));
    c.data.onnxFiles = listOption(r, "onnx", "");
    c.data.onnxCopies = static_cast<int>(r.integer("onnx-copies", c.data.onnxFiles.empty() ? 0 : 8));
    c.validationModels = listOption(r, "validation-models", "");
    c.validationDevices = countsOption(r, "validation-devices", "2,4");
    c.validationBudget = r.integer("validation-budget", c.validationBudget);
    c.validationSeeds = static_cast<int>(r.integer("validation-seeds", c.validationSeeds));
    c.data.inference = r.flag("inference", false);
    c.data.deviceCounts = countsOption(r, "devices", "2");
    c.data.devices = c.data.deviceCounts.front();
    try {
        c.data.objective = objectiveFromString(r.text("objective", "memory"));
    } catch (const std::exception& e) {
        throw models::TrainUsageError(std::string("--objective: ") + e.what());
    }
}

TrainConfig readConfig(const models::TrainArgs& a) {
    models::TrainOptionReader r{a.options};
    TrainConfig c;
    readData(r, c);
    c.budget = r.integer("budget", c.budget);
    c.steerAfter = static_cast<int>(r.integer("steer-after", c.steerAfter));
    c.seedsPerGraph = static_cast<int>(r.integer("seeds-per-graph", c.seedsPerGraph));
    readLearned(r, c);
    c.batch = static_cast<int>(r.integer("batch", c.batch));
    c.samplesPerGraph = static_cast<int>(r.integer("samples-per-graph", c.samplesPerGraph));
    c.steps = r.integer("steps", c.steps);
    c.learningRate = r.number("lr", c.learningRate);
    c.clipNorm = r.number("clip", c.clipNorm);
    c.sigma = r.number("sigma", c.sigma);
    c.stayWeight = r.number("stay", c.stayWeight);
    c.state = static_cast<int>(r.integer("state", c.state));
    c.rounds = static_cast<int>(r.integer("rounds", c.rounds));
    const std::string aggregation = r.text("aggregation", "mean");
    if (aggregation != "mean" && aggregation != "sum") throw models::TrainUsageError("--aggregation: mean or sum");
    c.meanAggregation = aggregation == "mean";
    c.headsReadInput = r.flag("heads-read-input", false);
    c.seed = static_cast<std::uint64_t>(r.integer("seed", static_cast<long long>(c.seed)));
    c.threads = static_cast<int>(r.integer("threads", c.threads));
    c.timeLimit = r.number("time-limit", c.timeLimit);
    c.logEvery = static_cast<int>(r.integer("log-every", c.logEvery));
    c.checkpointEvery = static_cast<int>(r.integer("checkpoint-every", c.checkpointEvery));
    c.loss = r.text("loss", c.loss);
    if (c.loss != "reinforce" && c.loss != "imitation") throw models::TrainUsageError("--loss: reinforce or imitation");
    c.labels = r.text("labels", "");
    c.teacher = r.text("teacher", "");
    if (!c.teacher.empty() && c.teacher != "frees-first") throw models::TrainUsageError("--teacher: frees-first");
    c.labelSize.train = static_cast<int>(r.integer("label-steps", c.labelSize.train));
    c.labelSize.validation = static_cast<int>(r.integer("label-validation", c.labelSize.validation));
    c.labelSize.guideBudget = r.integer("label-budget", c.labelSize.guideBudget);
    c.labelSize.threads = static_cast<int>(r.integer("label-threads", c.labelSize.threads));
    c.init = r.text("init", "");
    c.report = r.text("report", "");
    if (!c.report.empty() && c.report != "validation" && c.report != "training")
        throw models::TrainUsageError("--report: validation or training");
    c.out = r.text("out", "regal.slw");
    c.resume = r.flag("resume", false);
    r.rejectUnknown();
    if (c.batch < 1 || c.samplesPerGraph < 2 || c.steps < 0 || c.budget < 2 || c.steerAfter < 0 || c.seedsPerGraph < 1 || c.threads < 1 ||
        c.logEvery < 1 || c.checkpointEvery < 1 || c.state < 1 || c.rounds < 0 || c.validationGraphs < 0 || c.validationSeeds < 1 ||
        c.validationBudget < 2 || !(c.learningRate > 0) || c.clipNorm < 0 || !(c.sigma > 0) || c.stayWeight < 0 ||
        c.labelSize.train < 1 || c.labelSize.validation < 0 || c.labelSize.guideBudget < 2 || c.labelSize.threads < 1)
        throw models::TrainUsageError("counts, sizes and budgets >= 1 (--samples-per-graph >= 2, --rounds, --steer-after >= 0); "
                                      "--lr, --sigma > 0; --clip, --stay >= 0");
    c.command = a.commandLine;
    c.dist = a.dist;
    return c;
}

void printLine(const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
}

/// --report: the policy against the label set (models/regal/labelreport.h).
int report(const TrainConfig& c) {
    if (c.labels.empty()) throw models::TrainUsageError("--report reads a label set: give --labels FILE");
    RegalPolicy policy = c.init.empty() ? RegalPolicy(NetworkConfig{}) : loadPolicy(c.init);
    policy->eval();
    LabelReportConfig rc;
    rc.objective = c.data.objective;
    rc.validationEntries = c.report == "validation";
    rc.seeds = c.validationSeeds;
    rc.steerAfter = c.steerAfter;
    rc.budget = c.validationBudget;
    rc.threads = c.threads;
    printLabelReport(policy, loadOracleLabelSet(c.labels), rc, printLine);
    return 0;
}

int run(const models::TrainArgs& a) {
    const TrainConfig c = readConfig(a);
    printLine(c.command);
    if (c.loss == "imitation" && c.labels.empty() == c.teacher.empty())
        throw models::TrainUsageError(
            "--loss imitation learns from a label set or from a rule: give --labels FILE or --teacher frees-first");
    if (!c.labels.empty() && !std::filesystem::exists(c.labels)) buildOracleLabelSet(c.labels, c.labelSize, printLine, a.stop);
    if (!c.report.empty()) return report(c);
    if (c.steps == 0 && !c.labels.empty()) return 0;
    const TrainReport rep = trainRegal(c, printLine, a.stop);
    const char* window = c.loss == "imitation" ? "nll/key %.4f -> %.4f" : "draws %+.3f -> %+.3f %%";
    std::printf("done: %lld steps in %.0f s; %s; best validation %+.3f %% vs plain BRKGA at step %lld; weights %s\n",
                static_cast<long long>(rep.steps), rep.seconds, models::formatText(window, rep.firstReward, rep.lastReward).c_str(),
                rep.bestValidation, static_cast<long long>(rep.bestStep), c.out.c_str());
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
