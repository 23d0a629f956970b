// SPDX-License-Identifier: MIT
#include "models/gflownet/training.h"

#include "models/gflownet/datasets.h"
#include "models/gflownet/loss.h"
#include "models/gflownet/policy.h"
#include "models/gflownet/rollout.h"

#include "models/distributed/checkpoint.h"
#include "models/distributed/dataparallel.h"
#include "models/encoder/maththreads.h"
#include "models/train/trainers.h"

#include "core/gflownet/subgraph.h"
#include "core/heuristics/evaluate.h"
#include "core/heuristics/priorities.h"
#include "core/util/atomicfile.h"
#include "core/util/random.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <map>
#include <tuple>
#include <memory>

namespace sl::gfn {

namespace {

struct TrainingSet {
    std::vector<Problem> train, validation;
    std::string description;
};

TrainingSet makeData(const GflowNetTrainConfig& c) {
    TrainingSet d;
    if (!c.graphFile.empty()) {
        d.train.push_back(fileProblem(c.graphFile, c.minDevices));
        d.validation = d.train;
        d.description = models::formatText("single graph %s (%d ops) on %d identical devices",
                            std::filesystem::path(c.graphFile).filename().string().c_str(), d.train[0].g().opCount(),
                            c.minDevices);
    } else {
        // Graph i: family i mod F, size and device count from its own stream.
        auto make = [&](std::uint64_t seed, int i) {
            Rng rng(deriveSeed(seed, 0x512E));
            const int nodes = static_cast<int>(rng.integer(c.minNodes, c.maxNodes));
            const int devices = static_cast<int>(rng.integer(c.minDevices, c.maxDevices));
            return trainingProblem(c.families[static_cast<size_t>(i) % c.families.size()], nodes, devices, seed);
        };
        for (int i = 0; i < c.graphs; ++i) d.train.push_back(make(1000000 + static_cast<std::uint64_t>(i), i));
        for (int i = 0; i < c.validationGraphs; ++i) d.validation.push_back(make(2000000 + static_cast<std::uint64_t>(i), i));
        std::string fam;
        for (const auto& f : c.families) fam += (fam.empty() ? "" : ",") + f;
        d.description = models::formatText("%d generated graphs (%s, %d-%d ops, %d-%d identical devices, rho ~ U(0,1), seeds 1000000..), "
                            "%d validation graphs (seeds 2000000..)",
                            c.graphs, fam.c_str(), c.minNodes, c.maxNodes, c.minDevices, c.maxDevices, c.validationGraphs);
    }
    if (c.subgraphMax > 0) d.description += models::formatText("; sub-graphs of %d-%d ops per step", c.subgraphMin, c.subgraphMax);
    return d;
}

struct Validation {
    double mean = 0, best = 0, list = 0;
};

/// Samples at sigma = 0.005 (the paper's inference temperature) on every validation graph.
Validation validate(GflowNetPolicy& net, const std::vector<Problem>& problems, int samples) {
    torch::NoGradGuard noGrad;
    net->eval();
    Validation v;
    for (size_t g = 0; g < problems.size(); ++g) {
        const ScheduleEnv env(problems[g]);
        RolloutSpec spec;
        spec.sigma = 0.005;
        for (int i = 0; i < samples; ++i) spec.seeds.push_back(deriveSeed(0x5A11 + g, static_cast<std::uint64_t>(i)));
        const Rollout r = rollout(net, env, graphMasks(env.graph()), spec);
        double sum = 0, best = 0;
        for (double u : r.speedup) sum += u, best = std::max(best, u);
        v.mean += sum / samples;
        v.best += best;
        PriorityEvaluator ev(problems[g]);
        v.list += env.speedup(ev.cost(criticalPathPriorities(problems[g].g())));
    }
    net->train();
    const double n = static_cast<double>(std::max<size_t>(problems.size(), 1));
    return {v.mean / n, v.best / n, v.list / n};
}

/// Running means over one logging window.
struct Window {
    double loss = 0, speedup = 0, bestSpeedup = 0, zetaStd = 0, zetaMean = 0, gradNorm = 0;
    int steps = 0, clipped = 0;
    void clear() { *this = Window{}; }
};

/// A policy with the weights and architecture of `file`, whose card says it was then trained on `data`.
GflowNetPolicy initialisedFrom(const std::string& file, const std::string& data) {
    const GflowNetPolicy init = loadPolicy(file);
    PolicyConfig pc = init->config();
    pc.trainedOn = data + "; initialised from " + std::filesystem::path(file).filename().string() + ", trained on " + pc.trainedOn;
    GflowNetPolicy net(pc);
    const torch::NoGradGuard noGrad;
    const std::vector<torch::Tensor> to = net->parameters(), from = init->parameters();
    for (size_t i = 0; i < to.size(); ++i) to[i].copy_(from[i]);
    return net;
}

} // namespace

GflowNetTrainReport trainGflowNet(const GflowNetTrainConfig& cfg, const std::function<void(const std::string&)>& log,
                                  std::stop_token stop) {
    if (cfg.out.empty()) throw std::invalid_argument("train gflownet: no output path (--out FILE)");
    if (cfg.batch < 2) throw std::invalid_argument("train gflownet: --batch must be at least 2 (LV needs a mean)");
    if (!(cfg.sigmaMin > 0 && cfg.sigmaMax >= cfg.sigmaMin)) throw std::invalid_argument("train gflownet: 0 < sigma-min <= sigma-max");
    const models::MathThreads pin(cfg.threads);
    models::DataParallel dp(cfg.dist);   // the rendezvous first: a missing peer fails before any work
    torch::manual_seed(cfg.seed);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string ckpt = cfg.out + ".ckpt";

    const TrainingSet data = makeData(cfg);
    log("data: " + data.description);
    PolicyConfig pc = PolicyConfig::cpu();
    pc.encoder.width = cfg.width;
    pc.encoder.layers = cfg.layers;
    pc.encoder.headsPerMask.fill(cfg.headsPerMask);
    pc.encoder.headDim = cfg.headDim;
    pc.encoder.mlpHidden = cfg.mlpHidden;
    pc.encoder.filmDim = cfg.filmDim;
    pc.trainedOn = data.description;
    GflowNetPolicy net(pc);
    LogZNet logZ{nullptr};
    if (cfg.trajectoryBalance) logZ = LogZNet(pc.encoder);

    std::int64_t step = 0;
    double elapsedBefore = 0;
    const bool resuming = cfg.resume && std::filesystem::exists(ckpt + ".json");
    if (resuming) {
        net = loadPolicy(ckpt + ".slw");
        pc = net->config();
        if (cfg.trajectoryBalance) models::loadWeights(*logZ, ckpt + ".logz.slw", "gflownet-logz");
    } else if (!cfg.initWeights.empty()) {
        net = initialisedFrom(cfg.initWeights, data.description);
        pc = net->config();
        log("initialised from " + cfg.initWeights);
    }
    std::vector<torch::Tensor> params = net->parameters();
    if (cfg.trajectoryBalance)
        for (const auto& p : logZ->parameters()) params.push_back(p);
    torch::optim::Adam adam(params, torch::optim::AdamOptions(cfg.learningRate));   // PyTorch defaults otherwise (spec §3.4)
    if (resuming) {
        std::ifstream in(ckpt + ".json");
        const auto state = nlohmann::json::parse(in);
        torch::load(adam, ckpt + ".adam");
        step = state.at("step").get<std::int64_t>();
        elapsedBefore = state.at("seconds").get<double>();
        log(models::formatText("resumed from %s at step %lld", (ckpt + ".json").c_str(), static_cast<long long>(step)));
    }
    dp.requireSameStep(step);
    dp.broadcastParameters(params);
    if (dp.distributed())
        log(models::formatText("data-parallel: %s; each rank samples its own graphs and trajectories, so a step averages "
                               "%d x %d trajectories", dp.options().describe().c_str(), dp.worldSize(), cfg.batch));
    net->train();
    auto seconds = [&] { return elapsedBefore + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    log(models::formatText("model %s; %lld parameters", pc.toJson().c_str(),
            static_cast<long long>(std::accumulate(params.begin(), params.end(), std::int64_t(0),
                                                   [](std::int64_t s, const torch::Tensor& p) { return s + p.numel(); }))));

    std::map<size_t, models::EncoderInput> maskCache;   // whole training graphs only
    GflowNetTrainReport report;
    Window w;
    Validation lastValidation;
    bool checkpointed = false;
    auto checkpoint = [&] {
        checkpointed = true;
        dp.requireIdenticalParameters(params);
        if (!dp.isRoot()) return;   // rank 0 validates and writes
        lastValidation = validate(net, data.validation, cfg.evalSamples);
        savePolicy(net, cfg.out);
        savePolicy(net, ckpt + ".slw");
        if (cfg.trajectoryBalance) models::saveWeights(*logZ, ckpt + ".logz.slw", "gflownet-logz", pc.encoder.toJson());
        models::saveOptimizerState(adam, ckpt + ".adam");
        const nlohmann::json state{{"step", step}, {"seconds", seconds()}, {"seed", cfg.seed}};
        writeFileAtomically(ckpt + ".json", state.dump(2));
        models::ModelCard card;
        card.model = kWeightKind;
        card.architecture = pc.toJson();
        card.features = models::formatText("state%d+pair%d (spec/gflownet.md §4.1 + [R] pair columns)", kNodeFeatures, kPairFeatures);
        card.command = cfg.command;
        card.data = data.description;
        card.steps = step;
        card.seconds = seconds();
        card.worldSize = dp.worldSize();
        card.results = models::formatText("{\"validation_sigma\": 0.005, \"validation_samples\": %d, \"validation_mean_speedup\": %.4f, "
                           "\"validation_best_speedup\": %.4f, \"validation_list_cp_speedup\": %.4f, "
                           "\"last_window_mean_speedup\": %.4f, \"last_window_zeta_std\": %.4f, \"threads\": %d}",
                           cfg.evalSamples, lastValidation.mean, lastValidation.best, lastValidation.list,
                           report.lastMeanSpeedup, report.lastZetaStd, cfg.threads);
        card.notes = (cfg.initWeights.empty() ? std::string() : "Initialised from " + std::filesystem::path(cfg.initWeights).filename().string() + " (fine-tuning, fresh Adam). ") +
                     models::formatText("%s loss, %s P_B, batch %d, sigma log-uniform in [%g, %g], Adam lr %g, clip %g (0 = off), seed %llu, "
                         "%d math thread(s). Speedups are proxy speedups U = sum of durations / makespan.",
                         cfg.trajectoryBalance ? "TB (learned log Z)" : "LV", cfg.uniformBackward ? "uniform" : "learned",
                         cfg.batch, cfg.sigmaMin, cfg.sigmaMax, cfg.learningRate, cfg.clipNorm,
                         static_cast<unsigned long long>(cfg.seed), cfg.threads);
        models::writeModelCard(card, cfg.out + ".card.json");
        log(models::formatText("checkpoint at step %lld: validation (sigma 0.005, %d samples) mean U %.4f, best U %.4f, list-cp U %.4f  %.0f s",
                static_cast<long long>(step), cfg.evalSamples, lastValidation.mean, lastValidation.best, lastValidation.list,
                seconds()));
    };

    // Every rank stops at the same step: one rank's time limit or Ctrl-C stops all.
    const auto stopping = [&] { return dp.anyStops(stop.stop_requested() || (cfg.timeLimit > 0 && seconds() >= cfg.timeLimit)); };
    bool stopNow = stopping();
    while (step < cfg.steps && !stopNow) {
        const std::uint64_t stepSeed = deriveSeed(dp.seed(cfg.seed), static_cast<std::uint64_t>(step));
        Rng rng(stepSeed);
        const auto gi = static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(data.train.size()) - 1));
        Problem problem = data.train[gi];
        models::EncoderInput masks;
        if (cfg.subgraphMax > 0) {
            const int k = static_cast<int>(rng.integer(cfg.subgraphMin, cfg.subgraphMax));
            problem = inducedSubProblem(problem, randomWindow(problem.g(), k, rng));
            masks = graphMasks(problem.g());
        } else {
            auto it = maskCache.find(gi);
            if (it == maskCache.end()) it = maskCache.emplace(gi, graphMasks(problem.g())).first;
            masks = it->second;
        }
        const double sigma = std::exp(rng.uniform(std::log(cfg.sigmaMin), std::log(cfg.sigmaMax)));
        const ScheduleEnv env(problem);
        RolloutSpec spec;
        spec.sigma = sigma;
        spec.uniformBackward = cfg.uniformBackward;
        for (int i = 0; i < cfg.batch; ++i) spec.seeds.push_back(deriveSeed(stepSeed ^ 0x7A3EC, static_cast<std::uint64_t>(i)));
        const Rollout r = rollout(net, env, masks, spec);
        const torch::Tensor z = zeta(torch::tensor(r.logReward, torch::kDouble), r.logPF, r.logPB);
        torch::Tensor loss;
        if (cfg.trajectoryBalance) {
            StateBatch empty;
            encodeStates({PartialSchedule(env)}, empty);
            loss = trajectoryBalanceLoss(logZ->forward(masks, toTensors(empty).nodes, torch::full({1}, std::log(sigma))), z);
        } else {
            loss = logPartitionVarianceLoss(z);
        }
        adam.zero_grad();
        loss.backward();
        dp.averageGradients(params);
        const double clip = cfg.clipNorm > 0 ? cfg.clipNorm : std::numeric_limits<double>::infinity();
        const double norm = torch::nn::utils::clip_grad_norm_(params, clip);
        adam.step();
        ++step;

        const torch::Tensor zd = z.detach();
        w.loss += loss.item<double>();
        w.zetaStd += zd.std(/*unbiased=*/false).item<double>();
        w.zetaMean += zd.mean().item<double>();
        double sum = 0, best = 0;
        for (double u : r.speedup) sum += u, best = std::max(best, u);
        w.speedup += sum / static_cast<double>(r.speedup.size());
        w.bestSpeedup += best;
        w.gradNorm += norm;
        w.clipped += norm > clip ? 1 : 0;
        ++w.steps;
        stopNow = stopping();
        const bool last = step == cfg.steps || stopNow;
        if (step % cfg.logEvery == 0 || last) {
            const std::vector<double> m = dp.mean({w.loss, w.speedup, w.bestSpeedup, w.zetaStd, w.zetaMean, w.gradNorm});
            std::tie(w.loss, w.speedup, w.bestSpeedup, w.zetaStd, w.zetaMean, w.gradNorm) = std::tie(m[0], m[1], m[2], m[3], m[4], m[5]);
            const double k = w.steps;
            if (report.firstMeanSpeedup == 0) report.firstMeanSpeedup = w.speedup / k, report.firstZetaStd = w.zetaStd / k;
            report.lastMeanSpeedup = w.speedup / k;
            report.lastZetaStd = w.zetaStd / k;
            log(models::formatText("step %6lld  loss %.4g  mean U %.4f  best U %.4f  std(zeta) %.3f  mean zeta %.2f  |grad| %.3g  "
                    "clipped %d/%d  (last: n %d, m %d, sigma %.4f)  %.0f s",
                    static_cast<long long>(step), w.loss / k, w.speedup / k, w.bestSpeedup / k, w.zetaStd / k,
                    w.zetaMean / k, w.gradNorm / k, w.clipped, w.steps, env.ops(), env.devices(), sigma, seconds()));
            w.clear();
        }
        if (step % cfg.checkpointEvery == 0 || last) checkpoint();
    }
    if (!checkpointed) checkpoint();   // no step ran (e.g. resumed at the end): still weights and a card
    report.steps = step;
    report.seconds = seconds();
    report.validationMeanSpeedup = lastValidation.mean;
    report.validationBestSpeedup = lastValidation.best;
    report.validationListSpeedup = lastValidation.list;
    return report;
}

} // namespace sl::gfn
