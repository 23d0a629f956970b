// SPDX-License-Identifier: MIT
#include "models/regal/training.h"

#include "core/brkga/regaldecoder.h"
#include "core/regal/features.h"
#include "core/regal/search.h"
#include "core/util/atomicfile.h"
#include "core/util/random.h"
#include "core/util/workerpool.h"
#include "models/encoder/encoder.h"
#include "models/distributed/checkpoint.h"
#include "models/distributed/dataparallel.h"
#include "models/encoder/maththreads.h"
#include "models/regal/network.h"
#include "models/regal/sampling.h"
#include "models/train/trainers.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <tuple>

namespace sl::regal {

namespace {

/// A graph with its cached features and plain-BRKGA costs (one per seed index, NaN until run).
struct Example {
    Instance instance;
    std::uint64_t seed = 0;
    GraphFeatures features;
    std::vector<double> plain;
};

std::uint64_t brkgaSeed(const Example& e, int seedIndex) { return deriveSeed(e.seed, 1000 + static_cast<std::uint64_t>(seedIndex)); }

double plainCost(const Example& e, int seedIndex, std::int64_t budget) {
    return search(e.instance.problem, {.budget = budget, .seed = brkgaSeed(e, seedIndex)}).result.bestCost;
}

double learnedCost(const Example& e, int seedIndex, std::int64_t budget, const Actions& actions, LearnedKeys learned) {
    SearchRequest r{.budget = budget, .seed = brkgaSeed(e, seedIndex)};
    r.distributions = geneDistributions(RegalLayout::of(e.instance.problem), actions, learned, r.params.rho);
    return search(e.instance.problem, r).result.bestCost;
}

std::vector<Example> prepare(std::vector<Instance> instances, std::uint64_t seedBase, const TrainConfig& c, WorkerPool& pool) {
    std::vector<Example> out(instances.size());
    for (std::size_t i = 0; i < instances.size(); ++i) {
        out[i].instance = std::move(instances[i]);
        out[i].seed = deriveSeed(seedBase, i);
        out[i].plain.assign(static_cast<std::size_t>(c.seedsPerGraph), std::numeric_limits<double>::quiet_NaN());
    }
    pool.run(static_cast<int>(out.size()), [&](int i, int) {
        Example& e = out[static_cast<std::size_t>(i)];
        e.features = computeFeatures(e.instance.problem, {.budget = c.featureBudget, .seed = deriveSeed(e.seed, 0)});
    });
    return out;
}

/// Fills the plain costs the picks need (distinct (graph, seed) pairs, so no two workers share a slot).
void fillPlainCosts(std::vector<Example>& examples, const std::vector<std::pair<int, int>>& picks, std::int64_t budget,
                    WorkerPool& pool) {
    std::vector<std::pair<int, int>> missing;
    for (const auto& p : std::set<std::pair<int, int>>(picks.begin(), picks.end()))
        if (std::isnan(examples[static_cast<std::size_t>(p.first)].plain[static_cast<std::size_t>(p.second)])) missing.push_back(p);
    pool.run(static_cast<int>(missing.size()), [&](int i, int) {
        const auto [g, s] = missing[static_cast<std::size_t>(i)];
        Example& e = examples[static_cast<std::size_t>(g)];
        e.plain[static_cast<std::size_t>(s)] = plainCost(e, s, budget);
    });
}

std::vector<const GraphFeatures*> featuresOf(const std::vector<Example>& examples, const std::vector<std::pair<int, int>>& picks) {
    std::vector<const GraphFeatures*> f;
    for (const auto& p : picks) f.push_back(&examples[static_cast<std::size_t>(p.first)].features);
    return f;
}

Validation validate(RegalPolicy& policy, std::vector<Example>& val, const TrainConfig& c, WorkerPool& pool) {
    std::vector<std::pair<int, int>> picks;
    for (int i = 0; i < static_cast<int>(val.size()); ++i) picks.emplace_back(i, 0);
    fillPlainCosts(val, picks, c.budget, pool);
    std::vector<Actions> actions;
    {
        torch::NoGradGuard noGrad;
        const GraphBatch batch = makeBatch(featuresOf(val, picks));
        Rng rng(deriveSeed(c.seed, 0xFA11DA7E));   // the same draw at every validation
        actions = chooseActions(policy->forward(batch), batch, policy->config(), rng);
    }
    std::vector<double> improvement(val.size());
    pool.run(static_cast<int>(val.size()), [&](int i, int) {
        const Example& e = val[static_cast<std::size_t>(i)];
        const double cost = learnedCost(e, 0, c.budget, actions[static_cast<std::size_t>(i)], c.learned);
        improvement[static_cast<std::size_t>(i)] = 100 * (e.plain[0] - cost) / e.plain[0];
    });
    Validation v;
    for (double x : improvement) {
        v.meanImprovement += x / static_cast<double>(improvement.size());
        v.shareBetterOrEqual += (x >= -1e-12 ? 1.0 : 0.0) / static_cast<double>(improvement.size());
    }
    return v;
}

/// A step's (graph, seed index) pairs: `batch` graphs with replacement, each repeated for its
/// `samplesPerGraph` draws (side by side, as leaveOneOut() expects).
std::vector<std::pair<int, int>> drawPicks(Rng& rng, const TrainConfig& c, std::size_t graphs) {
    std::vector<std::pair<int, int>> picks;
    for (int b = 0; b < c.batch; ++b) {
        const auto pick = std::make_pair(static_cast<int>(rng.integer(0, static_cast<std::int64_t>(graphs) - 1)),
                                         static_cast<int>(rng.integer(0, c.seedsPerGraph - 1)));
        picks.insert(picks.end(), static_cast<std::size_t>(c.samplesPerGraph), pick);
    }
    return picks;
}

/// -cost(learned BRKGA) / cost(plain BRKGA) per pick, the runs spread over the pool.
std::vector<double> rewards(std::vector<Example>& train, const std::vector<std::pair<int, int>>& picks,
                            const std::vector<Actions>& actions, const TrainConfig& c, WorkerPool& pool) {
    fillPlainCosts(train, picks, c.budget, pool);
    std::vector<double> reward(picks.size());
    pool.run(static_cast<int>(picks.size()), [&](int b, int) {
        const auto [g, s] = picks[static_cast<std::size_t>(b)];
        const Example& e = train[static_cast<std::size_t>(g)];
        reward[static_cast<std::size_t>(b)] = -learnedCost(e, s, c.budget, actions[static_cast<std::size_t>(b)], c.learned) /
                                              e.plain[static_cast<std::size_t>(s)];
    });
    return reward;
}

NetworkConfig networkConfig(const TrainConfig& c) {
    NetworkConfig n;
    n.devices = c.data.devices;
    n.nodeFeatures = GraphFeatures::widthFor(c.data.devices);
    n.state = c.state;
    n.rounds = c.rounds;
    n.k = c.k;
    n.meanAggregation = c.meanAggregation;
    n.eliteBias = c.eliteBias;
    n.learnsPlacement = c.learned.placement;
    n.learnsScheduling = c.learned.scheduling;
    n.objective = toString(c.data.objective);
    return n;
}

std::string describeData(const TrainConfig& c, std::size_t train, std::size_t val) {
    std::string families;
    for (const auto& f : c.data.families) families += (families.empty() ? "" : ",") + f;
    std::string onnx;
    for (const auto& f : c.data.onnxFiles) onnx += (onnx.empty() ? "" : ", ") + std::filesystem::path(f).filename().string();
    return models::formatText("%zu training / %zu validation graphs: %s (%d-%d forward ops%s)%s%s, %d identical devices, %s objective; "
               "seeds 3000000.. / 4000000..",
               train, val, families.c_str(), c.data.minNodes, c.data.maxNodes, c.data.inference ? "" : ", training steps with SGD or Adam",
               onnx.empty() ? "" : models::formatText(", plus %d noisy copies (tensor sizes x U(0.5, 1.5)) of ", c.data.onnxCopies).c_str(),
               onnx.c_str(), c.data.devices, toString(c.data.objective).c_str());
}

/// Running means over one logging window.
struct Window {
    double reward = 0, improvement = 0, baselineError = 0, gradNorm = 0;
    int graphs = 0, steps = 0, clipped = 0;
};

} // namespace

TrainReport trainRegal(const TrainConfig& c, const std::function<void(const std::string&)>& log, std::stop_token stop) {
    if (c.out.empty()) throw std::invalid_argument("train regal: no output path (--out FILE)");
    if (c.batch < 1 || c.seedsPerGraph < 1 || c.budget < 1 || c.validationGraphs < 1)
        throw std::invalid_argument("train regal: --batch, --seeds-per-graph, --budget and --validation-graphs must be positive");
    const models::MathThreads pin(1);   // graphs run in parallel instead; one thread keeps the sums reproducible
    models::DataParallel dp(c.dist);   // the rendezvous first: a missing peer fails before any work
    torch::manual_seed(c.seed);
    const auto t0 = std::chrono::steady_clock::now();
    WorkerPool pool(std::max(1, c.threads));

    DatasetSpec valSpec = c.data;
    valSpec.graphs = c.validationGraphs;
    valSpec.onnxCopies = std::min(c.data.onnxCopies, 1);
    std::vector<Example> train = prepare(makeDataset(c.data, Split::Training), 11, c, pool);
    std::vector<Example> val = prepare(makeDataset(valSpec, Split::Validation), 12, c, pool);
    if (train.empty()) throw std::invalid_argument("train regal: the training set is empty");
    NetworkConfig nc = networkConfig(c);
    nc.trainedOn = describeData(c, train.size(), val.size());
    log("data: " + nc.trainedOn + models::formatText(" (features in %.0f s)", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));

    RegalPolicy policy(nc);
    RegalBaseline baseline(nc);
    std::vector<torch::Tensor> params = policy->parameters();
    for (auto& p : baseline->parameters()) params.push_back(p);
    torch::optim::Adam adam(params, torch::optim::AdamOptions(c.learningRate).betas({0.9, 0.999}).eps(1e-8));

    const std::string ckpt = c.out + ".ckpt";
    std::int64_t step = 0;
    double secondsBefore = 0;
    TrainReport report;
    report.bestValidation = -std::numeric_limits<double>::infinity();
    if (c.resume) {
        if (!std::filesystem::exists(ckpt + ".json")) throw std::runtime_error("train regal: no checkpoint at '" + ckpt + ".json'");
        std::ifstream in(ckpt + ".json");
        const nlohmann::json st = nlohmann::json::parse(in);
        step = st.at("step").get<std::int64_t>();
        secondsBefore = st.at("seconds").get<double>();
        report.bestStep = st.at("best_step").get<std::int64_t>();
        if (report.bestStep > 0) report.bestValidation = st.at("best_validation").get<double>();   // step 0 is no model
        models::loadWeights(*policy, ckpt + ".policy.slw", kWeightKind);
        models::loadWeights(*baseline, ckpt + ".baseline.slw", "regal-baseline");
        torch::load(adam, ckpt + ".adam");
        log(models::formatText("resumed at step %lld", static_cast<long long>(step)));
    }
    dp.requireSameStep(step);
    dp.broadcastParameters(params);
    const std::uint64_t seed = dp.seed(c.seed);   // this rank's picks and draws
    if (dp.distributed())
        log(models::formatText("data-parallel: %s; each rank picks its own graphs, so a step averages %d x %d graphs; rank 0 "
                               "validates and writes", dp.options().describe().c_str(), dp.worldSize(), c.batch));
    const auto seconds = [&] { return secondsBefore + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

    const auto saveBest = [&](const Validation& v) {
        savePolicy(policy, c.out);
        models::ModelCard card;
        card.model = "regal";
        card.architecture = nc.toJson();
        std::string cols;
        for (const auto& s : featureColumns(nc.devices)) cols += (cols.empty() ? "" : ",") + s;
        card.features = cols + models::formatText(" (feature run: plain BRKGA, %lld evaluations)", static_cast<long long>(c.featureBudget));
        card.command = c.command;
        card.data = nc.trainedOn;
        card.steps = step;
        card.seconds = seconds();
        card.worldSize = dp.worldSize();
        card.results = models::formatText("{\"validation_graphs\": %zu, \"validation_budget\": %lld, \"validation_mean_improvement_percent\": %.4f, "
                           "\"validation_share_better_or_equal\": %.4f, \"batch\": %d, \"samples_per_graph\": %d, \"lr\": %g, \"clip\": %g, \"lambda\": %g, "
                           "\"train_budget\": %lld, \"seeds_per_graph\": %d, \"threads\": %d}",
                           val.size(), static_cast<long long>(c.budget), v.meanImprovement, v.shareBetterOrEqual, c.batch, c.samplesPerGraph,
                           c.learningRate, c.clipNorm, c.baselineWeight, static_cast<long long>(c.budget), c.seedsPerGraph, c.threads);
        card.notes = "Reward: -cost(REGAL) / cost(plain BRKGA), same graph, seed and budget. Validation: one sampled action "
                     "set per graph (fixed seed), BRKGA with the learned Betas vs plain BRKGA at the training budget.";
        models::writeModelCard(card, c.out + ".card.json");
    };
    const auto checkpoint = [&] {
        dp.requireIdenticalParameters(params);
        if (!dp.isRoot()) return;
        const Validation v = validate(policy, val, c, pool);
        // The untrained policy's number is logged, never shipped as "the best model".
        const bool best = step > 0 && v.meanImprovement > report.bestValidation;
        if (best) {
            report.bestValidation = v.meanImprovement;
            report.bestStep = step;
            saveBest(v);
        }
        models::saveWeights(*policy, ckpt + ".policy.slw", kWeightKind, nc.toJson());
        models::saveWeights(*baseline, ckpt + ".baseline.slw", "regal-baseline", nc.toJson());
        models::saveOptimizerState(adam, ckpt + ".adam");
        nlohmann::json st{{"step", step}, {"seconds", seconds()}, {"best_validation", report.bestValidation}, {"best_step", report.bestStep}};
        writeFileAtomically(ckpt + ".json", st.dump(2));
        log(models::formatText("step %lld validation: REGAL %+.3f %% vs plain BRKGA (%.0f %% of graphs better or equal)%s  %.0f s",
                static_cast<long long>(step), v.meanImprovement, 100 * v.shareBetterOrEqual, best ? "  best so far, saved" : "",
                seconds()));
    };
    if (step == 0) checkpoint();   // the untrained policy's number, for the card's curve

    Window w;
    bool firstWindow = true;
    // Every rank stops at the same step: one rank's time limit or Ctrl-C stops all.
    const auto stopping = [&] { return dp.anyStops(stop.stop_requested() || (c.timeLimit > 0 && seconds() >= c.timeLimit)); };
    while (step < c.steps && !stopping()) {
        Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(step)));
        const std::vector<std::pair<int, int>> picks = drawPicks(rng, c, train.size());
        const GraphBatch batch = makeBatch(featuresOf(train, picks));
        const PolicyOutput out = policy->forward(batch);
        const std::vector<Actions> actions = chooseActions(out, batch, nc, rng);
        const std::vector<double> reward = rewards(train, picks, actions, c, pool);
        const torch::Tensor r = torch::tensor(std::vector<float>(reward.begin(), reward.end()));
        const torch::Tensor b = baseline->forward(batch);
        const torch::Tensor logp = logProbability(out, batch, actions);
        const torch::Tensor advantage = c.samplesPerGraph > 1 ? leaveOneOut(r, c.samplesPerGraph) : (r - b).detach();
        const torch::Tensor loss = reinforceLoss(logp, r, b, advantage, c.baselineWeight);
        adam.zero_grad();
        loss.backward();
        dp.averageGradients(params);
        const double norm = torch::nn::utils::clip_grad_norm_(params, c.clipNorm);
        adam.step();
        ++step;

        for (double x : reward) {
            w.reward += x;
            w.improvement += 100 * (1 + x);
        }
        w.baselineError += (r - b).abs().mean().item<double>();
        w.gradNorm += norm;
        w.clipped += norm > c.clipNorm;
        w.graphs += static_cast<int>(picks.size());
        ++w.steps;
        if (step % c.logEvery == 0 || step == c.steps) {
            const std::vector<double> m = dp.mean({w.reward, w.improvement, w.baselineError, w.gradNorm});
            std::tie(w.reward, w.improvement, w.baselineError, w.gradNorm) = std::tie(m[0], m[1], m[2], m[3]);
            const double meanReward = w.reward / w.graphs;
            if (firstWindow) report.firstReward = meanReward;
            firstWindow = false;
            report.lastReward = meanReward;
            log(models::formatText("step %lld  reward %.4f (%+.2f %% vs plain BRKGA)  |r - b| %.4f  grad norm %.3f (clipped %d)  %.2f s/step",
                    static_cast<long long>(step), meanReward, w.improvement / w.graphs, w.baselineError / w.steps,
                    w.gradNorm / w.steps, w.clipped, seconds() / static_cast<double>(std::max<std::int64_t>(1, step))));
            w = Window{};
        }
        if (step % c.checkpointEvery == 0) checkpoint();
    }
    if (step % c.checkpointEvery != 0) checkpoint();
    report.steps = step;
    report.seconds = seconds();
    return report;
}

} // namespace sl::regal
