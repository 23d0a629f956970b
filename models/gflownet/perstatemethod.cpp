// SPDX-License-Identifier: MIT
// The per-state GFlowNet (the paper's architecture): every state of every trajectory is encoded
// afresh, with a learned or uniform backward policy, LV or TB with a learned log Z.
#include "models/gflownet/trainingmethods.h"

#include "models/gflownet/loss.h"
#include "models/gflownet/policy.h"
#include "models/gflownet/rollout.h"

#include "models/train/trainers.h"

#include <torch/torch.h>

#include <cmath>
#include <filesystem>

namespace sl::gfn {

namespace {

PolicyConfig perStateConfig(const GflowNetTrainConfig& c, const std::string& data) {
    PolicyConfig pc = PolicyConfig::cpu();
    applyEncoderSize(c, pc.encoder);
    pc.trainedOn = data;
    return pc;
}

/// A policy with the weights and architecture of `file`, whose card says it was then trained on `data`.
GflowNetPolicy initialisedFrom(const std::string& file, const std::string& data) {
    const GflowNetPolicy init = loadPolicy(file);
    PolicyConfig pc = init->config();
    pc.trainedOn = initialisedText(file, data, pc.trainedOn);
    GflowNetPolicy net(pc);
    copyParameters(*net, *init);
    return net;
}

class PerStateMethod : public GflowNetMethod {
public:
    PerStateMethod(const GflowNetTrainConfig& c, TrainingSet data)
        : GflowNetMethod(c, std::move(data)), m_net(perStateConfig(c, m_data.description)) {
        if (!c.initWeights.empty()) m_net = initialisedFrom(c.initWeights, m_data.description);
        if (c.trajectoryBalance) m_logZ = LogZNet(m_net->config().encoder);
        m_net->train();
    }

    void restore(const std::string& ckpt) override {
        m_net = loadPolicy(ckpt + ".slw");
        m_net->train();
        if (m_c.trajectoryBalance) models::loadWeights(*m_logZ, ckpt + ".logz.slw", "gflownet-logz");
    }
    void saveCheckpoint(const std::string& ckpt) override {
        savePolicy(m_net, ckpt + ".slw");
        if (m_c.trajectoryBalance) models::saveWeights(*m_logZ, ckpt + ".logz.slw", "gflownet-logz", m_net->config().encoder.toJson());
    }
    std::vector<torch::Tensor> parameters() override {
        std::vector<torch::Tensor> params = m_net->parameters();
        if (m_c.trajectoryBalance)
            for (const auto& p : m_logZ->parameters()) params.push_back(p);
        return params;
    }
    void saveModel(const std::string& path) override { savePolicy(m_net, path); }

    models::StepResult step(std::int64_t step, std::uint64_t rankSeed) override {
        const StepDraw d = drawStep(step, rankSeed);
        const models::EncoderInput masks = d.subgraph ? graphMasks(d.problem.g()) : cachedMasks(d.graph);
        const ScheduleEnv env(d.problem);
        RolloutSpec spec;
        spec.sigma = d.sigma;
        spec.uniformBackward = m_c.uniformBackward;
        for (int i = 0; i < m_c.batch; ++i) spec.seeds.push_back(deriveSeed(d.seed ^ 0x7A3EC, static_cast<std::uint64_t>(i)));
        const Rollout r = rollout(m_net, env, masks, spec);
        const torch::Tensor z = zeta(torch::tensor(r.logReward, torch::kDouble), r.logPF, r.logPB);
        torch::Tensor loss;
        if (m_c.trajectoryBalance) {
            StateBatch empty;
            encodeStates({PartialSchedule(env)}, empty);
            loss = trajectoryBalanceLoss(m_logZ->forward(masks, toTensors(empty).nodes, torch::full({1}, std::log(d.sigma))), z);
        } else {
            loss = logPartitionVarianceLoss(z);
        }
        return {loss, stepStats(r.speedup, z, d)};
    }

protected:
    std::vector<double> sampleSpeedups(const Problem& p, double sigma, const std::vector<std::uint64_t>& seeds) override {
        m_net->eval();
        const ScheduleEnv env(p);
        RolloutSpec spec;
        spec.sigma = sigma;
        spec.seeds = seeds;
        const Rollout r = rollout(m_net, env, graphMasks(env.graph()), spec);
        m_net->train();
        return r.speedup;
    }
    std::string architectureJson() const override { return m_net->config().toJson(); }
    std::string featuresText() const override {
        return models::formatText("state%d+pair%d (per-state node columns and (op, device) pair columns, docs/gflownet.md)",
                                  kNodeFeatures, kPairFeatures);
    }
    std::string objectiveText() const override {
        return std::string(m_c.trajectoryBalance ? "TB (learned log Z)" : "LV") + " loss, " +
               (m_c.uniformBackward ? "uniform" : "learned") + " P_B";
    }

private:
    const models::EncoderInput& cachedMasks(size_t graph) {
        auto it = m_masks.find(graph);
        if (it == m_masks.end()) it = m_masks.emplace(graph, graphMasks(m_data.train[graph].g())).first;
        return it->second;
    }

    GflowNetPolicy m_net;
    LogZNet m_logZ{nullptr};
    std::map<size_t, models::EncoderInput> m_masks;   ///< whole training graphs only
};

} // namespace

std::unique_ptr<models::TrainingMethod> makePerStateMethod(const GflowNetTrainConfig& c, TrainingSet data) {
    return std::make_unique<PerStateMethod>(c, std::move(data));
}

} // namespace sl::gfn
