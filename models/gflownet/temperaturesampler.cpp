// SPDX-License-Identifier: MIT
#include "models/gflownet/temperaturesampler.h"

#include "models/gflownet/readypolicy.h"
#include "models/gflownet/sampler.h"

#include "core/costmodel/target.h"
#include "core/optimizer/sampler.h"

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace sl::gfn {

namespace {

class GflowNetTemperatureSampler : public TemperatureSampler {
public:
    explicit GflowNetTemperatureSampler(std::string weights) : m_chosenWeights(std::move(weights)) {}

    SampleSet sample(const Problem& problem, const SampleRequest& request, std::stop_token stop,
                     const SampleProgressFn& progress) override {
        checkSampleRequest(request);
        const Problem proxy = proxyProblem(problem);
        GflowNetSampler& sampler = samplerFor(proxy);
        std::vector<double> speedups;   // grows with each chunk: no copy of the drawn schedules
        const std::vector<Candidate> drawn = sampler.sample(
            proxy, request.temperature, request.count, request.seed, stop, [&](const std::vector<Candidate>& sofar) {
                for (size_t i = speedups.size(); i < sofar.size(); ++i) speedups.push_back(sofar[i].speedup);
                if (progress) progress({static_cast<double>(sofar.size()) / request.count, speedups});
                return true;
            }, request.threads);
        SampleSet out;
        for (const Candidate& c : drawn) {
            out.schedules.push_back(c.schedule);
            out.proxySpeedups.push_back(c.speedup);
        }
        out.cancelled = static_cast<int>(drawn.size()) < request.count;
        return out;
    }

private:
    /// The chosen weights, else the shipped ones for the problem; loaded once per sampler object.
    GflowNetSampler& samplerFor(const Problem& p) {
        const std::string weights = m_chosenWeights.empty() ? defaultWeightsFor(p) : m_chosenWeights;
        if (weights.empty())
            throw std::runtime_error("gflownet: no shipped weights (models/weights/gflownet.slw); train them with "
                                     "'schedlab-cli train gflownet'");
        if (!std::filesystem::exists(weights)) throw std::runtime_error("gflownet: no weight file " + weights);
        if (!m_sampler || weights != m_weights) {
            m_sampler = std::make_unique<GflowNetSampler>(weights);
            m_weights = weights;
        }
        return *m_sampler;
    }

    std::string m_chosenWeights;   ///< empty: the shipped weights
    std::unique_ptr<GflowNetSampler> m_sampler;
    std::string m_weights;         ///< the file m_sampler holds
};

/// The temperatures the shipped weights were trained on (the card's range; the per-state model's
/// 0.01-1 for older files).
TemperatureRange shippedRange() {
    try {
        const std::string weights = defaultWeightsFor({});
        if (!weights.empty()) {
            const models::WeightFileInfo info = models::readWeightInfo(weights);
            if (info.kind == kReadyWeightKind) {
                const ReadyPolicyConfig c = ReadyPolicyConfig::fromJson(info.configJson);
                return {c.sigmaMin, c.sigmaMax};
            }
        }
    } catch (const std::exception&) {
        // a damaged file: the sampler reports it when it is used
    }
    return {0.01, 1.0};
}

} // namespace

void registerGflowNetSampler() {
    SamplerRegistry::instance().add(
        {.name = "gflownet",
         .summary = "GFlowNet scheduler (temperature-conditioned Topoformer policy, shipped weights)",
         .trainedTemperatureRange = shippedRange()},
        [](const SamplerConfig& config) { return std::make_unique<GflowNetTemperatureSampler>(config.weights); });
}

} // namespace sl::gfn
