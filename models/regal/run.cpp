// SPDX-License-Identifier: MIT
#include "models/regal/run.h"

#include "core/brkga/regaldecoder.h"
#include "core/regal/search.h"
#include "core/util/random.h"
#include "models/regal/sampling.h"

#include <torch/torch.h>

#include <chrono>
#include <stdexcept>

namespace sl::regal {

Actions policyActions(RegalPolicy& policy, const GraphFeatures& features, std::uint64_t seed, bool greedy, LearnedKeys learned) {
    torch::NoGradGuard noGrad;
    const GraphBatch batch = makeBatch({&features});
    const PolicyOutput out = policy->forward(batch);
    Rng rng(seed);
    return drawActions(out, batch, policy->config().sigma, rng, greedy, learned).front().actions;
}

RunOutcome runRegal(const Problem& problem, RegalPolicy& policy, const RunConfig& config, const brkga::Observer& observer,
                    std::stop_token stop) {
    if (config.budget < 2) throw std::invalid_argument("REGAL: the budget must be at least 2 evaluations");
    RunOutcome out;
    SearchRequest request;
    request.params = config.params;
    request.budget = config.budget;
    request.seed = config.seed;   // plain BRKGA's seed: the same run until the policy steers
    request.threads = config.threads;
    request.symmetry = config.symmetry;
    request.placement = config.placement;
    request.steering.afterGeneration = config.steerAfter;
    request.steering.choose = [&](std::span<const brkga::Chromosome> population) {
        const auto start = std::chrono::steady_clock::now();
        const GraphFeatures features = computeFeatures(problem, population, config.symmetry, config.placement);
        out.actions = policyActions(policy, features, deriveSeed(config.seed, 1), config.greedy, config.learned);
        out.policySeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return geneDistributions(RegalLayout::of(problem), out.actions, config.learned);
    };
    const SearchOutcome run = search(problem, request, observer, std::move(stop));
    out.best = run.result.best;
    out.bestCost = run.result.bestCost;
    out.evaluations = run.result.evaluations;
    out.steeredAt = run.steeredAt;
    out.bestBeforeSteering = run.bestBeforeSteering;
    return out;
}

} // namespace sl::regal
