// SPDX-License-Identifier: MIT
// The encode-once GFlowNet: one encoder pass per step (the step's graph and temperature), then B
// trajectories drawn in plain C++ and their log P_F recomputed with a gradient in one batched pass
// over every action they saw. Scaled LV loss (models/gflownet/loss.h), uniform backward policy.
#include "models/gflownet/trainingmethods.h"

#include "models/gflownet/loss.h"
#include "models/gflownet/readyrollout.h"

#include <torch/torch.h>

#include <filesystem>

namespace sl::gfn {

namespace {

ReadyPolicyConfig readyConfig(const GflowNetTrainConfig& c, const std::string& data) {
    ReadyPolicyConfig pc = ReadyPolicyConfig::cpu();
    applyEncoderSize(c, pc.encoder);
    pc.hidden = c.hidden;
    pc.sigmaMin = c.sigmaMin;
    pc.sigmaMax = c.sigmaMax;
    pc.trainedOn = data;
    return pc;
}

ReadyPolicy initialisedFrom(const std::string& file, const GflowNetTrainConfig& c, const std::string& data) {
    const ReadyPolicy init = loadReadyPolicy(file);
    ReadyPolicyConfig pc = init->config();
    pc.trainedOn = initialisedText(file, data, pc.trainedOn);
    pc.sigmaMin = std::min(pc.sigmaMin, c.sigmaMin);
    pc.sigmaMax = std::max(pc.sigmaMax, c.sigmaMax);
    ReadyPolicy net(pc);
    copyParameters(*net, *init);
    return net;
}

class ReadyMethod : public GflowNetMethod {
public:
    ReadyMethod(const GflowNetTrainConfig& c, TrainingSet data)
        : GflowNetMethod(c, std::move(data)), m_net(readyConfig(c, m_data.description)) {
        if (!c.initWeights.empty()) m_net = initialisedFrom(c.initWeights, c, m_data.description);
        m_net->train();
    }

    void restore(const std::string& ckpt) override {
        m_net = loadReadyPolicy(ckpt + ".slw");
        m_net->train();
    }
    void saveCheckpoint(const std::string& ckpt) override { saveReadyPolicy(m_net, ckpt + ".slw"); }
    std::vector<torch::Tensor> parameters() override { return m_net->parameters(); }
    void saveModel(const std::string& path) override { saveReadyPolicy(m_net, path); }

    models::StepResult step(std::int64_t step, std::uint64_t rankSeed) override {
        const StepDraw d = drawStep(step, rankSeed);
        const ScheduleEnv env(d.problem);
        const GraphTimes times(env);
        const OpTerms terms = m_net->encode(d.subgraph ? readyPolicyInput(env) : cachedInput(d.graph, env), d.sigma);
        std::vector<std::uint64_t> seeds;
        for (int i = 0; i < m_c.batch; ++i) seeds.push_back(deriveSeed(d.seed ^ 0x7A3EC, static_cast<std::uint64_t>(i)));
        const ReadyRollout r = readyRollout(env, times, plainScorer(m_net->plainHead(terms)), seeds, d.sigma);
        const torch::Tensor logR = torch::tensor(r.logReward, torch::kDouble);
        const torch::Tensor z = zeta(logR, readyLogPF(m_net, terms, r), torch::tensor(r.logPB, torch::kDouble));
        return {scaledLogPartitionVarianceLoss(z, logR), stepStats(r.speedup, z, d)};
    }

protected:
    std::vector<double> sampleSpeedups(const Problem& p, double sigma, const std::vector<std::uint64_t>& seeds) override {
        const ScheduleEnv env(p);
        const GraphTimes times(env);
        const ActionScorer scorer = plainScorer(m_net->plainHead(m_net->encode(readyPolicyInput(env), sigma)));
        std::vector<double> out;
        for (std::uint64_t s : seeds) out.push_back(env.speedup(drawReadySchedule(env, times, scorer, s).makespan()));
        return out;
    }
    std::string architectureJson() const override { return m_net->config().toJson(); }
    std::string featuresText() const override {
        return "static op columns (degrees, hops, duration, bottom level, devices) for the encoder; action columns delay, "
               "idle, empty, ahead, bound (docs/gflownet.md)";
    }
    std::string objectiveText() const override { return "LV loss scaled by 1 + std(log R), uniform P_B"; }

private:
    const models::EncoderInput& cachedInput(size_t graph, const ScheduleEnv& env) {
        auto it = m_inputs.find(graph);
        if (it == m_inputs.end()) it = m_inputs.emplace(graph, readyPolicyInput(env)).first;
        return it->second;
    }

    ReadyPolicy m_net;
    std::map<size_t, models::EncoderInput> m_inputs;   ///< whole training graphs only
};

} // namespace

std::unique_ptr<models::TrainingMethod> makeReadyMethod(const GflowNetTrainConfig& c, TrainingSet data) {
    return std::make_unique<ReadyMethod>(c, std::move(data));
}

} // namespace sl::gfn
