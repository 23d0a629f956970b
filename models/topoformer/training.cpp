// SPDX-License-Identifier: MIT
// REINFORCE with a greedy-rollout baseline for the Topoformer memory model (Gagrani et al., NeurIPS 2022).
#include "models/topoformer/training.h"

#include "models/topoformer/decoding.h"
#include "models/topoformer/model.h"

#include "models/train/loop.h"

#include "core/generators/generators.h"
#include "core/heuristics/memoryorders.h"
#include "core/util/atomicfile.h"
#include "core/util/random.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/nn/utils/clip_grad.h>
#include <torch/optim/adam.h>
#include <torch/serialize.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <numeric>
#include <stdexcept>

namespace sl::models {

namespace {

struct Prepared {
    std::shared_ptr<Graph> graph;
    EncoderInput input;
};

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    std::uint64_t x = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x7F4A7C159E3779B9ULL + (a << 6) + (a >> 2));
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    return x | 1;   // non-zero: also used as a PE sign seed
}

std::vector<double> rowPriorities(const at::Tensor& y, int n) {
    const at::Tensor row = y.narrow(0, 0, n).detach().to(at::kDouble).contiguous();
    const double* p = row.data_ptr<double>();
    return {p, p + n};
}

/// Greedy peaks of `model` on prepared graphs, batched, no gradients.
std::vector<double> greedyPeaks(TopoformerModel& model, const std::vector<Prepared>& graphs) {
    at::NoGradGuard noGrad;
    std::vector<double> peaks;
    const size_t chunk = 16;
    for (size_t i = 0; i < graphs.size(); i += chunk) {
        std::vector<EncoderInput> inputs;
        for (size_t j = i; j < std::min(graphs.size(), i + chunk); ++j) inputs.push_back(graphs[j].input);
        const at::Tensor y = model->forward(batchInputs(inputs));
        for (size_t j = i; j < std::min(graphs.size(), i + chunk); ++j) {
            const Graph& g = *graphs[j].graph;
            const std::vector<double> prio = rowPriorities(y[static_cast<std::int64_t>(j - i)], g.opCount());
            peaks.push_back(orderPeak(g, greedyOrder(g, prio)));
        }
    }
    return peaks;
}

double mean(const std::vector<double>& v) {
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

/// One-sided paired test that `a` is lower than `b` on average (normal approximation of the t
/// distribution; the validation set has >= 100 graphs). Returns the p-value.
double pairedPValue(const std::vector<double>& a, const std::vector<double>& b) {
    const size_t n = a.size();
    if (n < 2) return 1;
    std::vector<double> d(n);
    for (size_t i = 0; i < n; ++i) d[i] = a[i] - b[i];
    const double m = mean(d);
    double ss = 0;
    for (double x : d) ss += (x - m) * (x - m);
    const double sd = std::sqrt(ss / static_cast<double>(n - 1));
    if (sd == 0) return m < 0 ? 0 : 1;
    const double t = m / (sd / std::sqrt(static_cast<double>(n)));
    return 0.5 * std::erfc(-t / std::sqrt(2.0));
}

void copyWeights(TopoformerModel& from, TopoformerModel& to) {
    at::NoGradGuard noGrad;
    auto src = from->named_parameters(true);
    for (auto& p : to->named_parameters(true)) p.value().copy_(src[p.key()]);
}

double bestClassicPeak(const Graph& g) {
    double best = kInfinity;
    for (auto* rule : {&dfsOrder, &bfsOrder, &postOrder, &xlaListOrder}) best = std::min(best, orderPeak(g, (*rule)(g)));
    return best;
}

std::string fmt(const char* format, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, x);
    return buf;
}

/// REINFORCE with a greedy-rollout baseline (Gagrani et al., NeurIPS 2022; Kool et al.'s
/// baseline) as a method of the shared training loop: fresh layered graphs per step, samples of
/// the model's orders against the baseline's greedy order; each validation (every epoch, on
/// every rank) replaces the baseline when the model is better on a paired test and decays the
/// learning rate. Lower validation peaks are better, so the loop's score is their negation.
class TopoformerMethod : public TrainingMethod {
public:
    TopoformerMethod(const TopoformerTrainConfig& c, const LogFn& log)
        : m_c(c), m_config(topoformerModelConfig(c)), m_model(m_config), m_baseline(m_config), m_lr(c.learningRate) {
        copyWeights(m_model, m_baseline);
        for (int i = 0; i < c.validationGraphs; ++i) {   // a fixed validation set and the best classic order on each
            GeneratedInstance inst = generateLayered(c.validationNodes, kValidationSeedBase + static_cast<std::uint64_t>(i));
            m_classic.push_back(bestClassicPeak(*inst.graph));
            m_validation.push_back({inst.graph, topoformerInput(*inst.graph, m_config)});
        }
        m_baselineVal = greedyPeaks(m_baseline, m_validation);
        m_initialValidation = mean(m_baselineVal);
        log("validation: " + std::to_string(c.validationGraphs) + " layered graphs of " + std::to_string(c.validationNodes) +
            " ops; best classic order mean peak " + fmt("%.3f", mean(m_classic)) + "; baseline greedy " +
            fmt("%.3f", m_initialValidation) + " (" + fmt("%+.2f", gapOf(m_baselineVal)) + "%)");
    }
    double initialValidation() const { return m_initialValidation; }

    void restore(const std::string& ckpt) override {
        const nlohmann::json st = nlohmann::json::parse(readFile(ckpt + ".topoformer.json"));
        m_lr = st.at("lr").get<double>();
        m_baselineUpdates = st.at("baseline_updates").get<int>();
        loadWeights(*m_model, ckpt + ".model", kTopoformerKind);
        loadWeights(*m_baseline, ckpt + ".baseline", kTopoformerKind);
        m_baselineVal = greedyPeaks(m_baseline, m_validation);
    }
    void saveCheckpoint(const std::string& ckpt) override {
        saveTopoformer(m_model, ckpt + ".model");
        saveTopoformer(m_baseline, ckpt + ".baseline");
        const nlohmann::json st{{"lr", m_lr}, {"baseline_updates", m_baselineUpdates}};
        writeFileAtomically(ckpt + ".topoformer.json", st.dump(2) + "\n");
    }
    std::vector<at::Tensor> parameters() override { return m_model->parameters(); }
    std::vector<at::Tensor> sharedState() override { return m_baseline->parameters(); }
    std::optional<double> learningRate() const override { return m_lr; }
    void saveModel(const std::string& path) override { saveTopoformer(m_model, path); }

    StepResult step(std::int64_t step, std::uint64_t seed) override {
        Rng rng(mix(seed, static_cast<std::uint64_t>(step)));
        std::vector<Prepared> batch;
        std::vector<EncoderInput> inputs;
        for (int b = 0; b < m_c.batch; ++b) {
            const int n = static_cast<int>(rng.integer(m_c.minNodes, m_c.maxNodes));
            const std::uint64_t gseed =
                kTrainSeedBase + (mix(mix(seed, static_cast<std::uint64_t>(step)), static_cast<std::uint64_t>(b)) % kTrainSeedBase);
            GeneratedInstance inst = generateLayered(n, gseed);
            batch.push_back({inst.graph, topoformerInput(*inst.graph, m_config, gseed)});
            inputs.push_back(batch.back().input);
        }
        const EncoderInput in = batchInputs(inputs);
        std::vector<double> base(static_cast<size_t>(m_c.batch));
        {
            at::NoGradGuard noGrad;
            const at::Tensor yb = m_baseline->forward(in);
            for (int b = 0; b < m_c.batch; ++b) {
                const Graph& g = *batch[static_cast<size_t>(b)].graph;
                base[static_cast<size_t>(b)] = orderPeak(g, greedyOrder(g, rowPriorities(yb[b], g.opCount())));
            }
        }
        const at::Tensor y = m_model->forward(in);
        std::vector<std::vector<SampledOrder>> samples(static_cast<size_t>(m_c.batch));
        double costSum = 0;
        for (int b = 0; b < m_c.batch; ++b) {
            const Graph& g = *batch[static_cast<size_t>(b)].graph;
            const std::vector<double> prio = rowPriorities(y[b], g.opCount());
            for (int k = 0; k < m_c.samplesPerGraph; ++k) {
                SampledOrder so;
                so.order = sampleOrder(g, prio, rng, &so.ready);
                so.cost = orderPeak(g, so.order);
                costSum += so.cost / m_c.samplesPerGraph;
                samples[static_cast<size_t>(b)].push_back(std::move(so));
            }
        }
        return {reinforceLoss(y, samples, base, m_c.relativeAdvantage), {costSum / m_c.batch}};
    }
    std::string describeWindow(const std::vector<double>& m) const override { return "mean-cost " + fmt("%.3f", m[0]); }

    Validation validate() override {
        const std::vector<double> val = greedyPeaks(m_model, m_validation);
        const double valMean = mean(val), gap = gapOf(val);
        const bool updated = valMean < mean(m_baselineVal) && pairedPValue(val, m_baselineVal) < m_c.pValue;
        if (updated) {
            copyWeights(m_model, m_baseline);
            m_baselineVal = val;
            ++m_baselineUpdates;
        }
        m_lr *= m_c.lrDecay;
        Validation v;
        v.score = -valMean;
        v.summary = "val-cost " + fmt("%.3f", valMean) + " (" + fmt("%+.2f", gap) + "% vs best classic)  baseline " +
                    fmt("%.3f", mean(m_baselineVal)) + (updated ? " updated" : "") + "  lr " + fmt("%.2e", m_lr);
        nlohmann::json r;
        r["validation_mean_greedy_peak"] = valMean;
        r["validation_gap_vs_best_classic_percent"] = gap;
        r["validation_best_classic_mean_peak"] = mean(m_classic);
        r["baseline_updates"] = m_baselineUpdates;
        r["batch"] = m_c.batch;
        r["samples_per_graph"] = m_c.samplesPerGraph;
        r["learning_rate"] = m_c.learningRate;
        v.resultsJson = r.dump();
        return v;
    }
    ModelCard card() const override {
        ModelCard card;
        card.model = kTopoformerKind;
        card.architecture = m_config.toJson();
        card.features = m_config.features.describe();
        card.data = "layered graphs (Gagrani et al., NeurIPS 2022; core/generators generateLayered), " +
                    std::to_string(m_c.minNodes) + "-" + std::to_string(m_c.maxNodes) + " ops, fresh each step, seeds " +
                    std::to_string(kTrainSeedBase) + " + mix(seed, step, i); validation " +
                    std::to_string(m_c.validationGraphs) + " graphs of " + std::to_string(m_c.validationNodes) +
                    " ops, seeds " + std::to_string(kValidationSeedBase) + " + i";
        return card;
    }

private:
    double gapOf(const std::vector<double>& peaks) const {
        double s = 0;
        for (size_t i = 0; i < peaks.size(); ++i) s += (peaks[i] - m_classic[i]) / m_classic[i];
        return 100 * s / static_cast<double>(peaks.size());
    }

    const TopoformerTrainConfig& m_c;
    TopoformerConfig m_config;
    TopoformerModel m_model, m_baseline;
    std::vector<Prepared> m_validation;
    std::vector<double> m_classic, m_baselineVal;
    double m_lr, m_initialValidation = 0;
    int m_baselineUpdates = 0;
};

} // namespace

TopoformerTrainReport trainTopoformer(const TopoformerTrainConfig& c, const std::function<void(const std::string&)>& log,
                                      std::stop_token stop) {
    if (c.out.empty()) throw std::invalid_argument("train topoformer: --out is required");
    if (c.samplesPerGraph < 1 || c.minNodes < 2 || c.maxNodes < c.minNodes || c.batch < 1 || c.epochSteps < 1 || c.steps < 0 ||
        c.validationGraphs < 2 || c.validationNodes < 2)
        throw std::invalid_argument("train topoformer: bad sizes (nodes, batch, epoch steps, validation)");
    if (c.resume && !std::filesystem::exists(c.out + ".ckpt.json"))
        throw std::runtime_error("train topoformer: no checkpoint at '" + c.out + ".ckpt.json' to resume from");
    LoopSettings s = loopSettings("topoformer", c);
    s.logEvery = s.validateEvery = c.epochSteps;
    s.validateOnEveryRank = true;   // the baseline and the learning rate follow validation
    double initial = 0;
    const LoopReport loop = runTrainingLoop(s, [&](DataParallel&) {
        auto method = std::make_unique<TopoformerMethod>(c, log);
        initial = method->initialValidation();
        return method;
    }, log, stop);
    TopoformerTrainReport report;
    report.steps = loop.steps;
    report.seconds = loop.seconds;
    report.initialValidation = initial;
    report.bestValidation = -loop.bestScore;
    if (!loop.best.resultsJson.empty())
        report.bestValidationGap = nlohmann::json::parse(loop.best.resultsJson).at("validation_gap_vs_best_classic_percent").get<double>();
    if (!loop.firstWindow.empty()) {
        report.firstMeanCost = loop.firstWindow[0];
        report.lastMeanCost = loop.lastWindow[0];
    }
    return report;
}

} // namespace sl::models
