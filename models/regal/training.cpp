// SPDX-License-Identifier: MIT
#include "models/regal/training.h"

#include "core/brkga/regaldecoder.h"
#include "core/regal/features.h"
#include "core/regal/search.h"
#include "core/util/atomicfile.h"
#include "core/util/random.h"
#include "core/util/workerpool.h"
#include "models/encoder/encoder.h"
#include "models/regal/network.h"
#include "models/regal/sampling.h"
#include "models/train/loop.h"
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

/// REGAL's REINFORCE (Paliwal et al., ICLR 2020) as a method of the shared training loop: per
/// step a batch of (graph, seed) picks, one sampled action set each, BRKGA with the learned key
/// distributions against plain BRKGA at the same budget; a learned baseline. Validation: one
/// sampled action set per held-out graph (fixed seed), in % better than plain BRKGA.
class RegalMethod : public models::TrainingMethod {
public:
    RegalMethod(const TrainConfig& c, const models::LogFn& log) : m_c(c), m_pool(std::max(1, c.threads)) {
        const auto t0 = std::chrono::steady_clock::now();
        DatasetSpec valSpec = c.data;
        valSpec.graphs = c.validationGraphs;
        valSpec.onnxCopies = std::min(c.data.onnxCopies, 1);
        m_train = prepare(makeDataset(c.data, Split::Training), 11, c, m_pool);
        m_val = prepare(makeDataset(valSpec, Split::Validation), 12, c, m_pool);
        if (m_train.empty()) throw std::invalid_argument("train regal: the training set is empty");
        m_config = networkConfig(c);
        m_config.trainedOn = describeData(c, m_train.size(), m_val.size());
        log("data: " + m_config.trainedOn +
            models::formatText(" (features in %.0f s)", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
        m_policy = RegalPolicy(m_config);
        m_baseline = RegalBaseline(m_config);
    }

    void restore(const std::string& ckpt) override {
        models::loadWeights(*m_policy, ckpt + ".policy.slw", kWeightKind);
        models::loadWeights(*m_baseline, ckpt + ".baseline.slw", "regal-baseline");
    }
    void saveCheckpoint(const std::string& ckpt) override {
        models::saveWeights(*m_policy, ckpt + ".policy.slw", kWeightKind, m_config.toJson());
        models::saveWeights(*m_baseline, ckpt + ".baseline.slw", "regal-baseline", m_config.toJson());
    }
    std::vector<torch::Tensor> parameters() override {
        std::vector<torch::Tensor> params = m_policy->parameters();
        for (auto& p : m_baseline->parameters()) params.push_back(p);
        return params;
    }
    void saveModel(const std::string& path) override { savePolicy(m_policy, path); }

    models::StepResult step(std::int64_t step, std::uint64_t seed) override {
        Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(step)));
        const std::vector<std::pair<int, int>> picks = drawPicks(rng, m_c, m_train.size());
        const GraphBatch batch = makeBatch(featuresOf(m_train, picks));
        const PolicyOutput out = m_policy->forward(batch);
        const std::vector<Actions> actions = chooseActions(out, batch, m_config, rng);
        const std::vector<double> reward = rewards(m_train, picks, actions, m_c, m_pool);
        const torch::Tensor r = torch::tensor(std::vector<float>(reward.begin(), reward.end()));
        const torch::Tensor b = m_baseline->forward(batch);
        const torch::Tensor logp = logProbability(out, batch, actions);
        const torch::Tensor advantage = m_c.samplesPerGraph > 1 ? leaveOneOut(r, m_c.samplesPerGraph) : (r - b).detach();
        double meanReward = 0;
        for (double x : reward) meanReward += x / static_cast<double>(reward.size());
        return {reinforceLoss(logp, r, b, advantage, m_c.baselineWeight),
                {meanReward, 100 * (1 + meanReward), (r - b).abs().mean().item<double>()}};
    }
    std::string describeWindow(const std::vector<double>& m) const override {
        return models::formatText("reward %.4f (%+.2f %% vs plain BRKGA)  |r - b| %.4f", m[0], m[1], m[2]);
    }

    models::Validation validate() override {
        const regal::Validation v = regal::validate(m_policy, m_val, m_c, m_pool);
        models::Validation out;
        out.score = v.meanImprovement;
        out.summary = models::formatText("REGAL %+.3f %% vs plain BRKGA (%.0f %% of graphs better or equal)", v.meanImprovement,
                                         100 * v.shareBetterOrEqual);
        out.resultsJson = models::formatText(
            "{\"validation_graphs\": %zu, \"validation_budget\": %lld, \"validation_mean_improvement_percent\": %.4f, "
            "\"validation_share_better_or_equal\": %.4f, \"batch\": %d, \"samples_per_graph\": %d, \"lr\": %g, \"clip\": %g, \"lambda\": %g, "
            "\"train_budget\": %lld, \"seeds_per_graph\": %d, \"threads\": %d}",
            m_val.size(), static_cast<long long>(m_c.budget), v.meanImprovement, v.shareBetterOrEqual, m_c.batch, m_c.samplesPerGraph,
            m_c.learningRate, m_c.clipNorm, m_c.baselineWeight, static_cast<long long>(m_c.budget), m_c.seedsPerGraph, m_c.threads);
        return out;
    }
    models::ModelCard card() const override {
        models::ModelCard card;
        card.model = "regal";
        card.architecture = m_config.toJson();
        std::string cols;
        for (const auto& s : featureColumns(m_config.devices)) cols += (cols.empty() ? "" : ",") + s;
        card.features = cols + models::formatText(" (feature run: plain BRKGA, %lld evaluations)", static_cast<long long>(m_c.featureBudget));
        card.data = m_config.trainedOn;
        card.notes = "Reward: -cost(REGAL) / cost(plain BRKGA), same graph, seed and budget. Validation: one sampled action "
                     "set per graph (fixed seed), BRKGA with the learned Betas vs plain BRKGA at the training budget.";
        return card;
    }

private:
    const TrainConfig& m_c;
    WorkerPool m_pool;
    std::vector<Example> m_train, m_val;
    NetworkConfig m_config;
    RegalPolicy m_policy{nullptr};
    RegalBaseline m_baseline{nullptr};
};

} // namespace

TrainReport trainRegal(const TrainConfig& c, const std::function<void(const std::string&)>& log, std::stop_token stop) {
    if (c.out.empty()) throw std::invalid_argument("train regal: no output path (--out FILE)");
    if (c.batch < 1 || c.seedsPerGraph < 1 || c.budget < 1 || c.validationGraphs < 1)
        throw std::invalid_argument("train regal: --batch, --seeds-per-graph, --budget and --validation-graphs must be positive");
    models::LoopSettings s = models::loopSettings("regal", c);
    s.logEvery = c.logEvery;
    s.validateEvery = c.checkpointEvery;
    s.validateAtStart = true;   // the untrained policy's number is logged, never shipped
    s.threads = 1;              // graphs run in parallel instead; one math thread keeps the sums reproducible
    const models::LoopReport loop = models::runTrainingLoop(
        s, [&](models::DataParallel&) { return std::make_unique<RegalMethod>(c, log); }, log, stop);
    TrainReport report;
    report.steps = loop.steps;
    report.seconds = loop.seconds;
    if (!loop.firstWindow.empty()) {
        report.firstReward = loop.firstWindow[0];
        report.lastReward = loop.lastWindow[0];
    }
    report.bestValidation = loop.bestScore;
    report.bestStep = std::max<std::int64_t>(0, loop.bestStep);
    return report;
}

} // namespace sl::regal
