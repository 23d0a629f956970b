// SPDX-License-Identifier: MIT
// Registers the `topoformer` optimizer and `schedlab-cli train topoformer`.
#include "models/topoformer/register.h"

#include "models/topoformer/optimizer.h"
#include "models/topoformer/training.h"
#include "models/train/trainers.h"

#include <iostream>

namespace sl::models {

namespace {

const char* const kTrainHelp =
    "  --out FILE            best weights (model card beside it as FILE.card.json; checkpoints FILE.ckpt.*)\n"
    "  --loss L              reinforce (the paper's, default) or imitation: the log-likelihood of the\n"
    "                        orders exact-memory proved optimal (needs --labels)\n"
    "  --labels FILE[,FILE]  train on these label sets' steps (each batch draws from them in turn) and\n"
    "                        validate against their optima; a missing FILE is built first (exact-memory\n"
    "                        on every step)\n"
    "  --label-steps N       training entries of a label set built here (default 2400)\n"
    "  --label-validation N  its reserved validation steps (default 64)\n"
    "  --label-mix M         its graphs: networks (nn and layered, default), compiled (HLO MLP and\n"
    "                        transformer steps, as generate hlo-step writes them) or models (hlo-step\n"
    "                        transformers shaped as GPT-2, BERT, Llama 2 7B and GPT-J 6B)\n"
    "  --label-threads T     steps labelled side by side while building it (default 1)\n"
    "  --init FILE           start from these weights (e.g. imitation's, before reinforce)\n"
    "  --steps N             gradient steps (default 2000)\n"
    "  --batch B             graphs per step (default 8, one sampled order each)\n"
    "  --samples-per-graph K  sampled orders per graph, each against the greedy baseline (default 1)\n"
    "  --min-nodes N         smallest training graph (default 50)\n"
    "  --max-nodes N         largest training graph (default 100)\n"
    "  --val-graphs N        fixed validation graphs (default 128)\n"
    "  --val-nodes N         ops per validation graph (default 100)\n"
    "  --val-beam W          imitation: score checkpoints by beam search of width W (default 0: greedy)\n"
    "  --epoch-steps N       steps per epoch: validation, baseline test, lr decay, checkpoint (default 25)\n"
    "  --lr X                Adam learning rate (default 3e-4)\n"
    "  --lr-decay X          per-epoch learning-rate factor (default 0.996)\n"
    "  --clip X              gradient-norm clip (default 1)\n"
    "  --advantage raw|relative   C - b (default) or (C - b) / b\n"
    "  --width D --layers L --heads H --head-dim K --mlp M   encoder size (default 64, 3, 2 per mask, 16, 64)\n"
    "  --seed S              seed (graphs, sampling, initial weights; default 1)\n"
    "  --threads T           torch threads (default 1: often fastest on two busy cores)\n"
    "  --time-limit SEC      stop after the step in progress once this many seconds have passed\n"
    "  --resume 1            continue from FILE.ckpt.* (same options)\n";

int runTrain(const TrainArgs& args) {
    TrainOptionReader r{args.options};
    TopoformerTrainConfig c;
    c.out = r.text("out", "");
    if (c.out.empty()) throw TrainUsageError("--out FILE is required");
    c.loss = r.text("loss", c.loss);
    c.labels = r.text("labels", "");
    c.labelSteps = static_cast<int>(r.integer("label-steps", c.labelSteps));
    c.labelValidation = static_cast<int>(r.integer("label-validation", c.labelValidation));
    const std::string mix = r.text("label-mix", "networks");
    if (!parseLabelMix(mix)) throw TrainUsageError("--label-mix expects networks, compiled or models");
    c.labelMix = *parseLabelMix(mix);
    c.labelThreads = static_cast<int>(r.integer("label-threads", c.labelThreads));
    c.init = r.text("init", "");
    c.steps = r.integer("steps", c.steps);
    c.batch = static_cast<int>(r.integer("batch", c.batch));
    c.samplesPerGraph = static_cast<int>(r.integer("samples-per-graph", c.samplesPerGraph));
    c.minNodes = static_cast<int>(r.integer("min-nodes", c.minNodes));
    c.maxNodes = static_cast<int>(r.integer("max-nodes", c.maxNodes));
    c.validationGraphs = static_cast<int>(r.integer("val-graphs", c.validationGraphs));
    c.validationNodes = static_cast<int>(r.integer("val-nodes", c.validationNodes));
    c.validationBeam = static_cast<int>(r.integer("val-beam", c.validationBeam));
    c.epochSteps = static_cast<int>(r.integer("epoch-steps", c.epochSteps));
    c.learningRate = r.number("lr", c.learningRate);
    c.lrDecay = r.number("lr-decay", c.lrDecay);
    c.clipNorm = r.number("clip", c.clipNorm);
    const std::string adv = r.text("advantage", "raw");
    if (adv != "raw" && adv != "relative") throw TrainUsageError("--advantage expects raw or relative");
    c.relativeAdvantage = adv == "relative";
    c.width = static_cast<int>(r.integer("width", c.width));
    c.layers = static_cast<int>(r.integer("layers", c.layers));
    c.headsPerMask = static_cast<int>(r.integer("heads", c.headsPerMask));
    c.headDim = static_cast<int>(r.integer("head-dim", c.headDim));
    c.mlpHidden = static_cast<int>(r.integer("mlp", c.mlpHidden));
    c.seed = static_cast<std::uint64_t>(r.integer("seed", 1));
    c.threads = static_cast<int>(r.integer("threads", 1));
    c.timeLimit = r.number("time-limit", 0);
    c.resume = r.flag("resume", false);
    r.rejectUnknown();
    if (c.steps < 0 || c.batch < 1 || c.samplesPerGraph < 1 || c.minNodes < 2 || c.maxNodes < c.minNodes ||
        c.threads < 1 || c.width < 1 || c.layers < 0 || c.headsPerMask < 0 || c.headDim < 1 || c.mlpHidden < 1 ||
        c.epochSteps < 1 || c.labelSteps < 1 || c.labelValidation < 1 || c.labelThreads < 1 || c.validationBeam < 0)
        throw TrainUsageError("bad sizes: steps >= 0, batch >= 1, 2 <= min-nodes <= max-nodes, threads >= 1");
    c.command = args.commandLine;
    c.dist = args.dist;
    const TopoformerTrainReport rep = trainTopoformer(c, [](const std::string& line) { std::cout << line << std::endl; }, args.stop);
    std::cout << "done: " << rep.steps << " steps in " << rep.seconds << " s; best validation: "
              << (c.validationBeam > 0 ? "beam-" + std::to_string(c.validationBeam) : std::string("greedy")) << " "
              << rep.bestValidationGap << "% above " << (c.labels.empty() ? "the best classic orders" : "the optima")
              << "; weights " << c.out << "\n";
    return 0;
}

} // namespace

void registerTopoformer() {
    OptimizerRegistry::instance().add(topoformerInfo(), [] { return makeTopoformerOptimizer(); });
    addTrainer({.name = "topoformer",
                .summary = "Topoformer memory orders: REINFORCE with a greedy-rollout baseline, or imitation of proven optima",
                .help = kTrainHelp,
                .run = &runTrain});
}

} // namespace sl::models
