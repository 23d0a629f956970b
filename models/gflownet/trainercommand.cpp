// SPDX-License-Identifier: MIT
// `schedlab-cli train gflownet`: options -> GflowNetTrainConfig, progress lines on stdout.
#include "models/gflownet/trainercommand.h"

#include "models/gflownet/datasets.h"
#include "models/gflownet/training.h"
#include "models/train/trainers.h"

#include <cstdio>

namespace sl::gfn {

namespace {

const char* const kHelp =
    "  --architecture ready|per-state  encode-once policy scoring the ready actions (default), or the paper's,\n"
    "                                 which re-encodes every state (n + 1 encoder passes per sample)\n"
    "  --graph FILE                   single-graph mode: train on this graph (--devices M, default 4)\n"
    "  --families er,layered          conditional mode: generated families (er, or any `generate` family)\n"
    "  --nodes LO-HI --devices LO-HI  sizes and device counts of the generated graphs (15-25, 4)\n"
    "  --graphs G --validation-graphs V   generated training / validation graphs (256, 8)\n"
    "  --validation-files A,B         graph files validated on too (at the largest device count)\n"
    "  --subgraph LO-HI               train on random sub-graphs of LO-HI ops (windows of a topological order)\n"
    "  --loss lv|tb                   log-partition variance (default) or trajectory balance with learned log Z (per-state)\n"
    "  --uniform-pb 1                 per-state: uniform backward policy instead of the learned one (ready: always)\n"
    "  --sigma-min X --sigma-max X    temperature range, log-uniform (0.001, 1); --sigma X fixes it\n"
    "  --batch B --steps S --lr X --clip X   trajectories per update (32), updates (3000), Adam lr (1e-3), grad-norm clip (0 = off)\n"
    "  --width D --layers L --heads H --head-dim K --mlp M --film E   model size (64, 2, 1 per mask, 16, 128, 32)\n"
    "  --hidden H                     ready: width of the action MLP (32)\n"
    "  --seed S --threads T --time-limit SEC   (1, 1, none)\n"
    "  --log-every K --checkpoint-every K --eval-samples N   (25, 250, 100)\n"
    "  --out FILE                     the best validated weights (+ FILE.card.json); checkpoints FILE.ckpt.*\n"
    "  --resume 1                     continue from FILE.ckpt.*\n"
    "  --init W.slw                   start from these weights (fine-tuning: their architecture, so the model\n"
    "                                 size options are ignored; a fresh Adam; --resume continues the fine-tuning)\n";

std::pair<int, int> range(models::TrainOptionReader& r, const std::string& key, std::pair<int, int> fallback) {
    const std::string text = r.text(key, "");
    if (text.empty()) return fallback;
    try {
        return models::parseRange(text);
    } catch (const std::exception& e) {
        throw models::TrainUsageError("--" + key + ": " + e.what());
    }
}

int run(const models::TrainArgs& a) {
    models::TrainOptionReader r{a.options};
    GflowNetTrainConfig c;
    c.architecture = r.text("architecture", c.architecture);
    if (c.architecture != "ready" && c.architecture != "per-state") throw models::TrainUsageError("--architecture: ready or per-state");
    c.graphFile = r.text("graph", "");
    c.families = models::splitList(r.text("families", "er,layered"));
    std::tie(c.minNodes, c.maxNodes) = range(r, "nodes", {c.minNodes, c.maxNodes});
    std::tie(c.minDevices, c.maxDevices) = range(r, "devices", {c.minDevices, c.maxDevices});
    c.graphs = static_cast<int>(r.integer("graphs", c.graphs));
    c.validationGraphs = static_cast<int>(r.integer("validation-graphs", c.validationGraphs));
    const std::string files = r.text("validation-files", "");
    if (!files.empty()) c.validationFiles = models::splitList(files);
    std::tie(c.subgraphMin, c.subgraphMax) = range(r, "subgraph", {0, 0});
    const std::string loss = r.text("loss", "lv");
    if (loss != "lv" && loss != "tb") throw models::TrainUsageError("--loss: lv or tb");
    c.trajectoryBalance = loss == "tb";
    if (c.trajectoryBalance && c.architecture == "ready") throw models::TrainUsageError("--loss tb: with --architecture per-state");
    c.uniformBackward = r.flag("uniform-pb", false);
    c.sigmaMin = r.number("sigma-min", c.sigmaMin);
    c.sigmaMax = r.number("sigma-max", c.sigmaMax);
    const double fixed = r.number("sigma", 0);
    if (fixed > 0) c.sigmaMin = c.sigmaMax = fixed;
    c.batch = static_cast<int>(r.integer("batch", c.batch));
    c.steps = r.integer("steps", c.steps);
    c.learningRate = r.number("lr", c.learningRate);
    c.clipNorm = r.number("clip", c.clipNorm);
    c.width = static_cast<int>(r.integer("width", c.width));
    c.layers = static_cast<int>(r.integer("layers", c.layers));
    c.headsPerMask = static_cast<int>(r.integer("heads", c.headsPerMask));
    c.headDim = static_cast<int>(r.integer("head-dim", c.headDim));
    c.mlpHidden = static_cast<int>(r.integer("mlp", c.mlpHidden));
    c.filmDim = static_cast<int>(r.integer("film", c.filmDim));
    c.hidden = static_cast<int>(r.integer("hidden", c.hidden));
    c.seed = static_cast<std::uint64_t>(r.integer("seed", static_cast<long long>(c.seed)));
    c.threads = static_cast<int>(r.integer("threads", c.threads));
    c.timeLimit = r.number("time-limit", c.timeLimit);
    c.logEvery = static_cast<int>(r.integer("log-every", c.logEvery));
    c.checkpointEvery = static_cast<int>(r.integer("checkpoint-every", c.checkpointEvery));
    c.evalSamples = static_cast<int>(r.integer("eval-samples", c.evalSamples));
    c.out = r.text("out", "gflownet.slw");
    c.resume = r.flag("resume", false);
    c.initWeights = r.text("init", "");
    r.rejectUnknown();
    if (c.batch < 2 || c.steps < 0 || c.graphs < 1 || c.validationGraphs < 1 || c.threads < 1 || c.logEvery < 1 ||
        c.checkpointEvery < 1 || c.evalSamples < 1 || c.width < 1 || c.layers < 0 || c.headsPerMask < 0 || c.headDim < 1 ||
        c.mlpHidden < 1 || c.filmDim < 1 || c.hidden < 1 || c.hidden > 128 || c.minNodes < 1 || c.minDevices < 1 || c.learningRate <= 0 || c.clipNorm < 0)
        throw models::TrainUsageError("--batch >= 2; --steps >= 0; sizes, counts and --film >= 1; --hidden 1-128; --lr > 0; --clip >= 0");
    if (!(c.sigmaMin > 0 && c.sigmaMax >= c.sigmaMin)) throw models::TrainUsageError("0 < --sigma-min <= --sigma-max");
    c.command = a.commandLine;
    c.dist = a.dist;
    std::printf("%s\n", c.command.c_str());
    std::fflush(stdout);
    const GflowNetTrainReport rep = trainGflowNet(c, [](const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    }, a.stop);
    std::printf("done: %lld steps in %.0f s; mean U %.4f -> %.4f, std(zeta) %.3f -> %.3f; shipped checkpoint's validation at "
                "sigma 0.005: mean U %.4f, best U %.4f (list-cp %.4f), top-1 / list-cp %.4f; weights %s\n",
                static_cast<long long>(rep.steps), rep.seconds, rep.firstMeanSpeedup, rep.lastMeanSpeedup, rep.firstZetaStd,
                rep.lastZetaStd, rep.validationMeanSpeedup, rep.validationBestSpeedup, rep.validationListSpeedup,
                rep.validationTop1VsList, c.out.c_str());
    return 0;
}

} // namespace

void registerGflowNetTrainer() {
    models::addTrainer({.name = "gflownet",
                        .summary = "GFlowNet candidate sampler (Zhang et al., ICLR 2023): temperature-conditioned LV "
                                   "training on one graph or generated families",
                        .help = kHelp,
                        .run = run});
}

} // namespace sl::gfn
