// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The encode-once GFlowNet policy (docs/gflownet.md, "Two architectures"): the shared Topoformer
/// encoder with the temperature FiLM runs once per graph and sigma on the graph's static op
/// features; each step then scores only the ready actions from their features
/// (models/gflownet/readyactions.h):
///
///     logit(i, d) = beta (s_i + w . ReLU(a_i + V c_id) + u . c_id),
///     a_i = A h_i + b,  s_i = q . h_i,  beta = exp(k0 + k1 log sigma + k2 log(n / m))
///
/// h_i is op i's embedding, c_id the action's features. a_i, s_i and beta are computed once; a
/// step costs one small MLP per changed action. beta is an inverse temperature: the score in the
/// bracket is shared by every sigma, beta sharpens it as sigma falls (it starts as 0.04 / sigma at
/// 15 ops per device, in proportion to n / m: the features are times over work / m, so without it a
/// bigger graph's choices would all look alike). q and w
/// start at 0 and u as list-cp's non-delay rule (the action that starts first; among those, the
/// longest path ahead), so the untrained model samples around list-cp at low sigma;
/// training moves every weight, these included. The backward policy is uniform over the removable ops
/// (Zhang et al., ICLR 2023, Sec. 3 lists it as a choice). Includes LibTorch: .cpp files in
/// models/ only.

#include "models/gflownet/readyactions.h"

#include "models/encoder/encoder.h"

#include <memory>
#include <string>

#include <torch/nn/modules/linear.h>

namespace sl::gfn {

inline constexpr const char* kReadyWeightKind = "gflownet-ready";

struct ReadyPolicyConfig {
    models::EncoderConfig encoder;
    int hidden = 32;                            ///< width of the action MLP
    double sigmaMin = 0.001, sigmaMax = 1.0;    ///< the temperatures it was trained on
    std::string trainedOn;
    std::string toJson() const;
    static ReadyPolicyConfig fromJson(const std::string& json);   ///< throws std::invalid_argument
    static ReadyPolicyConfig cpu();   ///< d 64, L 2, one head of 16 per mask, MLP 128, FiLM 32, hidden 32
};

/// The encoder's input: static op features (degrees, hops, duration, bottom level) and m / 8.
models::EncoderInput readyPolicyInput(const ScheduleEnv& env);

/// The per-op terms of one encoder pass: a_i [N, hidden] and s_i [N].
struct OpTerms {
    torch::Tensor hidden, score;
    torch::Tensor skipScale;   ///< beta(sigma), one value
};

/// The head's weights and one graph's op terms as plain floats: the sampler's scorer.
struct PlainHead;
/// Scores with the same formula as ReadyPolicyImpl::logits (float sums in another order).
ActionScorer plainScorer(std::shared_ptr<const PlainHead> head);

class ReadyPolicyImpl : public torch::nn::Module {
public:
    explicit ReadyPolicyImpl(const ReadyPolicyConfig& config);
    /// The one encoder pass of a graph at sigma (with gradient when training).
    OpTerms encode(const models::EncoderInput& input, double sigma);
    /// Logits of actions: `ops` [E] (long), `features` [E, kActionFeatures] -> [E].
    torch::Tensor logits(const OpTerms& terms, const torch::Tensor& ops, const torch::Tensor& features);
    /// A plain copy of the head with `terms` (detached), for ReadyActions.
    std::shared_ptr<const PlainHead> plainHead(const OpTerms& terms) const;
    const ReadyPolicyConfig& config() const { return m_config; }
    /// Encoder passes since construction (the tests check one per graph and sigma).
    std::int64_t encoderPasses() const { return m_passes; }

private:
    ReadyPolicyConfig m_config;
    models::TopoformerEncoder m_encoder{nullptr};
    torch::nn::Linear m_opHidden{nullptr}, m_opScore{nullptr}, m_actionHidden{nullptr}, m_out{nullptr}, m_skip{nullptr};
    torch::Tensor m_skipTemperature;   ///< k0, k1
    std::int64_t m_passes = 0;
};
TORCH_MODULE(ReadyPolicy);

void saveReadyPolicy(const ReadyPolicy& net, const std::string& path);
/// Throws std::runtime_error naming the file.
ReadyPolicy loadReadyPolicy(const std::string& path);

} // namespace sl::gfn
