// SPDX-License-Identifier: MIT
#include "models/gflownet/sampler.h"

#include "models/gflownet/policy.h"
#include "models/gflownet/rollout.h"

#include "models/encoder/maththreads.h"

#include "core/util/random.h"

#include <torch/torch.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <stdexcept>

namespace sl::gfn {

namespace {
/// Samples per batched rollout: 64, fewer when the attention scores (7 heads x N^2 per sample)
/// would pass 32M floats. A function of the graph only (never of threads or count), so a sample's
/// numbers do not depend on how many are drawn.
int chunkSize(int ops) {
    const double perSample = 7.0 * static_cast<double>(ops) * static_cast<double>(ops);
    return static_cast<int>(std::clamp(32e6 / std::max(perSample, 1.0), 1.0, 64.0));
}
} // namespace

struct GflowNetSampler::Impl {
    GflowNetPolicy net{nullptr};
};

GflowNetSampler::GflowNetSampler(const std::string& weightsPath) : m_impl(std::make_unique<Impl>()) {
    m_impl->net = loadPolicy(weightsPath);
}

GflowNetSampler::~GflowNetSampler() = default;

std::string GflowNetSampler::trainedOn() const { return m_impl->net->config().trainedOn; }

std::vector<Candidate> GflowNetSampler::sample(const Problem& problem, double temperature, int count, std::uint64_t seed,
                                               std::stop_token stop, const ChunkFn& onChunk, int /*threads*/) {
    if (!(temperature > 0)) throw std::invalid_argument("gflownet: the temperature must be positive");
    models::checkEncoderSize(problem.g());
    torch::NoGradGuard noGrad;
    const models::MathThreads pin(1);   // the same samples whatever the thread settings
    const ScheduleEnv env(problem);
    const models::EncoderInput masks = graphMasks(problem.g());
    std::vector<Candidate> out;
    out.reserve(static_cast<size_t>(std::max(count, 0)));
    const int chunk = chunkSize(env.ops());
    for (int first = 0; first < count; first += chunk) {
        if (first > 0 && stop.stop_requested()) break;
        RolloutSpec spec;
        spec.sigma = temperature;
        for (int i = first; i < std::min(count, first + chunk); ++i) spec.seeds.push_back(deriveSeed(seed, static_cast<std::uint64_t>(i)));
        const Rollout r = rollout(m_impl->net, env, masks, spec, first > 0 ? stop : std::stop_token{});
        for (size_t i = 0; i < r.finals.size(); ++i)
            out.push_back({r.finals[i].toSchedule(), r.makespan[i], r.speedup[i]});
        if (onChunk && !onChunk(out)) break;
    }
    return out;
}

std::string defaultWeightsFor(const Problem&) {
    const std::string path = (std::filesystem::path(models::modelsDir()) / "gflownet.slw").string();
    return std::filesystem::exists(path) ? path : std::string();
}

} // namespace sl::gfn
