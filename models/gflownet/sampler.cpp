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
/// Samples per batched rollout. Fixed (not tied to threads or count) so that a sample's numbers
/// do not depend on how many are drawn.
constexpr int kChunk = 64;
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
                                               std::stop_token stop) {
    if (!(temperature > 0)) throw std::invalid_argument("gflownet: the temperature must be positive");
    models::checkEncoderSize(problem.g());
    torch::NoGradGuard noGrad;
    const models::MathThreads pin(1);   // the same samples whatever the thread settings
    const ScheduleEnv env(problem);
    const models::EncoderInput masks = graphMasks(problem.g());
    std::vector<Candidate> out;
    out.reserve(static_cast<size_t>(std::max(count, 0)));
    for (int first = 0; first < count && !stop.stop_requested(); first += kChunk) {
        RolloutSpec spec;
        spec.sigma = temperature;
        for (int i = first; i < std::min(count, first + kChunk); ++i) spec.seeds.push_back(deriveSeed(seed, static_cast<std::uint64_t>(i)));
        const Rollout r = rollout(m_impl->net, env, masks, spec, stop);
        for (size_t i = 0; i < r.finals.size(); ++i)
            out.push_back({r.finals[i].toSchedule(), r.makespan[i], r.speedup[i]});
    }
    return out;
}

std::string defaultWeightsFor(const Problem&) {
    const std::string path = (std::filesystem::path(models::modelsDir()) / "gflownet.slw").string();
    return std::filesystem::exists(path) ? path : std::string();
}

std::vector<int> topK(const std::vector<Candidate>& candidates, int k) {
    std::vector<int> idx(candidates.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) {
        return candidates[static_cast<size_t>(a)].speedup > candidates[static_cast<size_t>(b)].speedup;
    });
    idx.resize(std::min(idx.size(), static_cast<size_t>(std::max(k, 0))));
    return idx;
}

} // namespace sl::gfn
