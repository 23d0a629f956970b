// SPDX-License-Identifier: MIT
#include "models/configjson.h"
#include "models/topoformer/model.h"

#include "core/graph/graphkind.h"

#include "models/encoder/relations.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>

namespace sl::models {

std::string TopoformerConfig::toJson() const {
    nlohmann::json j;
    j["features"] = {{"memory", features.memory},         {"degrees", features.degrees},
                     {"hops", features.hops},             {"durations", features.durations},
                     {"machine_types", features.machineTypes}, {"extra_columns", features.extraColumns},
                     {"laplacian_dims", features.laplacianDims}};
    j["encoder"] = nlohmann::json::parse(encoder.toJson());
    j["alpha"] = alpha;
    j["priority_head"] = "Linear(d,d)-ReLU-Linear(d,1)";
    return j.dump();
}

TopoformerConfig TopoformerConfig::fromJson(const std::string& text) {
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        TopoformerConfig c;
        const auto& f = j.at("features");
        c.features.memory = f.at("memory").get<bool>();
        c.features.degrees = f.at("degrees").get<bool>();
        c.features.hops = f.at("hops").get<bool>();
        c.features.durations = f.at("durations").get<bool>();
        c.features.machineTypes = configInt(f, "machine_types");
        c.features.extraColumns = configInt(f, "extra_columns");
        c.features.laplacianDims = configInt(f, "laplacian_dims");
        c.encoder = EncoderConfig::fromJson(j.at("encoder").dump());
        c.alpha = j.at("alpha").get<double>();
        if (c.encoder.inputWidth != c.features.width())
            throw std::invalid_argument("encoder input width does not match the features");
        if (c.features.extraColumns != 0) throw std::invalid_argument("extra feature columns are not supported here");
        return c;
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("topoformer config: ") + e.what());
    }
}

TopoformerModelImpl::TopoformerModelImpl(const TopoformerConfig& config) : m_config(config) {
    const std::int64_t d = config.encoder.width;
    m_encoder = register_module("encoder", TopoformerEncoder(config.encoder));
    m_head1 = register_module("head1", torch::nn::Linear(d, d));
    m_head2 = register_module("head2", torch::nn::Linear(d, 1));
}

torch::Tensor TopoformerModelImpl::forward(const EncoderInput& input) {
    const at::Tensor h = m_encoder->forward(input);
    at::Tensor y = m_head2->forward(at::relu(m_head1->forward(h))).squeeze(-1);   // [N] or [B, N]
    const at::Tensor mask = input.nodeMask;
    const at::Tensor count = mask.sum(-1, true).clamp_min(1);
    const at::Tensor mean = (y * mask).sum(-1, true) / count;
    const at::Tensor centred = (y - mean) * mask;
    const at::Tensor stdev = (centred.pow(2).sum(-1, true) / count).sqrt();   // population std
    return m_config.alpha * centred / (stdev + 1e-8);
}

TopoformerConfig topoformerModelConfig(const TopoformerTrainConfig& train) {
    TopoformerConfig mc;
    mc.encoder = EncoderConfig::cpuSmall(mc.features.width());
    mc.encoder.width = train.width;
    mc.encoder.layers = train.layers;
    mc.encoder.headsPerMask.fill(train.headsPerMask);
    mc.encoder.headDim = train.headDim;
    mc.encoder.mlpHidden = train.mlpHidden;
    return mc;
}

EncoderInput topoformerInput(const Graph& g, const TopoformerConfig& config, std::uint64_t peSignSeed) {
    NodeFeatures features = buildFeatures(g, config.features, nullptr, peSignSeed);
    if (g.opCount() > kDenseEncoderOps) return makeEncoderInput(features, std::make_shared<const GraphRelations>(buildRelations(g)));
    return makeEncoderInput(features, buildMasks(g));
}

torch::Tensor plackettLuceLogProbTensor(const torch::Tensor& priority, const std::vector<OpId>& order,
                                        const std::vector<std::uint8_t>& ready) {
    const auto n = static_cast<std::int64_t>(order.size());
    if (priority.dim() != 1 || priority.size(0) != n || ready.size() != static_cast<size_t>(n * n))
        throw std::invalid_argument("plackettLuceLogProbTensor: sizes disagree");
    const at::Tensor r = at::from_blob(const_cast<std::uint8_t*>(ready.data()), {n, n}, at::kByte).to(at::kFloat);
    const at::Tensor logits = priority.unsqueeze(0) + (r - 1.0f) * 1e9f;   // not ready: -1e9 (finite)
    const at::Tensor idx = at::tensor(std::vector<std::int64_t>(order.begin(), order.end()), at::kLong);
    return priority.index_select(0, idx).sum() - at::logsumexp(logits, {1}).sum();
}

torch::Tensor reinforceLoss(const torch::Tensor& priorities, const std::vector<std::vector<SampledOrder>>& samples,
                            const std::vector<double>& baselines, bool relative) {
    if (samples.size() != baselines.size() || priorities.size(0) < static_cast<std::int64_t>(samples.size()))
        throw std::invalid_argument("reinforceLoss: the batch sizes disagree");
    std::vector<at::Tensor> terms;
    for (size_t b = 0; b < samples.size(); ++b) {
        for (const SampledOrder& s : samples[b]) {
            const at::Tensor row = priorities[static_cast<std::int64_t>(b)].narrow(0, 0, static_cast<std::int64_t>(s.order.size()));
            double advantage = s.cost - baselines[b];
            if (relative) advantage /= std::max(1e-9, baselines[b]);
            terms.push_back(plackettLuceLogProbTensor(row, s.order, s.ready) * advantage);
        }
    }
    return at::stack(terms).mean();
}

std::string topoformerWeightsPath(const std::string& override) {
    if (!override.empty()) return override;
    if (const char* env = std::getenv("SCHEDLAB_TOPOFORMER_WEIGHTS"); env && *env) return env;
    return modelsDir() + "/" + kTopoformerWeightsFile;
}

TopoformerWeightsChoice topoformerWeightsFor(const Graph& g, const std::string& override) {
    if (!override.empty()) return {override, "--weights"};
    if (const char* env = std::getenv("SCHEDLAB_TOPOFORMER_WEIGHTS"); env && *env)
        return {env, "$SCHEDLAB_TOPOFORMER_WEIGHTS"};
    if (graphKind(g) == GraphKind::CompiledStep)
        return {modelsDir() + "/" + kTopoformerCompiledWeightsFile, "for compiled steps"};
    return {modelsDir() + "/" + kTopoformerWeightsFile, "the default"};
}

TopoformerModel loadTopoformer(const std::string& path) {
    try {
        const WeightFile file = readWeightFile(path);
        const WeightFileInfo& info = file.info;
        if (info.kind != kTopoformerKind)
            throw std::runtime_error("weights '" + path + "' hold a '" + info.kind + "' model, not " + kTopoformerKind);
        const TopoformerConfig config = TopoformerConfig::fromJson(info.configJson);
        requireFileHolds(info, config.encoder.parameterCount(), path);
        TopoformerModel model(config);
        loadWeights(*model, file, kTopoformerKind);
        model->eval();
        return model;
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("topoformer: cannot load the memory model: ") + e.what() +
                                 " (pass --weights FILE, point SCHEDLAB_TOPOFORMER_WEIGHTS at a weight file or SCHEDLAB_MODELS_DIR at "
                                 "the folder holding " + kTopoformerWeightsFile + "; train one with "
                                 "'schedlab-cli train topoformer')");
    }
}

void saveTopoformer(const TopoformerModel& model, const std::string& path) {
    saveWeights(*model, path, kTopoformerKind, model->config().toJson());
}

std::shared_ptr<TopoformerModel> cachedTopoformer(const std::string& path) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<TopoformerModel>> cache;
    std::lock_guard lock(mutex);
    auto it = cache.find(path);
    if (it != cache.end()) return it->second;
    auto model = std::make_shared<TopoformerModel>(loadTopoformer(path));
    cache.emplace(path, model);
    return model;
}

} // namespace sl::models
