// SPDX-License-Identifier: MIT
#include "models/configjson.h"
#include "models/regal/network.h"

#include "models/encoder/encoder.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>

namespace sl::regal {

std::string NetworkConfig::toJson() const {
    nlohmann::json j;
    j["node_features"] = nodeFeatures;
    j["pair_features"] = pairFeatures;
    j["state"] = state;
    j["rounds"] = rounds;
    j["aggregation"] = meanAggregation ? "mean" : "sum";
    j["sigma"] = sigma;
    j["shift_step"] = kShiftStep;
    j["learns_placement"] = learnsPlacement;
    j["learns_scheduling"] = learnsScheduling;
    j["heads_read_input"] = headsReadInput;
    j["objective"] = objective;
    j["trained_on"] = trainedOn;
    j["mlp"] = "Linear-ReLU-Linear, shared across rounds";
    j["heads"] = headsReadInput ? "affinity [h_v, x_v, pair(v, q)] -> mean shift per device; priority [h_v, x_v] -> mean shift"
                                : "affinity [h_v, pair(v, q)] -> mean shift per device; priority h_v -> mean shift";
    return j.dump();
}

NetworkConfig NetworkConfig::fromJson(const std::string& json) {
    try {
        const auto j = nlohmann::json::parse(json);
        if (!j.contains("pair_features"))
            throw std::invalid_argument("a model of the earlier categorical policy (one device count); retrain with "
                                        "`schedlab-cli train regal`");
        NetworkConfig c;
        c.nodeFeatures = models::configInt(j, "node_features");
        c.pairFeatures = models::configInt(j, "pair_features");
        c.state = models::configInt(j, "state");
        c.rounds = models::configInt(j, "rounds");
        c.meanAggregation = j.at("aggregation").get<std::string>() == "mean";
        c.sigma = j.at("sigma").get<double>();
        c.learnsPlacement = j.value("learns_placement", true);
        c.learnsScheduling = j.value("learns_scheduling", true);
        c.headsReadInput = j.value("heads_read_input", false);
        c.objective = j.value("objective", std::string("memory"));
        c.trainedOn = j.value("trained_on", std::string());
        if (c.nodeFeatures != kNodeWidth || c.pairFeatures != kPairWidth)
            throw std::invalid_argument("feature widths " + std::to_string(c.nodeFeatures) + " / " + std::to_string(c.pairFeatures) +
                                        ", this build computes " + std::to_string(kNodeWidth) + " / " + std::to_string(kPairWidth));
        if (c.state < 1 || c.rounds < 0 || !(c.sigma > 0)) throw std::invalid_argument("numbers out of range");
        models::requireAtMost("state", c.state, models::kMaxWidth);
        models::requireAtMost("rounds", c.rounds, models::kMaxLayers);
        return c;
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("REGAL network config: ") + e.what());
    }
}

GraphBatch makeBatch(const std::vector<const GraphFeatures*>& graphs) {
    if (graphs.empty()) throw std::invalid_argument("REGAL batch: no graphs");
    std::vector<float> x, pairX, edgeAttr, inDegree, outDegree;
    std::vector<std::int64_t> pairNode, source, target;
    GraphBatch b;
    int offset = 0, pairOffset = 0;
    for (const GraphFeatures* g : graphs) {
        const GraphFeatures& f = *g;
        b.offsets.push_back(offset);
        b.pairOffsets.push_back(pairOffset);
        b.devices.push_back(f.devices);
        x.insert(x.end(), f.node.begin(), f.node.end());
        pairX.insert(pairX.end(), f.pair.begin(), f.pair.end());
        for (int v = 0; v < f.ops; ++v) pairNode.insert(pairNode.end(), static_cast<std::size_t>(f.devices), offset + v);
        edgeAttr.insert(edgeAttr.end(), f.edgeSize.begin(), f.edgeSize.end());
        inDegree.resize(static_cast<std::size_t>(offset + f.ops), 0.0f);
        outDegree.resize(static_cast<std::size_t>(offset + f.ops), 0.0f);
        for (std::size_t e = 0; e < f.edgeSource.size(); ++e) {
            source.push_back(offset + f.edgeSource[e]);
            target.push_back(offset + f.edgeTarget[e]);
            outDegree[static_cast<std::size_t>(offset + f.edgeSource[e])] += 1;
            inDegree[static_cast<std::size_t>(offset + f.edgeTarget[e])] += 1;
        }
        offset += f.ops;
        pairOffset += f.ops * f.devices;
    }
    b.offsets.push_back(offset);
    b.pairOffsets.push_back(pairOffset);
    const auto n = static_cast<std::int64_t>(offset), p = static_cast<std::int64_t>(pairOffset),
               e = static_cast<std::int64_t>(source.size());
    b.x = torch::from_blob(x.data(), {n, kNodeWidth}, torch::kFloat).clone();
    b.pairX = torch::from_blob(pairX.data(), {p, kPairWidth}, torch::kFloat).clone();
    b.pairNode = torch::from_blob(pairNode.data(), {p}, torch::kLong).clone();
    b.edgeAttr = torch::from_blob(edgeAttr.data(), {e, 1}, torch::kFloat).clone();
    b.source = torch::from_blob(source.data(), {e}, torch::kLong).clone();
    b.target = torch::from_blob(target.data(), {e}, torch::kLong).clone();
    b.inDegree = torch::from_blob(inDegree.data(), {n, 1}, torch::kFloat).clone().clamp_min(1);
    b.outDegree = torch::from_blob(outDegree.data(), {n, 1}, torch::kFloat).clone().clamp_min(1);
    return b;
}

MlpImpl::MlpImpl(int in, int hidden, int out) {
    m_first = register_module("first", torch::nn::Linear(in, hidden));
    m_second = register_module("second", torch::nn::Linear(hidden, out));
}

torch::Tensor MlpImpl::forward(const torch::Tensor& x) { return m_second(torch::relu(m_first(x))); }

void MlpImpl::zeroLastLayer() {
    torch::NoGradGuard noGrad;
    m_second->weight.zero_();
    m_second->bias.zero_();
}

RegalGnnImpl::RegalGnnImpl(const NetworkConfig& config) : m_config(config) {
    const int s = config.state;
    m_node = register_module("node_in", Mlp(config.nodeFeatures, s, s));
    m_edge = register_module("edge_in", Mlp(1, s, s));
    m_message = register_module("message", Mlp(3 * s, s, s));
    m_reverse = register_module("message_reverse", Mlp(3 * s, s, s));
    m_update = register_module("update", Mlp(2 * s, s, s));
}

torch::Tensor RegalGnnImpl::forward(const GraphBatch& batch) {
    torch::Tensor h = m_node(batch.x);
    const torch::Tensor he = m_edge(batch.edgeAttr);
    for (int t = 0; t < m_config.rounds; ++t) {
        const torch::Tensor pair = torch::cat({h.index_select(0, batch.source), h.index_select(0, batch.target), he}, 1);
        torch::Tensor incoming = torch::zeros_like(h).index_add(0, batch.target, m_message(pair));
        torch::Tensor outgoing = torch::zeros_like(h).index_add(0, batch.source, m_reverse(pair));
        if (m_config.meanAggregation) {   // an op without edges on a side gets 0 from it
            incoming = incoming / batch.inDegree;
            outgoing = outgoing / batch.outDegree;
        }
        h = m_update(torch::cat({h, incoming + outgoing}, 1));
    }
    return h;
}

RegalPolicyImpl::RegalPolicyImpl(const NetworkConfig& config) : m_config(config) {
    m_gnn = register_module("gnn", RegalGnn(config));
    const int op = config.state + (config.headsReadInput ? config.nodeFeatures : 0);   // what a head reads of the op
    m_affinity = register_module("affinity_head", Mlp(op + config.pairFeatures, config.state, 1));
    m_priority = register_module("priority_head", Mlp(op, config.state, 1));
    m_affinity->zeroLastLayer();   // an untrained policy is plain BRKGA
    m_priority->zeroLastLayer();
}

PolicyOutput RegalPolicyImpl::forward(const GraphBatch& batch) {
    const torch::Tensor h = m_config.headsReadInput ? torch::cat({m_gnn(batch), batch.x}, 1) : m_gnn(batch);
    // Unbounded means (a tanh bound saturated in training and lost the gradient); the draws are
    // clamped to the shift grid, and training pays for means away from 0.
    PolicyOutput out;
    out.affinity = m_affinity(torch::cat({h.index_select(0, batch.pairNode), batch.pairX}, 1)).squeeze(1);
    out.priority = m_priority(h).squeeze(1);
    return out;
}

void savePolicy(const RegalPolicy& policy, const std::string& path) {
    models::saveWeights(*policy, path, kWeightKind, policy->config().toJson());
}

RegalPolicy loadPolicy(const std::string& path) {
    const models::WeightFile file = models::readWeightFile(path);
    const models::WeightFileInfo& info = file.info;
    if (info.kind != kWeightKind)
        throw std::runtime_error(path + ": a '" + info.kind + "' weight file, not '" + kWeightKind + "'");
    NetworkConfig config;
    try {
        config = NetworkConfig::fromJson(info.configJson);
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    models::requireFileHolds(info, config.weightMatrixValues(), path);
    RegalPolicy policy(config);
    models::loadWeights(*policy, file, kWeightKind);
    policy->eval();
    return policy;
}

RegalPolicy cachedPolicy(const std::string& path) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::filesystem::file_time_type>, RegalPolicy> cache;
    std::error_code ec;
    const auto key = std::make_pair(path, std::filesystem::last_write_time(path, ec));
    const std::lock_guard lock(mutex);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, loadPolicy(path)).first;
    return it->second;
}

} // namespace sl::regal
