// SPDX-License-Identifier: MIT
#include "models/regal/training.h"

#include "core/brkga/regaldecoder.h"
#include "core/regal/features.h"
#include "core/regal/oracle.h"
#include "core/regal/search.h"
#include "core/util/random.h"
#include "core/util/workerpool.h"
#include "models/regal/imitation.h"
#include "models/regal/network.h"
#include "models/regal/sampling.h"
#include "models/train/loop.h"
#include "models/train/trainers.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>

namespace sl::regal {

namespace {

/// A graph with, per BRKGA seed index, the run up to the steering point (its snapshot and the
/// features the policy sees there) and plain BRKGA's cost: they depend on the graph and the seed
/// only, so they are computed on first use and every reward resumes from the snapshot.
struct Example {
    Instance instance;
    const OracleLabel* label = nullptr;   ///< the label set's entry it came from, if any
    std::uint64_t seed = 0;
    std::vector<std::optional<GraphFeatures>> features;
    std::vector<std::shared_ptr<const brkga::Snapshot>> atSteering;
    std::vector<double> plain;
};

using Pick = std::pair<int, int>;   ///< (example, seed index)

std::uint64_t brkgaSeed(const Example& e, int seedIndex) { return deriveSeed(e.seed, 1000 + static_cast<std::uint64_t>(seedIndex)); }

SearchRequest runOf(const Example& e, int seedIndex, std::int64_t budget, int steerAfter) {
    SearchRequest r;
    r.budget = budget;
    r.seed = brkgaSeed(e, seedIndex);
    r.steering.afterGeneration = steerAfter;
    return r;
}

/// The run up to the steering point: the features the policy reads there, and the snapshot every
/// reward run resumes from.
void runToSteering(Example& e, int seedIndex, int steerAfter) {
    SearchRequest r = runOf(e, seedIndex, evaluationsThrough({}, steerAfter), steerAfter);
    r.snapshotAtSteering = true;
    r.steering.choose = [&](std::span<const brkga::Chromosome> population) {
        e.features[static_cast<std::size_t>(seedIndex)] = computeFeatures(e.instance.problem, population);
        return brkga::Distributions{};
    };
    e.atSteering[static_cast<std::size_t>(seedIndex)] = search(e.instance.problem, r).atSteering;
}

/// The cost of the run resumed at the steering point with `distributions` (none: plain BRKGA).
double costFromSteering(const Example& e, int seedIndex, std::int64_t budget, int steerAfter, const brkga::Distributions& distributions) {
    SearchRequest r = runOf(e, seedIndex, budget, steerAfter);
    r.resumeFrom = e.atSteering[static_cast<std::size_t>(seedIndex)];
    r.steering.choose = [&](std::span<const brkga::Chromosome>) { return distributions; };
    return search(e.instance.problem, r).result.bestCost;
}

double steeredCost(const Example& e, int seedIndex, std::int64_t budget, int steerAfter, const Actions& actions, LearnedKeys learned) {
    return costFromSteering(e, seedIndex, budget, steerAfter, geneDistributions(RegalLayout::of(e.instance.problem), actions, learned));
}

std::vector<Example> examplesOf(std::vector<Instance> instances, std::uint64_t seedBase, int seeds) {
    std::vector<Example> out(instances.size());
    for (std::size_t i = 0; i < instances.size(); ++i) {
        out[i].instance = std::move(instances[i]);
        out[i].seed = deriveSeed(seedBase, i);
        out[i].features.resize(static_cast<std::size_t>(seeds));
        out[i].atSteering.resize(static_cast<std::size_t>(seeds));
        out[i].plain.assign(static_cast<std::size_t>(seeds), std::numeric_limits<double>::quiet_NaN());
    }
    return out;
}

/// The label set's entries of `objective` as examples, each pointing at its label.
std::vector<Example> labelledExamples(const std::vector<OracleLabel>& labels, Objective objective, std::uint64_t seedBase, int seeds) {
    std::vector<Instance> instances;
    std::vector<const OracleLabel*> from;
    for (const OracleLabel& l : labels) {
        if (l.spec.objective != objective) continue;
        instances.push_back({describe(l.spec), l.problem});
        from.push_back(&l);
    }
    std::vector<Example> out = examplesOf(std::move(instances), seedBase, seeds);
    for (std::size_t i = 0; i < out.size(); ++i) out[i].label = from[i];
    return out;
}

/// Fills the features and (`withPlain`) plain costs `picks` need, on the pool (distinct picks: no
/// shared slot).
void prepare(std::vector<Example>& examples, const std::vector<Pick>& picks, std::int64_t budget, int steerAfter, WorkerPool& pool,
             bool withPlain = true) {
    std::vector<Pick> missing;
    for (const Pick& p : std::set<Pick>(picks.begin(), picks.end())) {
        const Example& e = examples[static_cast<std::size_t>(p.first)];
        if (!e.features[static_cast<std::size_t>(p.second)] || (withPlain && std::isnan(e.plain[static_cast<std::size_t>(p.second)])))
            missing.push_back(p);
    }
    pool.run(static_cast<int>(missing.size()), [&](int i, int) {
        const auto [g, s] = missing[static_cast<std::size_t>(i)];
        Example& e = examples[static_cast<std::size_t>(g)];
        if (!e.features[static_cast<std::size_t>(s)]) runToSteering(e, s, steerAfter);
        if (withPlain && std::isnan(e.plain[static_cast<std::size_t>(s)]))
            e.plain[static_cast<std::size_t>(s)] = costFromSteering(e, s, budget, steerAfter, {});
    });
}

std::vector<const GraphFeatures*> featuresOf(const std::vector<Example>& examples, const std::vector<Pick>& picks) {
    std::vector<const GraphFeatures*> f;
    for (const Pick& p : picks) f.push_back(&*examples[static_cast<std::size_t>(p.first)].features[static_cast<std::size_t>(p.second)]);
    return f;
}

/// % better than plain BRKGA per pick, with `draws[i]` steering pick i.
std::vector<double> improvements(const std::vector<Example>& examples, const std::vector<Pick>& picks, const std::vector<Draw>& draws,
                                 std::int64_t budget, int steerAfter, LearnedKeys learned, WorkerPool& pool) {
    std::vector<double> out(picks.size());
    pool.run(static_cast<int>(picks.size()), [&](int i, int) {
        const auto [g, s] = picks[static_cast<std::size_t>(i)];
        const Example& e = examples[static_cast<std::size_t>(g)];
        const double plain = e.plain[static_cast<std::size_t>(s)];
        const double cost = steeredCost(e, s, budget, steerAfter, draws[static_cast<std::size_t>(i)].actions, learned);
        out[static_cast<std::size_t>(i)] = 100 * (plain - cost) / plain;
    });
    return out;
}

/// A step's picks: `batch` (graph, seed index) pairs drawn with replacement.
std::vector<Pick> drawPicks(Rng& rng, const TrainConfig& c, std::size_t graphs) {
    std::vector<Pick> picks;
    for (int b = 0; b < c.batch; ++b)
        picks.emplace_back(static_cast<int>(rng.integer(0, static_cast<std::int64_t>(graphs) - 1)),
                           static_cast<int>(rng.integer(0, c.seedsPerGraph - 1)));
    return picks;
}

struct SetScore {
    double mean = 0, shareBetterOrEqual = 0;
    int runs = 0;
};

SetScore scoreOf(const std::vector<double>& improvement) {
    SetScore s;
    s.runs = static_cast<int>(improvement.size());
    for (double x : improvement) {
        s.mean += x / static_cast<double>(improvement.size());
        s.shareBetterOrEqual += (x >= -1e-12 ? 1.0 : 0.0) / static_cast<double>(improvement.size());
    }
    return s;
}

/// The policy's means (what runs at test time) on every (example, seed), in % better than plain BRKGA.
SetScore validateSet(RegalPolicy& policy, std::vector<Example>& set, const TrainConfig& c, WorkerPool& pool) {
    std::vector<Pick> picks;
    for (int i = 0; i < static_cast<int>(set.size()); ++i)
        for (int s = 0; s < c.validationSeeds; ++s) picks.emplace_back(i, s);
    if (picks.empty()) return {};
    prepare(set, picks, c.validationBudget, c.steerAfter, pool);
    std::vector<Draw> draws;
    {
        torch::NoGradGuard noGrad;
        const GraphBatch batch = makeBatch(featuresOf(set, picks));
        Rng unused(0);
        draws = drawActions(policy->forward(batch), batch, c.sigma, unused, /*greedy=*/true, c.learned);
    }
    return scoreOf(improvements(set, picks, draws, c.validationBudget, c.steerAfter, c.learned, pool));
}

NetworkConfig networkConfig(const TrainConfig& c) {
    NetworkConfig n;
    n.state = c.state;
    n.rounds = c.rounds;
    n.meanAggregation = c.meanAggregation;
    n.headsReadInput = c.headsReadInput;
    n.sigma = c.sigma;
    n.learnsPlacement = c.learned.placement;
    n.learnsScheduling = c.learned.scheduling;
    n.objective = toString(c.data.objective);
    return n;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : separator) + s;
    return out;
}

/// "a.onnx, b.onnx", or "none".
std::string validationModelNames(const TrainConfig& c) {
    std::vector<std::string> names;
    for (const auto& f : c.validationModels) names.push_back(std::filesystem::path(f).filename().string());
    return names.empty() ? "none" : joined(names, ", ");
}

std::string describeData(const TrainConfig& c, std::size_t train, std::size_t generated, std::size_t real) {
    std::vector<std::string> devices;
    for (int d : c.data.deviceCounts.empty() ? std::vector<int>{c.data.devices} : c.data.deviceCounts) devices.push_back(std::to_string(d));
    const std::string models = validationModelNames(c);
    return models::formatText(
        "%zu training graphs: %s (%d-%d forward ops%s) on %s identical devices, %s objective, seeds 3000000..; validation: %zu "
        "generated graphs (seeds 4000000..) and %zu real training steps (SGD and Adam of %s)",
        train, joined(c.data.families, ",").c_str(), c.data.minNodes, c.data.maxNodes,
        c.data.inference ? "" : ", training steps with SGD or Adam", joined(devices, "/").c_str(), toString(c.data.objective).c_str(),
        generated, real, models.c_str());
}

std::string describeLabelledData(const TrainConfig& c, const OracleLabelSet& labels, std::size_t train, std::size_t validation,
                                 std::size_t real) {
    return models::formatText(
        "label set %s (core/regal/labels.h; %zu training entries, the best of a %lld-evaluation BRKGA run each, built in %.0f "
        "CPU-seconds): its %zu training and %zu validation entries of the %s objective (nn SGD/Adam steps of 40-700 forward ops "
        "and layered graphs of 100-1,000 ops on 2, 3, 4 or 8 identical devices; seeds 3100000.., 4100000..); %zu real "
        "training steps validate (SGD and Adam of %s)",
        std::filesystem::path(c.labels).filename().string().c_str(), labels.train.size(), static_cast<long long>(labels.guideBudget),
        labels.cpuSeconds, train, validation, toString(c.data.objective).c_str(), real, validationModelNames(c).c_str());
}

/// REGAL's REINFORCE (or imitation) as a method of the shared training loop (see training.h).
class RegalMethod : public models::TrainingMethod {
public:
    RegalMethod(const TrainConfig& c, const models::LogFn& log) : m_c(c), m_pool(std::max(1, c.threads)) {
        DatasetSpec valSpec = c.data;
        valSpec.graphs = c.validationGraphs;
        valSpec.onnxCopies = 0;
        if (!c.labels.empty()) {
            m_labels = loadOracleLabelSet(c.labels);
            m_train = labelledExamples(m_labels.train, c.data.objective, 11, c.seedsPerGraph);
            m_valGenerated = labelledExamples(m_labels.validation, c.data.objective, 12, c.validationSeeds);
        } else {
            m_train = examplesOf(makeDataset(c.data, Split::Training), 11, c.seedsPerGraph);
            m_valGenerated = examplesOf(makeDataset(valSpec, Split::Validation), 12, c.validationSeeds);
        }
        std::vector<Instance> real;
        for (int d : c.validationDevices)
            for (Instance& i : realTrainingSteps(c.validationModels, d, c.data.objective)) real.push_back(std::move(i));
        m_valReal = examplesOf(std::move(real), 13, c.validationSeeds);
        if (m_train.empty()) throw std::invalid_argument("train regal: the training set is empty");
        m_config = networkConfig(c);
        m_config.trainedOn = c.labels.empty() ? describeData(c, m_train.size(), m_valGenerated.size(), m_valReal.size())
                                              : describeLabelledData(c, m_labels, m_train.size(), m_valGenerated.size(), m_valReal.size());
        log("data: " + m_config.trainedOn);
        m_policy = RegalPolicy(m_config);
        if (!c.init.empty()) models::loadWeights(*m_policy, c.init, kWeightKind);
    }

    void restore(const std::string& ckpt) override { models::loadWeights(*m_policy, ckpt + ".policy.slw", kWeightKind); }
    void saveCheckpoint(const std::string& ckpt) override {
        models::saveWeights(*m_policy, ckpt + ".policy.slw", kWeightKind, m_config.toJson());
    }
    std::vector<torch::Tensor> parameters() override { return m_policy->parameters(); }
    void saveModel(const std::string& path) override { savePolicy(m_policy, path); }

    models::StepResult step(std::int64_t step, std::uint64_t seed) override {
        Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(step)));
        const std::vector<Pick> picks = drawPicks(rng, m_c, m_train.size());
        if (m_c.loss == "imitation") return imitationStep(picks);
        prepare(m_train, picks, m_c.budget, m_c.steerAfter, m_pool);
        const GraphBatch batch = makeBatch(featuresOf(m_train, picks));
        const PolicyOutput out = m_policy->forward(batch);
        // S draws of every graph side by side: draw s of graph b at b * S + s (leaveOneOut's groups).
        const int S = m_c.samplesPerGraph;
        std::vector<std::vector<Draw>> bySample;
        for (int s = 0; s < S; ++s) bySample.push_back(drawActions(out, batch, m_c.sigma, rng, /*greedy=*/false, m_c.learned));
        std::vector<Pick> runs;
        std::vector<Draw> draws;
        for (int b = 0; b < batch.graphs(); ++b)
            for (int s = 0; s < S; ++s) {
                runs.push_back(picks[static_cast<std::size_t>(b)]);
                draws.push_back(bySample[static_cast<std::size_t>(s)][static_cast<std::size_t>(b)]);
            }
        const std::vector<double> gain = improvements(m_train, runs, draws, m_c.budget, m_c.steerAfter, m_c.learned, m_pool);
        const torch::Tensor r = torch::tensor(std::vector<float>(gain.begin(), gain.end()));
        torch::Tensor advantage = leaveOneOut(r, S);
        advantage = advantage / (advantage.std() + 1e-3);   // the step size should not follow the graphs' noise
        std::vector<torch::Tensor> logp;
        for (int s = 0; s < S; ++s) logp.push_back(logProbability(out, batch, bySample[static_cast<std::size_t>(s)], m_c.sigma, m_c.learned));
        const torch::Tensor logpSideBySide = torch::stack(logp, 1).reshape({-1});
        const double meanGain = r.mean().item<double>();
        return {reinforceLoss(logpSideBySide, advantage) + stayPenalty(out, batch.graphs(), m_c.stayWeight, m_c.learned),
                {meanGain, policyMeanMagnitude(out)}};
    }
    std::string describeWindow(const std::vector<double>& m) const override {
        if (m_c.loss == "imitation") return models::formatText("nll/key %.4f  |policy mean| %.3f", m[0], m[1]);
        return models::formatText("draws %+.3f %% vs plain BRKGA  |policy mean| %.3f", m[0], m[1]);
    }

    models::Validation validate() override {
        const SetScore real = validateSet(m_policy, m_valReal, m_c, m_pool);
        const SetScore generated = validateSet(m_policy, m_valGenerated, m_c, m_pool);
        models::Validation out;
        out.score = m_valReal.empty() ? generated.mean : std::min(real.mean, generated.mean);
        out.summary = models::formatText("real steps %+.3f %% (%.0f %% better or equal, %d runs), generated %+.3f %% (%.0f %%, %d runs)",
                                         real.mean, 100 * real.shareBetterOrEqual, real.runs, generated.mean,
                                         100 * generated.shareBetterOrEqual, generated.runs);
        out.resultsJson = models::formatText(
            "{\"validation_budget\": %lld, \"validation_seeds\": %d, \"real_mean_improvement_percent\": %.4f, "
            "\"real_share_better_or_equal\": %.4f, \"real_runs\": %d, \"generated_mean_improvement_percent\": %.4f, "
            "\"generated_share_better_or_equal\": %.4f, \"generated_runs\": %d, \"batch\": %d, \"samples_per_graph\": %d, \"lr\": %g, "
            "\"clip\": %g, \"sigma\": %g, \"stay\": %g, \"train_budget\": %lld, \"steer_after\": %d, \"seeds_per_graph\": %d, \"threads\": %d}",
            static_cast<long long>(m_c.validationBudget), m_c.validationSeeds, real.mean, real.shareBetterOrEqual, real.runs,
            generated.mean, generated.shareBetterOrEqual, generated.runs, m_c.batch, m_c.samplesPerGraph, m_c.learningRate, m_c.clipNorm,
            m_c.sigma, m_c.stayWeight, static_cast<long long>(m_c.budget), m_c.steerAfter, m_c.seedsPerGraph, m_c.threads);
        return out;
    }
    models::ModelCard card() const override {
        models::ModelCard card;
        card.model = "regal";
        card.architecture = m_config.toJson();
        card.features = joined(featureColumns(), ",") +
                        models::formatText(" (from the population after %d plain BRKGA generations)", m_c.steerAfter);
        card.data = m_config.trainedOn;
        card.notes = "Reward: % better than plain BRKGA, same graph, seed and budget (the same run until the policy steers). "
                     "Validation: the policy's means at the validation budget; score = the worse of the real and the generated means.";
        return card;
    }

private:
    /// The oracle's (or the teacher's) actions' negative log-likelihood on the picks
    /// (models/regal/imitation.h).
    models::StepResult imitationStep(const std::vector<Pick>& picks) {
        prepare(m_train, picks, m_c.budget, m_c.steerAfter, m_pool, /*withPlain=*/false);
        const GraphBatch batch = makeBatch(featuresOf(m_train, picks));
        const PolicyOutput out = m_policy->forward(batch);
        if (!m_c.teacher.empty()) {
            std::vector<Actions> targets;
            for (const Pick& p : picks) {
                const Problem& problem = m_train[static_cast<std::size_t>(p.first)].instance.problem;
                targets.push_back(freesFirstActions(problem.g(), problem.platform.deviceCount()));
            }
            const torch::Tensor loss = ruleImitationLoss(out, batch, targets, m_c.sigma, m_c.learned);
            return {loss, {loss.item<double>(), policyMeanMagnitude(out)}};
        }
        std::vector<const OracleLabel*> labels;
        for (const Pick& p : picks) labels.push_back(m_train[static_cast<std::size_t>(p.first)].label);
        const torch::Tensor loss = imitationLoss(out, batch, labels, m_c.sigma, m_c.imitationStrength, m_c.learned);
        return {loss, {loss.item<double>(), policyMeanMagnitude(out)}};
    }

    static double policyMeanMagnitude(const PolicyOutput& out) {
        return torch::cat({out.affinity.detach(), out.priority.detach()}).abs().mean().item<double>();
    }

    const TrainConfig& m_c;
    WorkerPool m_pool;
    OracleLabelSet m_labels;
    std::vector<Example> m_train, m_valGenerated, m_valReal;
    NetworkConfig m_config;
    RegalPolicy m_policy{nullptr};
};

} // namespace

TrainReport trainRegal(const TrainConfig& c, const std::function<void(const std::string&)>& log, std::stop_token stop) {
    if (c.out.empty()) throw std::invalid_argument("train regal: no output path (--out FILE)");
    if (c.batch < 1 || c.seedsPerGraph < 1 || c.budget < 2 || c.validationGraphs < 0 || c.validationSeeds < 1 || c.samplesPerGraph < 2 ||
        c.steerAfter < 0 || !(c.sigma > 0))
        throw std::invalid_argument("train regal: --batch, --seeds-per-graph, --budget and --validation-seeds must be positive, "
                                    "--samples-per-graph at least 2, --sigma > 0");
    const std::int64_t prefix = evaluationsThrough({}, c.steerAfter);
    if (std::min(c.budget, c.validationBudget) <= prefix)
        throw std::invalid_argument(models::formatText("train regal: --budget and --validation-budget must exceed the %lld evaluations "
                                                       "of the plain generations before the policy steers (--steer-after %d)",
                                                       static_cast<long long>(prefix), c.steerAfter));
    models::LoopSettings s = models::loopSettings("regal", c);
    s.logEvery = c.logEvery;
    s.validateEvery = c.checkpointEvery;
    s.validateAtStart = true;   // the untrained policy is plain BRKGA: its score is 0 by construction
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
