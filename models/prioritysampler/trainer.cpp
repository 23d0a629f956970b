// SPDX-License-Identifier: MIT
#include "models/prioritysampler/training.h"

#include "models/prioritysampler/gumbel.h"
#include "models/prioritysampler/network.h"
#include "models/prioritysampler/plackettluce.h"
#include "models/prioritysampler/samplescorer.h"

#include "models/distributed/checkpoint.h"
#include "models/distributed/dataparallel.h"
#include "models/encoder/maththreads.h"
#include "models/train/trainers.h"

#include "core/heuristics/evaluate.h"
#include "core/heuristics/priorities.h"
#include "core/util/atomicfile.h"
#include "core/util/random.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

namespace sl::ps {

namespace {

struct Instance {
    GeneratedInstance inst;
    Problem problem;
    PreparedGraph prepared;
    double bestHeuristic = 0;   ///< best of CP, MOPNR, SPT (validation graphs)
};

Instance makeInstance(const TaskSpec& spec, Split split, int index, int typeSlots, bool heuristics) {
    Instance in{taskInstance(spec, split, index), {}, {}, 0};
    in.problem = makespanProblem(in.inst);
    in.prepared = prepareGraph(in.problem, typeSlots);
    if (heuristics) {
        PriorityEvaluator ev(in.problem);
        const Graph& g = in.problem.g();
        in.bestHeuristic = std::min({ev.cost(criticalPathPriorities(g)), ev.cost(mopnrPriorities(g)), ev.cost(sptPriorities(g))});
    }
    return in;
}

std::vector<double> toDoubles(const torch::Tensor& t) {
    const torch::Tensor d = t.detach().to(torch::kDouble).contiguous();
    return {d.data_ptr<double>(), d.data_ptr<double>() + d.numel()};
}

/// Mean over the validation graphs of greedy and S(16) cost, each divided by the graph's best heuristic.
std::pair<double, double> validate(PrioritySamplerNet& net, std::vector<Instance>& val, int threads) {
    torch::NoGradGuard noGrad;
    net->eval();
    double greedy = 0, s16 = 0;
    for (Instance& in : val) {
        const std::vector<double> logits = toDoubles(net->forward(encoderInput(in.prepared)));
        SampleScorer scorer(in.problem, threads);
        greedy += scorer.greedyCost(logits) / in.bestHeuristic;
        s16 += scorer.sample(logits, 16, 12345).bestCost / in.bestHeuristic;
    }
    net->train();
    const double n = static_cast<double>(std::max<size_t>(val.size(), 1));
    return {greedy / n, s16 / n};
}

} // namespace

TrainReport trainPrioritySampler(const TrainConfig& cfg, const std::function<void(const std::string&)>& log,
                                 std::stop_token stop) {
    if (cfg.out.empty()) throw std::runtime_error("train priority-sampler: no output path (--out FILE)");
    if (cfg.samples < 2) throw std::runtime_error("train priority-sampler: --samples must be at least 2");
    const models::MathThreads pin(cfg.threads);   // LibTorch and OpenBLAS: results do not depend on the environment
    models::DataParallel dp(cfg.dist);   // the rendezvous first: a missing peer fails before any work
    torch::manual_seed(cfg.seed);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string ckpt = cfg.out + ".ckpt";

    SamplerConfig sc = samplerConfig(cfg);   // a resumed run takes its checkpoint's
    PrioritySamplerNet net(sc);

    std::int64_t step = 0, phaseStart = 1;
    double best = kInfinity, elapsedBefore = 0;
    std::string history;   ///< earlier training phases on other data (fine-tuning), for the model card
    const bool resuming = cfg.resume && std::filesystem::exists(ckpt + ".json");
    if (resuming) {
        net = loadSampler(ckpt + ".slw");
        sc = net->config();
    }
    torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(cfg.learningRate));
    if (resuming) {
        std::ifstream in(ckpt + ".json");
        const auto state = nlohmann::json::parse(in);
        torch::load(adam, ckpt + ".adam");
        for (auto& group : adam.param_groups())   // --lr applies on resume (the file has the old one)
            static_cast<torch::optim::AdamOptions&>(group.options()).lr(cfg.learningRate);
        step = state.at("step").get<std::int64_t>();
        best = state.at("best").get<double>();
        elapsedBefore = state.at("seconds").get<double>();
        log(models::formatText("resumed from %s at step %lld (best validation %.4f)", (ckpt + ".json").c_str(),
                static_cast<long long>(step), best));
        history = state.value("history", std::string());
        phaseStart = state.value("phaseStart", std::int64_t(1));
        const std::string before = state.value("data", cfg.data.describe());   // older files: assume the same
        if (before != cfg.data.describe()) {
            // Another training family or size range (fine-tuning): its validation set is another
            // one, so the old best does not compare.
            best = kInfinity;
            history += models::formatText("steps %lld-%lld on %s; ", static_cast<long long>(phaseStart), static_cast<long long>(step),
                           before.c_str());
            phaseStart = step + 1;
            log("training data changed: validation restarts (" + cfg.data.describe() + ")");
        }
    }
    const std::vector<torch::Tensor> params = net->parameters();
    dp.requireSameStep(step);
    dp.broadcastParameters(params);
    const std::uint64_t seed = dp.seed(cfg.seed);   // this rank's graph order, sign flips and samples
    if (dp.distributed())
        log(models::formatText("data-parallel: %s; each rank visits the training graphs in its own order, so a step "
                               "averages %d graphs", dp.options().describe().c_str(), dp.worldSize()));
    net->train();

    log(models::formatText("data: %d training graphs (%s), %d validation graphs; preparing features and masks",
            cfg.trainGraphs, cfg.data.describe().c_str(), cfg.validationGraphs));
    std::vector<Instance> train, val;
    for (int i = 0; i < cfg.trainGraphs; ++i) train.push_back(makeInstance(cfg.data, Split::Train, i, sc.typeSlots, false));
    for (int i = 0; i < cfg.validationGraphs; ++i)
        val.push_back(makeInstance(cfg.data, Split::Validation, i, sc.typeSlots, true));
    if (train.empty()) throw std::runtime_error("train priority-sampler: no training graphs");
    log(models::formatText("prepared in %.1f s; model %s", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
            sc.toJson().c_str()));

    const int peDims = featureSpec(sc.typeSlots).laplacianDims;
    auto seconds = [&] { return elapsedBefore + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    auto writeCard = [&](std::int64_t steps, double valGreedy, double valS16) {
        models::ModelCard card;
        card.model = kWeightKind;
        card.architecture = sc.toJson();
        card.features = featureSpec(sc.typeSlots).describe();
        card.command = cfg.command;
        card.data = history + models::formatText("steps %lld-%lld: %d generated training graphs (%s, seeds 1000000..%d), %d validation graphs (seeds 2000000..)",
                        static_cast<long long>(phaseStart), static_cast<long long>(steps), cfg.trainGraphs,
                                  cfg.data.describe().c_str(), 1000000 + cfg.trainGraphs - 1, cfg.validationGraphs);
        card.steps = steps;
        card.seconds = seconds();
        card.worldSize = dp.worldSize();
        card.results = models::formatText("{\"validation_greedy_vs_best_heuristic\": %.4f, \"validation_s16_vs_best_heuristic\": %.4f}",
                           valGreedy, valS16);
        card.notes = models::formatText("Algorithm 1 of Jeon et al. (ICLR 2023): N = %d samples per update, c_logits = %g, eps = %g, "
                         "Adam lr %g, grad-norm clip %g, seed %llu, %d thread(s). Ratios < 1 beat the best of list-cp, "
                         "list-mopnr, list-spt.",
                         cfg.samples, cfg.cLogits, cfg.epsilon, cfg.learningRate, cfg.clipNorm,
                         static_cast<unsigned long long>(cfg.seed), cfg.threads);
        models::writeModelCard(card, cfg.out + ".card.json");
    };

    TrainReport report;
    double lossSum = 0, costSum = 0;
    int window = 0;
    std::vector<int> perm(train.size());
    std::int64_t permEpoch = -1;
    const auto n = static_cast<std::int64_t>(train.size());
    // Every rank stops at the same step: one rank's time limit or Ctrl-C stops all.
    const auto stopping = [&] { return dp.anyStops(stop.stop_requested() || (cfg.timeLimit > 0 && seconds() >= cfg.timeLimit)); };
    bool stopNow = stopping();
    while (step < cfg.steps && !stopNow) {
        const std::int64_t epoch = step / n;
        if (epoch != permEpoch) {
            std::iota(perm.begin(), perm.end(), 0);
            Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(epoch) + 0xE90C));
            rng.shuffle(perm);
            permEpoch = epoch;
        }
        Instance& in = train[static_cast<size_t>(perm[static_cast<size_t>(step % n)])];
        models::EncoderInput input = encoderInput(in.prepared);
        {   // random sign flips of the Laplacian eigenvectors (spec §3.5)
            Rng rng(deriveSeed(seed ^ 0x5161ULL, static_cast<std::uint64_t>(step)));
            std::vector<float> signs(static_cast<size_t>(peDims));
            for (float& s : signs) s = rng.uniform() < 0.5 ? -1.0f : 1.0f;
            const auto w = input.x.size(1);
            input.x.narrow(1, w - peDims, peDims).mul_(torch::tensor(signs));
        }
        const torch::Tensor logits = net->forward(input);
        const std::vector<double> l = toDoubles(logits);
        SampleScorer scorer(in.problem, cfg.threads);
        const SampleBatch batch =
            scorer.sample(l, cfg.samples, deriveSeed(seed ^ 0xA11CEULL, static_cast<std::uint64_t>(step)), true);
        std::vector<std::int64_t> flat;
        flat.reserve(batch.orders.size() * l.size());
        for (const auto& o : batch.orders) flat.insert(flat.end(), o.begin(), o.end());
        const torch::Tensor orders =
            torch::from_blob(flat.data(), {static_cast<std::int64_t>(batch.orders.size()), static_cast<std::int64_t>(l.size())},
                             torch::kInt64);
        const torch::Tensor loss = samplerLoss(logits, orders, batch.costs, cfg.epsilon, cfg.cLogits);
        adam.zero_grad();
        loss.backward();
        dp.averageGradients(params);
        if (cfg.clipNorm > 0) torch::nn::utils::clip_grad_norm_(net->parameters(), cfg.clipNorm);
        adam.step();
        ++step;
        lossSum += loss.item<double>();
        costSum += std::accumulate(batch.costs.begin(), batch.costs.end(), 0.0) / static_cast<double>(batch.costs.size()) /
                   in.problem.g().totalWork();   // scale-free: mean makespan / total work
        ++window;

        stopNow = stopping();
        if (step % cfg.validateEvery == 0 || step == cfg.steps || stopNow) {
            const std::vector<double> sums = dp.mean({lossSum, costSum});
            const double meanLoss = sums[0] / window, meanCost = sums[1] / window;
            lossSum = costSum = 0;
            window = 0;
            dp.requireIdenticalParameters(params);
            if (!dp.isRoot()) continue;   // rank 0 validates and writes
            const auto [vg, vs] = validate(net, val, cfg.threads);
            if (report.firstMeanCost == 0) report.firstMeanCost = meanCost;
            report.lastMeanCost = meanCost;
            log(models::formatText("step %6lld  loss %+.4f  mean cost %.4f (makespan / total work)  val greedy %.4f  val S(16) %.4f "
                    "(x best heuristic)  |logit| %.2f  %.0f s%s",
                    static_cast<long long>(step), meanLoss, meanCost, vg, vs,
                    torch::abs(logits.detach()).max().item<double>(), seconds(), vs < best ? "  *" : ""));
            if (vs < best) {
                best = vs;
                saveSampler(net, cfg.out);
                writeCard(step, vg, vs);
            }
            saveSampler(net, ckpt + ".slw");
            models::saveOptimizerState(adam, ckpt + ".adam");
            nlohmann::json state{{"step", step}, {"best", best}, {"seconds", seconds()}, {"seed", cfg.seed},
                                 {"data", cfg.data.describe()}, {"history", history}, {"phaseStart", phaseStart}};
            writeFileAtomically(ckpt + ".json", state.dump(2));
        }
    }
    report.steps = step;
    report.seconds = seconds();
    report.bestValidation = best;
    return report;
}

} // namespace sl::ps
