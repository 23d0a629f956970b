// SPDX-License-Identifier: MIT
#include "models/gflownet/readypolicy.h"

#include "models/gflownet/policy.h"
#include "models/gflownet/statefeatures.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sl::gfn {

namespace {
models::FeatureSpec staticFeatureSpec() {
    models::FeatureSpec s;
    s.memory = false;
    s.durations = true;
    s.laplacianDims = 0;   // the eigenvectors cost O(n^3): a second per 1,000-op graph
    return s;
}
const int kReadyNodeFeatures = staticFeatureSpec().width() + 1;
constexpr int kMaxHidden = 128;
/// The linear head's starting weights over (delay, idle, empty, ahead, bound): list-cp's
/// non-delay rule, -40 start + 4 bottom level (bound = start + ahead): the action that starts
/// first, the longest path ahead among those that start together. (8 and 16 on the bottom level
/// sampled worse on 60- and 210-op graphs the benchmarks do not use.)
const std::vector<float> kPriorWeights{0.0f, 0.0f, 0.0f, 44.0f, -40.0f};
} // namespace

std::string ReadyPolicyConfig::toJson() const {
    nlohmann::json j;
    j["encoder"] = nlohmann::json::parse(encoder.toJson());
    j["node_features"] = staticFeatureSpec().describe() + ",devices";
    j["action_features"] = "delay,idle,empty,ahead,bound";
    j["hidden"] = hidden;
    j["head"] = "exp(k0 + k1 log sigma + k2 log(n / m)) (s_i + w.ReLU(A h_i + b + V c) + u.c); uniform P_B";
    j["sigma_min"] = sigmaMin;
    j["sigma_max"] = sigmaMax;
    j["trained_on"] = trainedOn;
    return j.dump();
}

ReadyPolicyConfig ReadyPolicyConfig::fromJson(const std::string& json) {
    try {
        const auto j = nlohmann::json::parse(json);
        ReadyPolicyConfig c;
        c.encoder = models::EncoderConfig::fromJson(j.at("encoder").dump());
        c.hidden = j.at("hidden").get<int>();
        c.sigmaMin = j.at("sigma_min").get<double>();
        c.sigmaMax = j.at("sigma_max").get<double>();
        c.trainedOn = j.value("trained_on", std::string());
        if (j.at("action_features").get<std::string>() != "delay,idle,empty,ahead,bound" ||
            c.encoder.inputWidth != kReadyNodeFeatures)
            throw std::invalid_argument("features differ from this build's");
        if (c.hidden < 1 || c.hidden > kMaxHidden || c.encoder.filmDim <= 0 || !(c.sigmaMin > 0 && c.sigmaMax >= c.sigmaMin))
            throw std::invalid_argument("hidden width, FiLM size or temperature range");
        return c;
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("gflownet-ready config: ") + e.what());
    }
}

ReadyPolicyConfig ReadyPolicyConfig::cpu() {
    ReadyPolicyConfig c;
    c.encoder = cpuEncoderConfig(kReadyNodeFeatures);
    return c;
}

models::EncoderInput readyPolicyInput(const ScheduleEnv& env) {
    const models::NodeFeatures base = models::buildFeatures(env.graph(), staticFeatureSpec());
    models::NodeFeatures f;
    f.ops = base.ops;
    f.width = kReadyNodeFeatures;
    f.values.reserve(static_cast<size_t>(f.ops) * static_cast<size_t>(f.width));
    for (int v = 0; v < f.ops; ++v) {
        for (int c = 0; c < base.width; ++c) f.values.push_back(base.at(v, c));
        f.values.push_back(static_cast<float>(env.devices()) / kDeviceSlots);
    }
    return models::makeEncoderInput(f, models::buildMasks(env.graph()));
}

struct PlainHead {
    int hidden = 0;
    std::vector<float> opHidden, opScore;   ///< [N, H], [N]
    std::vector<float> actionHidden;        ///< [C, H]: V transposed
    std::vector<float> out, skip;           ///< [H], [C]: already times beta(sigma), like opScore
};

ActionScorer plainScorer(std::shared_ptr<const PlainHead> head) {
    return [head = std::move(head)](OpId op, const ActionFeatures& c) {
        const int h = head->hidden;
        float z[kMaxHidden];
        const float* a = head->opHidden.data() + static_cast<size_t>(op) * static_cast<size_t>(h);
        std::copy(a, a + h, z);
        for (int k = 0; k < kActionFeatures; ++k) {
            const float* v = head->actionHidden.data() + static_cast<size_t>(k) * static_cast<size_t>(h);
            for (int j = 0; j < h; ++j) z[j] += v[j] * c[static_cast<size_t>(k)];
        }
        float logit = head->opScore[static_cast<size_t>(op)];
        for (int k = 0; k < kActionFeatures; ++k) logit += head->skip[static_cast<size_t>(k)] * c[static_cast<size_t>(k)];
        for (int j = 0; j < h; ++j) logit += head->out[static_cast<size_t>(j)] * std::max(z[j], 0.0f);
        return logit;
    };
}

ReadyPolicyImpl::ReadyPolicyImpl(const ReadyPolicyConfig& config) : m_config(config) {
    const std::int64_t d = config.encoder.width, h = config.hidden;
    m_encoder = register_module("encoder", models::TopoformerEncoder(config.encoder));
    m_opHidden = register_module("op_hidden", torch::nn::Linear(d, h));
    m_opScore = register_module("op_score", torch::nn::Linear(torch::nn::LinearOptions(d, 1).bias(false)));
    m_actionHidden = register_module("action_hidden", torch::nn::Linear(torch::nn::LinearOptions(kActionFeatures, h).bias(false)));
    m_out = register_module("out", torch::nn::Linear(torch::nn::LinearOptions(h, 1).bias(false)));
    m_skip = register_module("skip", torch::nn::Linear(torch::nn::LinearOptions(kActionFeatures, 1).bias(false)));
    // beta = 0.04 / sigma at 15 ops per device (60-op graphs on 4 devices), in proportion to n / m
    m_skipTemperature = register_parameter("skip_temperature", torch::tensor({std::log(0.04f / 15), -1.0f, 1.0f}));
    const torch::NoGradGuard noGrad;   // delay, idle, empty, ahead, bound (readyactions.h)
    m_skip->weight.copy_(torch::tensor(kPriorWeights).unsqueeze(0));
    m_opScore->weight.zero_();   // the learned terms start at 0: the untrained model is the prior
    m_out->weight.zero_();
}

OpTerms ReadyPolicyImpl::encode(const models::EncoderInput& input, double sigma) {
    ++m_passes;
    const torch::Tensor h = m_encoder->forward(input, torch::full({1}, std::log(sigma), torch::kFloat));   // [N, d]
    // n / m from the input (readyPolicyInput's last column is m / kDeviceSlots): the features are
    // times over work / m, so a step's differences shrink as n / m grows; beta makes up for it
    const double ops = static_cast<double>(input.x.size(-2));
    const double devices = std::max(1.0, std::round(input.x.index({0, -1}).item<double>() * kDeviceSlots));
    const torch::Tensor beta = (m_skipTemperature[0] + m_skipTemperature[1] * std::log(sigma) +
                                m_skipTemperature[2] * std::log(std::max(ops / devices, 1.0)))
                                   .exp();
    return {m_opHidden->forward(h), m_opScore->forward(h).squeeze(-1) * beta, beta};
}

torch::Tensor ReadyPolicyImpl::logits(const OpTerms& terms, const torch::Tensor& ops, const torch::Tensor& features) {
    const torch::Tensor z = terms.hidden.index_select(0, ops) + m_actionHidden->forward(features);
    return terms.score.index_select(0, ops) + (m_out->forward(torch::relu(z)).squeeze(-1) + m_skip->forward(features).squeeze(-1)) *
           terms.skipScale;
}

std::shared_ptr<const PlainHead> ReadyPolicyImpl::plainHead(const OpTerms& terms) const {
    auto floats = [](const torch::Tensor& t) {
        const torch::Tensor c = t.detach().to(torch::kFloat).contiguous();
        return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    };
    auto head = std::make_shared<PlainHead>();
    head->hidden = m_config.hidden;
    head->opHidden = floats(terms.hidden);
    head->opScore = floats(terms.score);
    head->actionHidden = floats(m_actionHidden->weight.t());
    head->out = floats(m_out->weight.squeeze(0) * terms.skipScale);
    head->skip = floats(m_skip->weight.squeeze(0) * terms.skipScale);
    return head;
}

void saveReadyPolicy(const ReadyPolicy& net, const std::string& path) {
    models::saveWeights(*net, path, kReadyWeightKind, net->config().toJson());
}

ReadyPolicy loadReadyPolicy(const std::string& path) {
    const models::WeightFile file = models::readWeightFile(path);
    if (file.info.kind != kReadyWeightKind)
        throw std::runtime_error(path + ": a '" + file.info.kind + "' weight file, not '" + kReadyWeightKind + "'");
    ReadyPolicyConfig config;
    try {
        config = ReadyPolicyConfig::fromJson(file.info.configJson);
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    models::requireFileHolds(file.info, config.encoder.parameterCount(), path);
    ReadyPolicy net(config);
    models::loadWeights(*net, file, kReadyWeightKind);
    net->eval();
    return net;
}

} // namespace sl::gfn
