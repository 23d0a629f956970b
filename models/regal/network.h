// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's policy network (Paliwal et al., "REGAL: Transfer Learning for Fast Optimization of
/// Computation Graphs", ICLR 2020, "R" below: §3.3 eqs. 1-6, App. A.5). Includes LibTorch: models/
/// only.
///
///  - RegalGnn (R eqs. 1-5): h_v = MLP_n(x_v), h_e = MLP_e(x_e); T rounds of
///      m_e  = MLP_msg ([h_src, h_dst, h_e])  (to the edge's target)
///      m'_e = MLP_msg'([h_src, h_dst, h_e])  (to the edge's source)
///      h_v <- MLP_node([h_v, agg_in(m) + agg_out(m')])
///    with the MLPs shared across rounds; agg = mean (R A.5) or sum (eq. 5). Every MLP is
///    Linear -> ReLU -> Linear, width `state` (R A.5: 32).
///  - RegalPolicy: the mean of a Gaussian over each key's shift (core/regal/actions.h), in log
///    shape units: the affinity head reads [h_v, pair features of (v, q)] for each device q, the
///    priority head h_v. Both heads end in a zero-initialised layer, so an untrained policy's mean
///    is 0 for every key: plain BRKGA. The heads are shared by the devices, so the model runs on any
///    device count and permuting the devices permutes its outputs. Ours, not the paper's: its
///    2(d + 1) categorical heads are tied to one device count (docs/regal.md, "The policy").
/// Several graphs go through at once as one disjoint union (GraphBatch), device counts may differ.

#include "core/regal/actions.h"
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
    int nodeFeatures = kNodeWidth;
    int pairFeatures = kPairWidth;
    int state = 32;         ///< R A.5
    int rounds = 16;        ///< T, R A.5
    bool meanAggregation = true;
    /// Exploration: the standard deviation of the shift's Gaussian in training, fixed, so that no
    /// two draws are the same run and the reward never loses its gradient (docs/regal.md, "Training").
    double sigma = 0.5;
    bool learnsPlacement = true, learnsScheduling = true;   ///< which heads training steered
    /// The heads also read the op's own features x_v beside h_v (ours, not R's: after 16 rounds of
    /// mean aggregation h_v has lost most of x_v, e.g. the population's mean position, which is
    /// what a priority should start from; docs/regal.md, "Where imitation is not enough").
    bool headsReadInput = false;
    std::string trainedOn;  ///< free text: objective, data
    std::string objective = "memory";

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
    torch::Tensor x;          ///< [N, node features] float
    torch::Tensor pairX;      ///< [P, pair features] float: (op, device) rows, op-major per graph
    torch::Tensor pairNode;   ///< [P] int64: the node of each pair row
    torch::Tensor edgeAttr;   ///< [E, 1] float
    torch::Tensor source, target;   ///< [E] int64
    torch::Tensor inDegree, outDegree;   ///< [N, 1] float, clamped to >= 1 (mean aggregation)
    std::vector<int> offsets;            ///< first node of each graph, plus the total
    std::vector<int> pairOffsets;        ///< first pair row of each graph, plus the total
    std::vector<int> devices;            ///< per graph
    int graphs() const { return static_cast<int>(offsets.size()) - 1; }
};
GraphBatch makeBatch(const std::vector<const GraphFeatures*>& graphs);

class MlpImpl : public torch::nn::Module {
public:
    MlpImpl(int in, int hidden, int out);
    torch::Tensor forward(const torch::Tensor& x);
    void zeroLastLayer();   ///< outputs 0 until trained

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

/// The Gaussians' means, in log shape units (divide by kShiftStep for shifts).
struct PolicyOutput {
    torch::Tensor affinity;   ///< [P]: per (op, device) row of the batch
    torch::Tensor priority;   ///< [N]
};

class RegalPolicyImpl : public torch::nn::Module {
public:
    explicit RegalPolicyImpl(const NetworkConfig& config);
    PolicyOutput forward(const GraphBatch& batch);
    const NetworkConfig& config() const { return m_config; }

private:
    NetworkConfig m_config;
    RegalGnn m_gnn{nullptr};
    Mlp m_affinity{nullptr}, m_priority{nullptr};
};
TORCH_MODULE(RegalPolicy);

void savePolicy(const RegalPolicy& policy, const std::string& path);
/// Builds the policy from the file's config and loads its weights. Throws std::runtime_error.
RegalPolicy loadPolicy(const std::string& path);
/// loadPolicy() once per file and modification time for the process (the optimizer runs many
/// times; a retrained file is read again). Thread-safe; the policy is only read (no-grad forward).
RegalPolicy cachedPolicy(const std::string& path);

} // namespace sl::regal
