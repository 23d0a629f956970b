// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Imitation of proven optima for Topoformer (docs/topoformer.md, "Learning from proven optima"):
/// minimise the Plackett-Luce negative log-likelihood (Gagrani et al. 2022, eq. 8) of each
/// labelled order, per step of the order, so that greedy decoding follows orders exact-memory
/// proved optimal. Validation: greedy peaks on the label set's reserved steps against their
/// optima. A method of the shared training loop. Includes LibTorch: models/ only.

#include "models/topoformer/model.h"
#include "models/topoformer/training.h"
#include "models/topoformer/trainingdata.h"
#include "models/train/loop.h"

namespace sl::models {

/// Mean over the batch of -log p(order) / |order| under eq. 8; `priorities` is [B, N], row b
/// for orders[b] (each a topological order of its graph).
torch::Tensor imitationLoss(const torch::Tensor& priorities, const std::vector<const Graph*>& graphs,
                            const std::vector<std::vector<OpId>>& orders);

class ImitationMethod : public TrainingMethod {
public:
    ImitationMethod(const TopoformerTrainConfig& c, const LogFn& log);
    double initialValidation() const { return m_initialValidation; }

    void restore(const std::string& checkpoint) override;
    void saveCheckpoint(const std::string& checkpoint) override;
    std::vector<torch::Tensor> parameters() override { return m_model->parameters(); }
    void saveModel(const std::string& path) override { saveTopoformer(m_model, path); }
    StepResult step(std::int64_t step, std::uint64_t seed) override;
    std::string describeWindow(const std::vector<double>& means) const override;
    Validation validate() override;
    ModelCard card() const override;

private:
    std::string decoding() const;   ///< how validation decodes: "greedy" or "beam-W"
    const TopoformerTrainConfig& m_c;
    TopoformerConfig m_config;
    TopoformerData m_data;
    TopoformerModel m_model;
    double m_initialValidation = 0;
};

} // namespace sl::models
