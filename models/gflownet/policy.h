// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The per-state GFlowNet policy (Zhang et al., ICLR 2023, Sec. 3.3): the shared Topoformer encoder (models/encoder) with
/// the temperature FiLM, a forward head and a backward head, plus the TB ablation's log Z
/// regressor. Includes LibTorch: include it from .cpp files in models/ only.
///
/// Forward head [ours: one model serves any device count; docs/gflownet.md, "Deviations"]: the
/// logit of (op i, device d) is Linear(d_model, 1)(ReLU(W h_i + V c_id + b)), with c_id the pair
/// columns of statefeatures.h. A head d -> d -> m per op (the paper gives no head sizes) would tie
/// a model to one m; this one is the same MLP with its first layer split into an op part (shared
/// by the devices) and a device part, so it is equivariant under relabelling the devices and has
/// no width tied to m.
/// Backward head: Linear(d, d) -> ReLU -> Linear(d, 1) per op.

#include "models/gflownet/statefeatures.h"

#include "models/encoder/encoder.h"

#include <string>

#include <torch/nn/modules/linear.h>

namespace sl::gfn {

inline constexpr const char* kWeightKind = "gflownet";

struct PolicyConfig {
    models::EncoderConfig encoder;
    std::string trainedOn;   ///< free text for cards and default-weight choice, e.g. "layered 22 ops, m 4"
    std::string toJson() const;
    static PolicyConfig fromJson(const std::string& json);   ///< throws std::invalid_argument
    /// cpuEncoderConfig(kNodeFeatures).
    static PolicyConfig cpu();
};

/// Both architectures' encoder, sized for two CPU cores: d 64, L 2, MLP 128, one head of
/// width 16 per mask (7), e_sigma 32, ReLU MLP.
models::EncoderConfig cpuEncoderConfig(int inputWidth);

/// Tensors of a StateBatch (from_blob copies).
struct StateTensors {
    torch::Tensor nodes;          ///< [B, N, F]
    torch::Tensor pairs;          ///< [B, N, m, C]
    torch::Tensor forwardMask;    ///< [B, N, m] bool
    torch::Tensor backwardMask;   ///< [B, N] bool
};
StateTensors toTensors(const StateBatch& s);

struct PolicyOutput {
    torch::Tensor forwardLogits;    ///< [B, N, m]
    torch::Tensor backwardLogits;   ///< [B, N]
};

class GflowNetPolicyImpl : public torch::nn::Module {
public:
    explicit GflowNetPolicyImpl(const PolicyConfig& config);
    /// `masks`: the graph's encoder input (its x is ignored; states.nodes replaces it).
    /// `logSigma`: one value or [B].
    PolicyOutput forward(const models::EncoderInput& masks, const StateTensors& states, const torch::Tensor& logSigma);
    /// Sampling: the encoder context of batches of `batch` states of the graph of `masks` at sigma.
    models::EncoderContext prepareSampling(const models::EncoderInput& masks, std::int64_t batch, double sigma);
    /// Sampling, no gradient: forwardLogProbs(forward(...)) of a batch, [B, N * m], bit for bit,
    /// without the backward head and without copying the state arrays.
    torch::Tensor sampleLogProbs(const models::EncoderContext& context, const StateBatch& states);
    const PolicyConfig& config() const { return m_config; }

private:
    PolicyConfig m_config;
    models::TopoformerEncoder m_encoder{nullptr};
    torch::nn::Linear m_fwdOp{nullptr}, m_fwdPair{nullptr}, m_fwdOut{nullptr};
    torch::nn::Linear m_bwd1{nullptr}, m_bwd2{nullptr};
};
TORCH_MODULE(GflowNetPolicy);

/// TB ablation (the paper's Sec. 3.2 and App. B): log Z(G, sigma) from a separate encoder on the empty state,
/// mean-pooled, then Linear(d, d) -> ReLU -> Linear(d, 1).
class LogZNetImpl : public torch::nn::Module {
public:
    explicit LogZNetImpl(const models::EncoderConfig& config);
    torch::Tensor forward(const models::EncoderInput& masks, const torch::Tensor& emptyNodes, const torch::Tensor& logSigma);

private:
    models::TopoformerEncoder m_encoder{nullptr};
    torch::nn::Linear m_head1{nullptr}, m_head2{nullptr};
};
TORCH_MODULE(LogZNet);

/// Masked log-softmax over the flattened (op, device) actions: [B, N * m].
torch::Tensor forwardLogProbs(const PolicyOutput& out, const StateTensors& states);
/// Masked log-softmax over the removable ops: [B, N].
torch::Tensor backwardLogProbs(const PolicyOutput& out, const StateTensors& states);

/// The graph's masks as an encoder input (x: the node-feature width, zeros).
models::EncoderInput graphMasks(const Graph& g);

void savePolicy(const GflowNetPolicy& net, const std::string& path);
/// Builds the policy from the file's config and loads its weights. Throws std::runtime_error.
GflowNetPolicy loadPolicy(const std::string& path);

} // namespace sl::gfn
