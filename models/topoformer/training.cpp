// SPDX-License-Identifier: MIT
// REINFORCE with a greedy-rollout baseline for the Topoformer memory model (Gagrani et al., NeurIPS 2022).
#include "models/topoformer/training.h"

#include "models/topoformer/decoding.h"
#include "models/topoformer/imitation.h"
#include "models/topoformer/trainingdata.h"
#include "models/topoformer/model.h"

#include "models/train/loop.h"

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

/// One-sided paired test that `a` is lower than `b` on average (normal approximation of the t
/// distribution; the validation set has >= 100 graphs). Returns the p-value.
double pairedPValue(const std::vector<double>& a, const std::vector<double>& b) {
    const size_t n = a.size();
    if (n < 2) return 1;
    std::vector<double> d(n);
    for (size_t i = 0; i < n; ++i) d[i] = a[i] - b[i];
    const double m = meanOf(d);
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

std::string fmt(const char* format, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, x);
    return buf;
}

/// REINFORCE with a greedy-rollout baseline (Gagrani et al., NeurIPS 2022; Kool et al.'s
/// baseline) as a method of the shared training loop: the step's graphs (TopoformerData: fresh
/// layered graphs or label set entries), samples of the model's orders against the baseline's
/// greedy order; each validation (every epoch, on every rank) replaces the baseline when the
/// model is better on a paired test and decays the learning rate. Lower validation peaks are
/// better, so the loop's score is their negation.
class TopoformerMethod : public TrainingMethod {
public:
    TopoformerMethod(const TopoformerTrainConfig& c, const LogFn& log)
        : m_c(c), m_config(topoformerModelConfig(c)), m_data(c, m_config, log), m_model(m_config), m_baseline(m_config),
          m_lr(c.learningRate) {
        if (!c.init.empty()) loadWeights(*m_model, c.init, kTopoformerKind);
        copyWeights(m_model, m_baseline);
        m_baselineVal = greedyPeaks(m_baseline, m_data.validation());
        m_initialValidation = meanOf(m_baselineVal);
        log("validation: " + std::to_string(m_data.validation().size()) + " graphs; " + m_data.referenceName() +
            " mean peak " + fmt("%.3f", meanOf(m_data.reference())) + "; baseline greedy " + fmt("%.3f", m_initialValidation) +
            " (" + fmt("%+.2f", m_data.meanGap(m_baselineVal)) + "%)");
    }
    double initialValidation() const { return m_initialValidation; }

    void restore(const std::string& ckpt) override {
        const nlohmann::json st = nlohmann::json::parse(readFile(ckpt + ".topoformer.json"));
        m_lr = st.at("lr").get<double>();
        m_baselineUpdates = st.at("baseline_updates").get<int>();
        loadWeights(*m_model, ckpt + ".model", kTopoformerKind);
        loadWeights(*m_baseline, ckpt + ".baseline", kTopoformerKind);
        m_baselineVal = greedyPeaks(m_baseline, m_data.validation());
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
        const std::vector<Prepared> batch = m_data.batch(step, seed);
        Rng rng(mixSeeds(mixSeeds(seed, static_cast<std::uint64_t>(step)), 0x5A3D));
        const EncoderInput in = batchOf(batch);
        std::vector<double> base(batch.size());
        {
            at::NoGradGuard noGrad;
            const at::Tensor yb = m_baseline->forward(in);
            for (size_t b = 0; b < batch.size(); ++b) {
                const Graph& g = *batch[b].graph;
                base[b] = orderPeak(g, greedyOrder(g, rowPriorities(yb[static_cast<std::int64_t>(b)], g.opCount())));
            }
        }
        const at::Tensor y = m_model->forward(in);
        std::vector<std::vector<SampledOrder>> samples(batch.size());
        double costSum = 0;
        for (size_t b = 0; b < batch.size(); ++b) {
            const Graph& g = *batch[b].graph;
            const std::vector<double> prio = rowPriorities(y[static_cast<std::int64_t>(b)], g.opCount());
            for (int k = 0; k < m_c.samplesPerGraph; ++k) {
                SampledOrder so;
                so.order = sampleOrder(g, prio, rng, &so.ready);
                so.cost = orderPeak(g, so.order);
                costSum += so.cost / m_c.samplesPerGraph;
                samples[b].push_back(std::move(so));
            }
        }
        return {reinforceLoss(y, samples, base, m_c.relativeAdvantage), {costSum / static_cast<double>(batch.size())}};
    }
    std::string describeWindow(const std::vector<double>& m) const override { return "mean-cost " + fmt("%.3f", m[0]); }

    Validation validate() override {
        const std::vector<double> val = greedyPeaks(m_model, m_data.validation());
        const double valMean = meanOf(val), gap = m_data.meanGap(val);
        const bool updated = valMean < meanOf(m_baselineVal) && pairedPValue(val, m_baselineVal) < m_c.pValue;
        if (updated) {
            copyWeights(m_model, m_baseline);
            m_baselineVal = val;
            ++m_baselineUpdates;
        }
        m_lr *= m_c.lrDecay;
        Validation v;
        v.score = m_data.labelled() ? -gap : -valMean;   // label steps differ in size: their mean gap
        v.summary = "val-cost " + fmt("%.3f", valMean) + " (" + fmt("%+.2f", gap) + "% vs " + m_data.referenceName() +
                    ", worst " + fmt("%+.2f", m_data.worstGap(val)) + "%)  baseline " + fmt("%.3f", meanOf(m_baselineVal)) +
                    (updated ? " updated" : "") + "  lr " + fmt("%.2e", m_lr);
        nlohmann::json r;
        r["validation_mean_greedy_peak"] = valMean;
        r["validation_gap_vs_reference_percent"] = gap;
        r["validation_worst_gap_vs_reference_percent"] = m_data.worstGap(val);
        r["validation_reference"] = m_data.referenceName();
        r["validation_reference_mean_peak"] = meanOf(m_data.reference());
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
        card.data = m_data.describe() + (m_c.init.empty() ? "" : "; started from " + std::filesystem::path(m_c.init).filename().string());
        return card;
    }

private:
    const TopoformerTrainConfig& m_c;
    TopoformerConfig m_config;
    TopoformerData m_data;
    TopoformerModel m_model, m_baseline;
    std::vector<double> m_baselineVal;
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
    if (c.loss != "reinforce" && c.loss != "imitation")
        throw std::invalid_argument("train topoformer: the loss is reinforce or imitation, not '" + c.loss + "'");
    if (c.loss == "imitation" && c.labels.empty())
        throw std::invalid_argument("train topoformer: imitation learns from a label set: give --labels FILE");
    if (c.resume && !std::filesystem::exists(c.out + ".ckpt.json"))
        throw std::runtime_error("train topoformer: no checkpoint at '" + c.out + ".ckpt.json' to resume from");
    LoopSettings s = loopSettings("topoformer", c);
    s.logEvery = s.validateEvery = c.epochSteps;
    s.validateOnEveryRank = true;   // the baseline and the learning rate follow validation
    double initial = 0;
    const LoopReport loop = runTrainingLoop(s, [&](DataParallel&) {
        if (c.loss == "imitation") {
            auto method = std::make_unique<ImitationMethod>(c, log);
            initial = method->initialValidation();
            return std::unique_ptr<TrainingMethod>(std::move(method));
        }
        auto method = std::make_unique<TopoformerMethod>(c, log);
        initial = method->initialValidation();
        return std::unique_ptr<TrainingMethod>(std::move(method));
    }, log, stop);
    TopoformerTrainReport report;
    report.steps = loop.steps;
    report.seconds = loop.seconds;
    report.initialValidation = initial;
    report.bestValidation = -loop.bestScore;
    if (!loop.best.resultsJson.empty())
        report.bestValidationGap = nlohmann::json::parse(loop.best.resultsJson).at("validation_gap_vs_reference_percent").get<double>();
    if (!loop.firstWindow.empty()) {
        report.firstMeanCost = loop.firstWindow[0];
        report.lastMeanCost = loop.lastWindow[0];
    }
    return report;
}

} // namespace sl::models
