// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's networks (Paliwal et al., "REGAL: Transfer Learning for Fast Optimization of Computation
/// Graphs", ICLR 2020, "R" below: §3.3 eqs. 1-6, §3.4 eq. 9, App. A.5; "W" is the workshop version,
/// Paliwal et al., "Zero-Shot Learning for Fast Optimization of Computation Graphs"). Includes
/// LibTorch: models/ only.
///
///  - RegalGnn: h_v = MLP_n(x_v), h_e = MLP_e(x_e); T rounds of
///      m_e  = MLP_msg ([h_src, h_dst, h_e])  (to the edge's target)
///      m'_e = MLP_msg'([h_src, h_dst, h_e])  (to the edge's source)
///      h_v <- MLP_node([h_v, agg_in(m) + agg_out(m')])
///    with the MLPs shared across rounds; agg = mean (R A.5, the default) or sum (eq. 5).
///    Every MLP is Linear -> ReLU -> Linear, width `state` (R A.5: 32).
///  - RegalPolicy: a RegalGnn and 2(d + 1) heads (state -> state -> k logits) shared by the ops:
///    for key type q (d affinities, then the priority) one head for the mean m and one for the
///    variance v, independent categoricals (W §2.3); optionally one elite-bias head (k_rho).
///  - RegalBaseline: its own RegalGnn, b(G) = MLP_b(mean_v MLP_g(h_v)) (R eq. 9).
/// Several graphs go through at once as one disjoint union (GraphBatch).

#include "core/regal/features.h"

#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

namespace sl::regal {

inline constexpr const char* kWeightKind = "regal";

struct NetworkConfig {
    int devices = 2;        ///< d: the policy has 2(d + 1) heads
    int nodeFeatures = 8;   ///< GraphFeatures::widthFor(devices)
    int state = 32;         ///< R A.5
    int rounds = 16;        ///< T, R A.5
    /// Quantisation levels of m and v. R states none; 2 is inferred from R §5.1 (docs/regal.md, 'Choices where the papers are silent').
    int k = 2;
    bool meanAggregation = true;
    bool eliteBias = false; ///< R Table 3: the best model learns none
    bool learnsPlacement = true, learnsScheduling = true;   ///< which heads training steered
    int kRho = 4;
    std::string trainedOn;  ///< free text: objective, data
    std::string objective = "memory";

    int heads() const { return 2 * (devices + 1); }
    /// Values in the GNN's weight matrices alone (RegalGnnImpl: 13 state^2 + node features x state),
    /// a lower bound of the model's size checked against a weight file before the model is built.
    std::int64_t weightMatrixValues() const {
        const std::int64_t s = state;
        return 13 * s * s + std::int64_t(nodeFeatures) * s;
    }
    std::string toJson() const;
    static NetworkConfig fromJson(const std::string& json);   ///< throws std::invalid_argument
};

/// A disjoint union of graphs' features as tensors.
struct GraphBatch {
    torch::Tensor x;          ///< [N, F] float
    torch::Tensor edgeAttr;   ///< [E, 1] float
    torch::Tensor source, target;   ///< [E] int64
    torch::Tensor graphOf;    ///< [N] int64: which graph each node belongs to
    torch::Tensor inDegree, outDegree;   ///< [N, 1] float, clamped to >= 1 (mean aggregation)
    torch::Tensor nodesPerGraph;         ///< [B, 1] float
    std::vector<int> offsets;            ///< first node of each graph, plus the total
    int graphs() const { return static_cast<int>(offsets.size()) - 1; }
};
/// Throws std::invalid_argument when the feature widths differ.
GraphBatch makeBatch(const std::vector<const GraphFeatures*>& graphs);

class MlpImpl : public torch::nn::Module {
public:
    MlpImpl(int in, int hidden, int out);
    torch::Tensor forward(const torch::Tensor& x);

private:
    torch::nn::Linear m_first{nullptr}, m_second{nullptr};
};
TORCH_MODULE(Mlp);

class RegalGnnImpl : public torch::nn::Module {
public:
    explicit RegalGnnImpl(const NetworkConfig& config);
    torch::Tensor forward(const GraphBatch& batch);   ///< [N, state]

private:
    NetworkConfig m_config;
    Mlp m_node{nullptr}, m_edge{nullptr}, m_message{nullptr}, m_reverse{nullptr}, m_update{nullptr};
};
TORCH_MODULE(RegalGnn);

struct PolicyOutput {
    torch::Tensor logits;       ///< [N, heads(), k]: head 2q is key type q's mean, 2q + 1 its variance
    torch::Tensor eliteLogits;  ///< [N, kRho] when config().eliteBias, else undefined
};

class RegalPolicyImpl : public torch::nn::Module {
public:
    explicit RegalPolicyImpl(const NetworkConfig& config);
    PolicyOutput forward(const GraphBatch& batch);
    const NetworkConfig& config() const { return m_config; }

private:
    NetworkConfig m_config;
    RegalGnn m_gnn{nullptr};
    std::vector<Mlp> m_heads;
    Mlp m_eliteHead{nullptr};
};
TORCH_MODULE(RegalPolicy);

class RegalBaselineImpl : public torch::nn::Module {
public:
    explicit RegalBaselineImpl(const NetworkConfig& config);
    torch::Tensor forward(const GraphBatch& batch);   ///< [B] predicted rewards

private:
    RegalGnn m_gnn{nullptr};
    Mlp m_perNode{nullptr}, m_readout{nullptr};
};
TORCH_MODULE(RegalBaseline);

void savePolicy(const RegalPolicy& policy, const std::string& path);
/// Builds the policy from the file's config and loads its weights. Throws std::runtime_error.
RegalPolicy loadPolicy(const std::string& path);
/// loadPolicy() once per file and modification time for the process (the optimizer runs many
/// times; a retrained file is read again). Thread-safe; the policy is only read (no-grad forward).
RegalPolicy cachedPolicy(const std::string& path);

} // namespace sl::regal
