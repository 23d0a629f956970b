// SPDX-License-Identifier: MIT
#include "models/configjson.h"
#include "models/gflownet/policy.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sl::gfn {

std::string PolicyConfig::toJson() const {
    nlohmann::json j;
    j["encoder"] = nlohmann::json::parse(encoder.toJson());
    j["node_features"] = kNodeFeatures;
    j["pair_features"] = kPairFeatures;
    j["forward_head"] = "per (op, device): Linear(d,1)(ReLU(W h + V pair + b))";
    j["backward_head"] = "Linear(d,d)-ReLU-Linear(d,1)";
    j["trained_on"] = trainedOn;
    return j.dump();
}

PolicyConfig PolicyConfig::fromJson(const std::string& json) {
    try {
        const auto j = nlohmann::json::parse(json);
        PolicyConfig c;
        c.encoder = models::EncoderConfig::fromJson(j.at("encoder").dump());
        c.trainedOn = j.value("trained_on", std::string());
        if (models::configInt(j, "node_features") != kNodeFeatures || models::configInt(j, "pair_features") != kPairFeatures)
            throw std::invalid_argument("feature widths differ from this build's");
        if (c.encoder.inputWidth != kNodeFeatures || c.encoder.filmDim <= 0)
            throw std::invalid_argument("encoder input width or FiLM size");
        return c;
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("gflownet config: ") + e.what());
    }
}

models::EncoderConfig cpuEncoderConfig(int inputWidth) {
    models::EncoderConfig e;
    e.inputWidth = inputWidth;
    e.width = 64;
    e.layers = 2;
    e.headsPerMask.fill(1);
    e.headDim = 16;
    e.mlpHidden = 128;
    e.filmDim = 32;
    e.reluMlp = true;
    return e;
}

PolicyConfig PolicyConfig::cpu() {
    PolicyConfig c;
    c.encoder = cpuEncoderConfig(kNodeFeatures);
    return c;
}

StateTensors toTensors(const StateBatch& s) {
    const std::int64_t b = s.batch, n = s.ops, m = s.devices;
    auto floats = [](const std::vector<float>& v, at::IntArrayRef shape) {
        return torch::from_blob(const_cast<float*>(v.data()), shape, torch::kFloat).clone();
    };
    auto bools = [](const std::vector<std::uint8_t>& v, at::IntArrayRef shape) {
        return torch::from_blob(const_cast<std::uint8_t*>(v.data()), shape, torch::kUInt8).to(torch::kBool);
    };
    return {floats(s.nodes, {b, n, kNodeFeatures}), floats(s.pairs, {b, n, m, kPairFeatures}),
            bools(s.forwardMask, {b, n, m}), bools(s.backwardMask, {b, n})};
}

namespace {
/// A tensor over `v`'s memory, no copy: valid while `v` is unchanged.
torch::Tensor view(const std::vector<float>& v, at::IntArrayRef shape) {
    return torch::from_blob(const_cast<float*>(v.data()), shape, torch::kFloat);
}
} // namespace

GflowNetPolicyImpl::GflowNetPolicyImpl(const PolicyConfig& config) : m_config(config) {
    const std::int64_t d = config.encoder.width;
    m_encoder = register_module("encoder", models::TopoformerEncoder(config.encoder));
    m_fwdOp = register_module("fwd_op", torch::nn::Linear(d, d));
    m_fwdPair = register_module("fwd_pair", torch::nn::Linear(torch::nn::LinearOptions(kPairFeatures, d).bias(false)));
    m_fwdOut = register_module("fwd_out", torch::nn::Linear(d, 1));
    m_bwd1 = register_module("bwd1", torch::nn::Linear(d, d));
    m_bwd2 = register_module("bwd2", torch::nn::Linear(d, 1));
}

PolicyOutput GflowNetPolicyImpl::forward(const models::EncoderInput& masks, const StateTensors& states,
                                         const torch::Tensor& logSigma) {
    models::EncoderInput in = masks;
    in.x = states.nodes;
    const torch::Tensor h = m_encoder->forward(in, logSigma);                      // [B, N, d]
    const torch::Tensor hidden = m_fwdOp->forward(h).unsqueeze(2) + m_fwdPair->forward(states.pairs);   // [B, N, m, d]
    PolicyOutput out;
    out.forwardLogits = m_fwdOut->forward(torch::relu(hidden)).squeeze(-1);
    out.backwardLogits = m_bwd2->forward(torch::relu(m_bwd1->forward(h))).squeeze(-1);
    return out;
}

models::EncoderContext GflowNetPolicyImpl::prepareSampling(const models::EncoderInput& masks, std::int64_t batch,
                                                           double sigma) {
    models::EncoderContext c = m_encoder->prepare(masks, batch, torch::full({1}, std::log(sigma), torch::kFloat));
    c.directAttention = true;   // n passes per chunk: LibTorch's per-matrix dispatch was most of a pass
    return c;
}

torch::Tensor GflowNetPolicyImpl::sampleLogProbs(const models::EncoderContext& context, const StateBatch& s) {
    const std::int64_t b = s.batch, n = s.ops, m = s.devices;
    PolicyOutput out;   // forward()'s forward head on the same shapes (the same numbers), no copies
    const torch::Tensor h = m_encoder->forward(view(s.nodes, {b, n, kNodeFeatures}), context);   // [B, N, d]
    const torch::Tensor hidden = m_fwdOp->forward(h).unsqueeze(2) + m_fwdPair->forward(view(s.pairs, {b, n, m, kPairFeatures}));
    out.forwardLogits = m_fwdOut->forward(torch::relu(hidden)).squeeze(-1);
    StateTensors masks;
    masks.forwardMask =
        torch::from_blob(const_cast<std::uint8_t*>(s.forwardMask.data()), {b, n, m}, torch::kUInt8).to(torch::kBool);
    return forwardLogProbs(out, masks);
}

LogZNetImpl::LogZNetImpl(const models::EncoderConfig& config) {
    const std::int64_t d = config.width;
    m_encoder = register_module("encoder", models::TopoformerEncoder(config));
    m_head1 = register_module("head1", torch::nn::Linear(d, d));
    m_head2 = register_module("head2", torch::nn::Linear(d, 1));
}

torch::Tensor LogZNetImpl::forward(const models::EncoderInput& masks, const torch::Tensor& emptyNodes,
                                   const torch::Tensor& logSigma) {
    models::EncoderInput in = masks;
    in.x = emptyNodes;
    const torch::Tensor pooled = m_encoder->forward(in, logSigma).mean(-2);
    return m_head2->forward(torch::relu(m_head1->forward(pooled))).squeeze(-1);
}

namespace {
torch::Tensor maskedLogSoftmax(const torch::Tensor& logits, const torch::Tensor& valid) {
    // -inf on invalid actions, then log_softmax (never the log of a masked softmax);
    // masked_fill's backward gives the masked entries a zero gradient.
    return torch::log_softmax(logits.masked_fill(valid.logical_not(), -std::numeric_limits<float>::infinity()), -1);
}
} // namespace

torch::Tensor forwardLogProbs(const PolicyOutput& out, const StateTensors& states) {
    const std::int64_t b = out.forwardLogits.size(0);
    return maskedLogSoftmax(out.forwardLogits.reshape({b, -1}), states.forwardMask.reshape({b, -1}));
}

torch::Tensor backwardLogProbs(const PolicyOutput& out, const StateTensors& states) {
    return maskedLogSoftmax(out.backwardLogits, states.backwardMask);
}

models::EncoderInput graphMasks(const Graph& g) {
    models::NodeFeatures f;
    f.ops = g.opCount();
    f.width = kNodeFeatures;
    f.values.assign(static_cast<size_t>(f.ops) * kNodeFeatures, 0.0f);
    return models::makeEncoderInput(f, models::buildMasks(g));
}

void savePolicy(const GflowNetPolicy& net, const std::string& path) {
    models::saveWeights(*net, path, kWeightKind, net->config().toJson());
}

GflowNetPolicy loadPolicy(const std::string& path) {
    const models::WeightFile file = models::readWeightFile(path);
    const models::WeightFileInfo& info = file.info;
    if (info.kind != kWeightKind)
        throw std::runtime_error(path + ": a '" + info.kind + "' weight file, not '" + kWeightKind + "'");
    PolicyConfig config;
    try {
        config = PolicyConfig::fromJson(info.configJson);
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    models::requireFileHolds(info, config.encoder.parameterCount(), path);
    GflowNetPolicy net(config);
    models::loadWeights(*net, file, kWeightKind);
    net->eval();
    return net;
}

} // namespace sl::gfn
