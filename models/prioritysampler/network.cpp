// SPDX-License-Identifier: MIT
#include "models/configjson.h"
#include "models/prioritysampler/network.h"

#include "models/prioritysampler/features.h"

#include "models/encoder/maththreads.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <chrono>
#include <stdexcept>

namespace sl::ps {

std::string SamplerConfig::toJson() const {
    nlohmann::json j;
    j["encoder"] = nlohmann::json::parse(encoder.toJson());
    j["typeSlots"] = typeSlots;
    j["task"] = task;
    j["features"] = featureSpec(typeSlots).describe();
    j["head"] = "Linear(d,d)-ReLU-Linear(d,1)";
    return j.dump();
}

SamplerConfig SamplerConfig::fromJson(const std::string& json) {
    try {
        const auto j = nlohmann::json::parse(json);
        SamplerConfig c;
        c.encoder = models::EncoderConfig::fromJson(j.at("encoder").dump());
        c.typeSlots = models::configInt(j, "typeSlots");
        c.task = j.value("task", std::string("layered-typed"));
        if (c.typeSlots < 1) throw std::invalid_argument("typeSlots < 1");
        models::requireAtMost("typeSlots", c.typeSlots, 4096);
        return c;
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("priority-sampler config: ") + e.what());
    }
}

SamplerConfig samplerConfig(const TrainConfig& train) {
    SamplerConfig sc;
    sc.task = train.data.task;
    sc.typeSlots = train.data.task == "jobshop" ? train.data.machines : 3;
    sc.encoder = models::EncoderConfig::cpuSmall(featureSpec(sc.typeSlots).width());
    sc.encoder.width = train.width;
    sc.encoder.layers = train.layers;
    sc.encoder.headsPerMask.fill(train.headsPerMask);
    sc.encoder.headDim = train.headDim;
    sc.encoder.mlpHidden = train.width;
    return sc;
}

models::FeatureSpec featureSpec(int typeSlots) {
    models::FeatureSpec s;
    s.memory = false;
    s.degrees = true;
    s.hops = false;
    s.durations = true;
    s.machineTypes = typeSlots;
    s.extraColumns = kExtraFeatures;
    s.laplacianDims = 20;
    return s;
}

PreparedGraph prepareGraph(const Problem& problem, int typeSlots) {
    const std::vector<float> extra = extraFeatures(problem);
    return {models::buildFeatures(problem.g(), featureSpec(typeSlots), &extra), models::buildMasks(problem.g())};
}

models::EncoderInput encoderInput(const PreparedGraph& g) { return models::makeEncoderInput(g.features, g.masks); }

PrioritySamplerNetImpl::PrioritySamplerNetImpl(const SamplerConfig& config) : m_config(config) {
    const int d = config.encoder.width;
    m_encoder = register_module("encoder", models::TopoformerEncoder(config.encoder));
    m_head1 = register_module("head1", torch::nn::Linear(d, d));
    m_head2 = register_module("head2", torch::nn::Linear(d, 1));
}

torch::Tensor PrioritySamplerNetImpl::forward(const models::EncoderInput& input) {
    const torch::Tensor h = m_encoder->forward(input);
    return m_head2->forward(torch::relu(m_head1->forward(h))).squeeze(-1);
}

void saveSampler(const PrioritySamplerNet& net, const std::string& path) {
    models::saveWeights(*net, path, kWeightKind, net->config().toJson());
}

PrioritySamplerNet loadSampler(const std::string& path) {
    const models::WeightFile file = models::readWeightFile(path);
    const models::WeightFileInfo& info = file.info;
    if (info.kind != kWeightKind)
        throw std::runtime_error(path + ": a '" + info.kind + "' weight file, not '" + kWeightKind + "'");
    SamplerConfig config;
    try {
        config = SamplerConfig::fromJson(info.configJson);
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    models::requireFileHolds(info, config.encoder.parameterCount(), path);
    PrioritySamplerNet net(config);
    models::loadWeights(*net, file, kWeightKind);
    net->eval();
    return net;
}

std::vector<double> inferLogits(PrioritySamplerNet& net, const Problem& problem, double* prepareSeconds) {
    torch::NoGradGuard noGrad;
    const models::MathThreads pin(1);   // the same logits whatever the thread settings
    net->eval();
    const auto t0 = std::chrono::steady_clock::now();
    const PreparedGraph prepared = prepareGraph(problem, net->config().typeSlots);
    if (prepareSeconds) *prepareSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const torch::Tensor logits = net->forward(encoderInput(prepared)).to(torch::kDouble).contiguous();
    const double* p = logits.data_ptr<double>();
    return {p, p + logits.numel()};
}

} // namespace sl::ps
