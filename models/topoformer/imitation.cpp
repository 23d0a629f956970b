// SPDX-License-Identifier: MIT
#include "models/topoformer/imitation.h"

#include "models/topoformer/decoding.h"
#include "models/train/trainers.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>

#include <filesystem>


namespace sl::models {

torch::Tensor imitationLoss(const torch::Tensor& priorities, const std::vector<const Graph*>& graphs,
                            const std::vector<std::vector<OpId>>& orders) {
    std::vector<at::Tensor> terms;
    for (size_t b = 0; b < orders.size(); ++b) {
        const auto n = static_cast<std::int64_t>(orders[b].size());
        const at::Tensor row = priorities[static_cast<std::int64_t>(b)].narrow(0, 0, n);
        const at::Tensor logProb = plackettLuceLogProbTensor(row, orders[b], readySets(*graphs[b], orders[b]));
        terms.push_back(-logProb / static_cast<double>(n));
    }
    return at::stack(terms).mean();
}

ImitationMethod::ImitationMethod(const TopoformerTrainConfig& c, const LogFn& log)
    : m_c(c), m_config(topoformerModelConfig(c)), m_data(c, m_config, log), m_model(m_config) {
    if (!c.init.empty()) loadWeights(*m_model, c.init, kTopoformerKind);
    const std::vector<double> start = greedyPeaks(m_model, m_data.validation(), c.validationBeam);
    m_initialValidation = meanOf(start);
    log("validation: " + std::to_string(m_data.validation().size()) + " steps; untrained " + decoding() + " " +
        formatText("%+.2f", m_data.meanGap(start)) + "% above their optima");
}

void ImitationMethod::restore(const std::string& checkpoint) { loadWeights(*m_model, checkpoint + ".model", kTopoformerKind); }

void ImitationMethod::saveCheckpoint(const std::string& checkpoint) { saveTopoformer(m_model, checkpoint + ".model"); }

StepResult ImitationMethod::step(std::int64_t step, std::uint64_t seed) {
    const std::vector<Prepared> batch = m_data.batch(step, seed);
    std::vector<const Graph*> graphs;
    std::vector<std::vector<OpId>> orders;
    for (const Prepared& p : batch) {
        graphs.push_back(p.graph.get());
        orders.push_back(p.label->order);
    }
    const at::Tensor loss = imitationLoss(m_model->forward(batchOf(batch)), graphs, orders);
    return {loss, {loss.item<double>()}};
}

std::string ImitationMethod::describeWindow(const std::vector<double>& means) const {
    return "nll/step " + formatText("%.4f", means[0]);
}

Validation ImitationMethod::validate() {
    const std::vector<double> val = greedyPeaks(m_model, m_data.validation(), m_c.validationBeam);
    const double gap = m_data.meanGap(val), worst = m_data.worstGap(val);
    Validation v;
    v.score = -gap;
    v.summary = decoding() + " " + formatText("%+.2f", gap) + "% above the optima (worst " +
        formatText("%+.2f", worst) + "%" + m_data.gapsBySet(val) + ")";
    nlohmann::json r;
    r["loss"] = "imitation";
    r["validation_mean_greedy_peak"] = meanOf(val);
    r["validation_decoding"] = decoding();
    r["validation_gap_vs_reference_percent"] = gap;
    r["validation_worst_gap_vs_reference_percent"] = worst;
    r["validation_reference"] = m_data.referenceName();
    r["batch"] = m_c.batch;
    r["learning_rate"] = m_c.learningRate;
    v.resultsJson = r.dump();
    return v;
}

std::string ImitationMethod::decoding() const {
    return m_c.validationBeam > 0 ? "beam-" + std::to_string(m_c.validationBeam) : "greedy";
}

ModelCard ImitationMethod::card() const {
    ModelCard card;
    card.model = kTopoformerKind;
    card.architecture = m_config.toJson();
    card.features = m_config.features.describe();
    card.data = m_data.describe() + "; loss: Plackett-Luce negative log-likelihood of the labelled orders" +
                (m_c.init.empty() ? "" : "; started from " + std::filesystem::path(m_c.init).filename().string());
    return card;
}

} // namespace sl::models
