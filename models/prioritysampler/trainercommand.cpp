// SPDX-License-Identifier: MIT
// `schedlab-cli train priority-sampler`: options -> TrainConfig, progress lines on stdout.
#include "models/prioritysampler/trainercommand.h"

#include "models/prioritysampler/training.h"
#include "models/train/trainers.h"

#include <cstdio>

namespace sl::ps {

namespace {

const char* const kHelp =
    "  --task layered-typed|jobshop   training family (default layered-typed)\n"
    "  --min-nodes N --max-nodes N    layered-typed sizes (100, 300)\n"
    "  --jobs J --machines M          job-shop size (25, 10)\n"
    "  --graphs G                     training graphs (400; seeds 1000000+i)\n"
    "  --validation-graphs V          validation graphs (16; seeds 2000000+i)\n"
    "  --samples N --steps S          samples per update (128), updates (4000)\n"
    "  --lr X --c-logits X --epsilon X --clip X   (5e-4, 1e-3, 0.1, 1.0)\n"
    "  --width D --layers L --heads H --head-dim K   encoder size (64, 3, 2 per mask, 16)\n"
    "  --seed S --threads T --time-limit SEC --validate-every K (1, 1, none, 200)\n"
    "  --out FILE                     best weights (+ FILE.card.json); checkpoints FILE.ckpt.*\n"
    "  --resume 1                     continue from FILE.ckpt.*\n";

int run(const models::TrainArgs& a) {
    models::TrainOptionReader r{a.options};
    TrainConfig c;
    c.data.task = r.text("task", c.data.task);
    if (c.data.task != "layered-typed" && c.data.task != "jobshop")
        throw models::TrainUsageError("--task: layered-typed or jobshop");
    c.data.minNodes = static_cast<int>(r.integer("min-nodes", c.data.minNodes));
    c.data.maxNodes = static_cast<int>(r.integer("max-nodes", c.data.maxNodes));
    c.data.jobs = static_cast<int>(r.integer("jobs", c.data.jobs));
    c.data.machines = static_cast<int>(r.integer("machines", c.data.machines));
    c.trainGraphs = static_cast<int>(r.integer("graphs", c.trainGraphs));
    c.validationGraphs = static_cast<int>(r.integer("validation-graphs", c.validationGraphs));
    c.samples = static_cast<int>(r.integer("samples", c.samples));
    c.steps = r.integer("steps", c.steps);
    c.learningRate = r.number("lr", c.learningRate);
    c.cLogits = r.number("c-logits", c.cLogits);
    c.epsilon = r.number("epsilon", c.epsilon);
    c.clipNorm = r.number("clip", c.clipNorm);
    c.seed = static_cast<std::uint64_t>(r.integer("seed", static_cast<long long>(c.seed)));
    c.threads = static_cast<int>(r.integer("threads", c.threads));
    c.timeLimit = r.number("time-limit", c.timeLimit);
    c.validateEvery = static_cast<int>(r.integer("validate-every", c.validateEvery));
    c.width = static_cast<int>(r.integer("width", c.width));
    c.layers = static_cast<int>(r.integer("layers", c.layers));
    c.headsPerMask = static_cast<int>(r.integer("heads", c.headsPerMask));
    c.headDim = static_cast<int>(r.integer("head-dim", c.headDim));
    c.out = r.text("out", "priority-sampler-" + c.data.task + ".slw");
    c.resume = r.flag("resume", false);
    r.rejectUnknown();
    if (c.samples < 2 || c.steps < 1 || c.trainGraphs < 1 || c.validateEvery < 1 || c.threads < 1 ||
        c.validationGraphs < 1)
        throw models::TrainUsageError("--samples >= 2; --steps, --graphs, --validation-graphs, --validate-every, --threads >= 1");
    c.command = a.commandLine;
    c.dist = a.dist;
    std::printf("%s\n", c.command.c_str());
    std::fflush(stdout);
    const TrainReport rep = trainPrioritySampler(c, [](const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    }, a.stop);
    std::printf("done: %lld steps in %.0f s; best validation S(16) %.4f x best heuristic; weights %s\n",
                static_cast<long long>(rep.steps), rep.seconds, rep.bestValidation, c.out.c_str());
    return 0;
}

} // namespace

void registerPrioritySamplerTrainer() {
    models::addTrainer({.name = "priority-sampler",
                        .summary = "one-shot Gumbel priorities + list scheduling, makespan (Jeon et al., ICLR 2023): "
                                   "Algorithm 1 on generated layered-typed graphs or job-shops",
                        .help = kHelp,
                        .run = run});
}

} // namespace sl::ps
