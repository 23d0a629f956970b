// SPDX-License-Identifier: MIT
#include "models/prioritysampler/training.h"

#include "models/prioritysampler/gumbel.h"
#include "models/prioritysampler/network.h"
#include "models/prioritysampler/plackettluce.h"
#include "models/prioritysampler/samplescorer.h"

#include "models/train/loop.h"
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

/// Algorithm 1 of Jeon et al. (ICLR 2023) as a method of the shared training loop: one graph per
/// step (an epoch visits them in a random order), N Gumbel samples of its priorities, the
/// Plackett-Luce loss on their standardised makespans; validation: greedy and S(16) against the best
/// heuristic (lower is better, so the loop's score is -S(16)).
class PrioritySamplerMethod : public models::TrainingMethod {
public:
    explicit PrioritySamplerMethod(const TrainConfig& cfg, const models::LogFn& log)
        : m_cfg(cfg), m_log(log), m_config(samplerConfig(cfg)), m_net(m_config) {
        m_net->train();
    }

    /// The graphs, prepared on first use: after a resume, with the checkpoint's type slots.
    void prepareData() {
        if (!m_train.empty()) return;
        const auto t0 = std::chrono::steady_clock::now();
        m_log(models::formatText("data: %d training graphs (%s), %d validation graphs; preparing features and masks",
                                 m_cfg.trainGraphs, m_cfg.data.describe().c_str(), m_cfg.validationGraphs));
        for (int i = 0; i < m_cfg.trainGraphs; ++i) m_train.push_back(makeInstance(m_cfg.data, Split::Train, i, m_config.typeSlots, false));
        for (int i = 0; i < m_cfg.validationGraphs; ++i)
            m_val.push_back(makeInstance(m_cfg.data, Split::Validation, i, m_config.typeSlots, true));
        if (m_train.empty()) throw std::runtime_error("train priority-sampler: no training graphs");
        m_log(models::formatText("prepared in %.1f s; model %s",
                                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                                 m_config.toJson().c_str()));
    }

    void restore(const std::string& ckpt) override {
        m_net = loadSampler(ckpt + ".slw");
        m_config = m_net->config();
        m_net->train();
        std::ifstream in(ckpt + ".phases.json");
        if (!in) return;   // an older checkpoint: assume the same data
        const auto state = nlohmann::json::parse(in);
        m_history = state.value("history", std::string());
        m_phaseStart = state.value("phaseStart", std::int64_t(1));
        m_step = state.value("step", std::int64_t(0));
        const std::string before = state.value("data", m_cfg.data.describe());
        if (before != m_cfg.data.describe()) {
            // Another training family or size range (fine-tuning): its validation set is another
            // one, so the old best does not compare.
            m_bestComparable = false;
            m_history += models::formatText("steps %lld-%lld on %s; ", static_cast<long long>(m_phaseStart),
                                            static_cast<long long>(m_step), before.c_str());
            m_phaseStart = m_step + 1;
            m_log("training data changed: validation restarts (" + m_cfg.data.describe() + ")");
        }
    }
    bool bestStillComparable() const override { return m_bestComparable; }
    void saveCheckpoint(const std::string& ckpt) override {
        saveSampler(m_net, ckpt + ".slw");
        const nlohmann::json state{{"data", m_cfg.data.describe()}, {"history", m_history}, {"phaseStart", m_phaseStart},
                                   {"step", m_step}};
        writeFileAtomically(ckpt + ".phases.json", state.dump(2));
    }
    std::vector<torch::Tensor> parameters() override { return m_net->parameters(); }
    void saveModel(const std::string& path) override { saveSampler(m_net, path); }

    models::StepResult step(std::int64_t step, std::uint64_t seed) override {
        prepareData();
        m_step = step + 1;
        Instance& in = m_train[static_cast<size_t>(graphOf(step, seed))];
        models::EncoderInput input = encoderInput(in.prepared);
        flipEigenvectorSigns(input, step, seed);
        const torch::Tensor logits = m_net->forward(input);
        const std::vector<double> l = toDoubles(logits);
        SampleScorer scorer(in.problem, m_cfg.threads);
        const SampleBatch batch =
            scorer.sample(l, m_cfg.samples, deriveSeed(seed ^ 0xA11CEULL, static_cast<std::uint64_t>(step)), true);
        std::vector<std::int64_t> flat;
        flat.reserve(batch.orders.size() * l.size());
        for (const auto& o : batch.orders) flat.insert(flat.end(), o.begin(), o.end());
        const torch::Tensor orders =   // cloned: the loss's backward reads it after this function returns
            torch::from_blob(flat.data(), {static_cast<std::int64_t>(batch.orders.size()), static_cast<std::int64_t>(l.size())},
                             torch::kInt64)
                .clone();
        const double meanCost = std::accumulate(batch.costs.begin(), batch.costs.end(), 0.0) /
                                static_cast<double>(batch.costs.size()) / in.problem.g().totalWork();
        return {samplerLoss(logits, orders, batch.costs, m_cfg.epsilon, m_cfg.cLogits),
                {meanCost, torch::abs(logits.detach()).max().item<double>()}};
    }
    std::string describeWindow(const std::vector<double>& m) const override {
        return models::formatText("mean cost %.4f (makespan / total work)  |logit| %.2f", m[0], m[1]);
    }

    models::Validation validate() override {
        prepareData();
        const auto [greedy, s16] = ps::validate(m_net, m_val, m_cfg.threads);
        models::Validation v;
        v.score = -s16;
        v.summary = models::formatText("val greedy %.4f  val S(16) %.4f (x best heuristic)", greedy, s16);
        v.resultsJson = models::formatText("{\"validation_greedy_vs_best_heuristic\": %.4f, \"validation_s16_vs_best_heuristic\": %.4f}",
                                           greedy, s16);
        return v;
    }
    models::ModelCard card() const override {
        models::ModelCard card;
        card.model = kWeightKind;
        card.architecture = m_config.toJson();
        card.features = featureSpec(m_config.typeSlots).describe();
        card.data = m_history + models::formatText("steps %lld-%lld: %d generated training graphs (%s, seeds 1000000..%d), %d validation graphs (seeds 2000000..)",
                                                   static_cast<long long>(m_phaseStart), static_cast<long long>(m_step), m_cfg.trainGraphs,
                                                   m_cfg.data.describe().c_str(), 1000000 + m_cfg.trainGraphs - 1, m_cfg.validationGraphs);
        card.notes = models::formatText("Algorithm 1 of Jeon et al. (ICLR 2023): N = %d samples per update, c_logits = %g, eps = %g, "
                                        "Adam lr %g, grad-norm clip %g, seed %llu, %d thread(s). Ratios < 1 beat the best of list-cp, "
                                        "list-mopnr, list-spt.",
                                        m_cfg.samples, m_cfg.cLogits, m_cfg.epsilon, m_cfg.learningRate, m_cfg.clipNorm,
                                        static_cast<unsigned long long>(m_cfg.seed), m_cfg.threads);
        return card;
    }

private:
    /// The graph of `step`: epochs visit the training graphs in an order drawn from (seed, epoch).
    int graphOf(std::int64_t step, std::uint64_t seed) {
        const auto n = static_cast<std::int64_t>(m_train.size());
        const std::int64_t epoch = step / n;
        if (epoch != m_permEpoch) {
            m_perm.resize(m_train.size());
            std::iota(m_perm.begin(), m_perm.end(), 0);
            Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(epoch) + 0xE90C));
            rng.shuffle(m_perm);
            m_permEpoch = epoch;
        }
        return m_perm[static_cast<size_t>(step % n)];
    }

    /// Random sign flips of the Laplacian eigenvectors (Jeon et al., Sec. 3.5).
    void flipEigenvectorSigns(models::EncoderInput& input, std::int64_t step, std::uint64_t seed) const {
        const int peDims = featureSpec(m_config.typeSlots).laplacianDims;
        Rng rng(deriveSeed(seed ^ 0x5161ULL, static_cast<std::uint64_t>(step)));
        std::vector<float> signs(static_cast<size_t>(peDims));
        for (float& s : signs) s = rng.uniform() < 0.5 ? -1.0f : 1.0f;
        const auto w = input.x.size(1);
        input.x.narrow(1, w - peDims, peDims).mul_(torch::tensor(signs));
    }

    const TrainConfig& m_cfg;
    const models::LogFn& m_log;
    SamplerConfig m_config;   ///< a resumed run takes its checkpoint's
    PrioritySamplerNet m_net;
    std::vector<Instance> m_train, m_val;
    std::vector<int> m_perm;
    std::int64_t m_permEpoch = -1, m_step = 0, m_phaseStart = 1;
    std::string m_history;   ///< earlier training phases on other data (fine-tuning), for the model card
    bool m_bestComparable = true;
};

} // namespace

TrainReport trainPrioritySampler(const TrainConfig& cfg, const std::function<void(const std::string&)>& log,
                                 std::stop_token stop) {
    if (cfg.out.empty()) throw std::runtime_error("train priority-sampler: no output path (--out FILE)");
    if (cfg.samples < 2) throw std::runtime_error("train priority-sampler: --samples must be at least 2");
    models::LoopSettings s = models::loopSettings("priority-sampler", cfg);
    s.logEvery = s.validateEvery = cfg.validateEvery;
    const models::LoopReport loop = models::runTrainingLoop(
        s, [&](models::DataParallel&) { return std::make_unique<PrioritySamplerMethod>(cfg, log); }, log, stop);
    TrainReport report;
    report.steps = loop.steps;
    report.seconds = loop.seconds;
    report.bestValidation = -loop.bestScore;
    if (!loop.firstWindow.empty()) {
        report.firstMeanCost = loop.firstWindow[0];
        report.lastMeanCost = loop.lastWindow[0];
    }
    return report;
}

} // namespace sl::ps
