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
    j["devices"] = devices;
    j["node_features"] = nodeFeatures;
    j["state"] = state;
    j["rounds"] = rounds;
    j["k"] = k;
    j["aggregation"] = meanAggregation ? "mean" : "sum";
    j["elite_bias"] = eliteBias;
    j["k_rho"] = kRho;
    j["learns_placement"] = learnsPlacement;
    j["learns_scheduling"] = learnsScheduling;
    j["objective"] = objective;
    j["trained_on"] = trainedOn;
    j["mlp"] = "Linear-ReLU-Linear, shared across rounds";
    return j.dump();
}

NetworkConfig NetworkConfig::fromJson(const std::string& json) {
    try {
        const auto j = nlohmann::json::parse(json);
        NetworkConfig c;
        c.devices = models::configInt(j, "devices");
        c.nodeFeatures = models::configInt(j, "node_features");
        c.state = models::configInt(j, "state");
        c.rounds = models::configInt(j, "rounds");
        c.k = models::configInt(j, "k");
        c.meanAggregation = j.at("aggregation").get<std::string>() == "mean";
        c.eliteBias = j.at("elite_bias").get<bool>();
        c.kRho = models::configInt(j, "k_rho");
        c.learnsPlacement = j.value("learns_placement", true);
        c.learnsScheduling = j.value("learns_scheduling", true);
        c.objective = j.value("objective", std::string("memory"));
        c.trainedOn = j.value("trained_on", std::string());
        if (c.devices < 1 || c.nodeFeatures < 1 || c.state < 1 || c.rounds < 0 || c.k < 1 || c.k > 255 || c.kRho < 1)
            throw std::invalid_argument("numbers out of range");
        models::requireAtMost("devices", c.devices, 4096);
        models::requireAtMost("node features", c.nodeFeatures, models::kMaxWidth);
        models::requireAtMost("state", c.state, models::kMaxWidth);
        models::requireAtMost("rounds", c.rounds, models::kMaxLayers);
        models::requireAtMost("k_rho", c.kRho, 255);
        return c;
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("REGAL network config: ") + e.what());
    }
}

GraphBatch makeBatch(const std::vector<const GraphFeatures*>& graphs) {
    if (graphs.empty()) throw std::invalid_argument("REGAL batch: no graphs");
    const int width = graphs[0]->width;
    std::vector<float> x, edgeAttr, nodesPerGraph;
    std::vector<std::int64_t> source, target, graphOf;
    std::vector<float> inDegree, outDegree;
    GraphBatch b;
    int offset = 0;
    for (std::size_t gi = 0; gi < graphs.size(); ++gi) {
        const GraphFeatures& f = *graphs[gi];
        if (f.width != width) throw std::invalid_argument("REGAL batch: graphs with different feature widths");
        b.offsets.push_back(offset);
        x.insert(x.end(), f.node.begin(), f.node.end());
        edgeAttr.insert(edgeAttr.end(), f.edgeSize.begin(), f.edgeSize.end());
        inDegree.resize(static_cast<std::size_t>(offset + f.ops), 0.0f);
        outDegree.resize(static_cast<std::size_t>(offset + f.ops), 0.0f);
        for (std::size_t e = 0; e < f.edgeSource.size(); ++e) {
            source.push_back(offset + f.edgeSource[e]);
            target.push_back(offset + f.edgeTarget[e]);
            outDegree[static_cast<std::size_t>(offset + f.edgeSource[e])] += 1;
            inDegree[static_cast<std::size_t>(offset + f.edgeTarget[e])] += 1;
        }
        graphOf.insert(graphOf.end(), static_cast<std::size_t>(f.ops), static_cast<std::int64_t>(gi));
        nodesPerGraph.push_back(static_cast<float>(std::max(1, f.ops)));
        offset += f.ops;
    }
    b.offsets.push_back(offset);
    const auto n = static_cast<std::int64_t>(offset), e = static_cast<std::int64_t>(source.size());
    b.x = torch::from_blob(x.data(), {n, width}, torch::kFloat).clone();
    b.edgeAttr = torch::from_blob(edgeAttr.data(), {e, 1}, torch::kFloat).clone();
    b.source = torch::from_blob(source.data(), {e}, torch::kLong).clone();
    b.target = torch::from_blob(target.data(), {e}, torch::kLong).clone();
    b.graphOf = torch::from_blob(graphOf.data(), {n}, torch::kLong).clone();
    b.inDegree = torch::from_blob(inDegree.data(), {n, 1}, torch::kFloat).clone().clamp_min(1);
    b.outDegree = torch::from_blob(outDegree.data(), {n, 1}, torch::kFloat).clone().clamp_min(1);
    b.nodesPerGraph = torch::from_blob(nodesPerGraph.data(), {static_cast<std::int64_t>(graphs.size()), 1}, torch::kFloat).clone();
    return b;
}

MlpImpl::MlpImpl(int in, int hidden, int out) {
    m_first = register_module("first", torch::nn::Linear(in, hidden));
    m_second = register_module("second", torch::nn::Linear(hidden, out));
}

torch::Tensor MlpImpl::forward(const torch::Tensor& x) { return m_second(torch::relu(m_first(x))); }

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
    for (int i = 0; i < config.heads(); ++i)
        m_heads.push_back(register_module("head" + std::to_string(i), Mlp(config.state, config.state, config.k)));
    if (config.eliteBias) m_eliteHead = register_module("elite_head", Mlp(config.state, config.state, config.kRho));
}

PolicyOutput RegalPolicyImpl::forward(const GraphBatch& batch) {
    const torch::Tensor h = m_gnn(batch);
    std::vector<torch::Tensor> logits;
    for (Mlp& head : m_heads) logits.push_back(head(h));
    PolicyOutput out;
    out.logits = torch::stack(logits, 1);
    if (m_config.eliteBias) out.eliteLogits = m_eliteHead(h);
    return out;
}

RegalBaselineImpl::RegalBaselineImpl(const NetworkConfig& config) {
    m_gnn = register_module("gnn", RegalGnn(config));
    m_perNode = register_module("per_node", Mlp(config.state, config.state, config.state));
    m_readout = register_module("readout", Mlp(config.state, config.state, 1));
    // Rewards are near -1 (REGAL ~ BRKGA): start there (our choice: docs/regal.md, 'Choices where the
    // papers are silent').
    torch::NoGradGuard noGrad;
    for (auto& p : m_readout->named_parameters())
        if (p.key() == "second.bias") p.value().fill_(-1.0);
}

torch::Tensor RegalBaselineImpl::forward(const GraphBatch& batch) {
    const torch::Tensor perNode = m_perNode(m_gnn(batch));
    const torch::Tensor pooled = torch::zeros({batch.graphs(), perNode.size(1)}).index_add(0, batch.graphOf, perNode) /
                                 batch.nodesPerGraph;
    return m_readout(pooled).squeeze(1);
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
