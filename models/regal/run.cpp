// SPDX-License-Identifier: MIT
#include "models/regal/run.h"

#include "core/brkga/regaldecoder.h"
#include "core/regal/search.h"
#include "core/util/random.h"
#include "models/regal/sampling.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace sl::regal {

Actions policyActions(RegalPolicy& policy, const GraphFeatures& features, std::uint64_t seed, bool greedy) {
    torch::NoGradGuard noGrad;
    const GraphBatch batch = makeBatch({&features});
    const PolicyOutput out = policy->forward(batch);
    Rng rng(seed);
    return chooseActions(out, batch, policy->config(), rng, greedy).front();
}

RunOutcome runRegal(const Problem& problem, RegalPolicy& policy, const RunConfig& config, const brkga::Observer& observer,
                    std::stop_token stop) {
    const int devices = problem.platform.deviceCount();
    if (devices != policy->config().devices)
        throw std::invalid_argument("REGAL: this model was trained for " + std::to_string(policy->config().devices) +
                                    " devices; the platform has " + std::to_string(devices) +
                                    " (train one with `schedlab-cli train regal --devices " + std::to_string(devices) + "`)");
    if (config.budget < 2) throw std::invalid_argument("REGAL: the budget must be at least 2 evaluations");
    // The paper's 400 of 5,000; small budgets keep the same share for the learned run.
    const std::int64_t featureBudget = std::clamp<std::int64_t>(config.budget * 2 / 25, 1, config.featureBudget);
    RunOutcome out;
    out.features = computeFeatures(problem, {.budget = featureBudget, .seed = deriveSeed(config.seed, 0),
                                             .threads = config.threads, .symmetry = config.symmetry},
                                   stop, observer);   // the curve starts with the feature run
    const auto start = std::chrono::steady_clock::now();
    out.actions = policyActions(policy, out.features, deriveSeed(config.seed, 1), config.greedy);
    out.policySeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    SearchRequest second;
    second.params = config.params;
    second.budget = config.budget - out.features.evaluations;
    second.seed = deriveSeed(config.seed, 2);
    second.threads = config.threads;
    second.symmetry = config.symmetry;
    if (config.warmStart) second.warmStart = out.features.elites;
    second.distributions = geneDistributions(RegalLayout::of(problem), out.actions, config.learned,
                                             config.params.rho);
    const std::int64_t offset = out.features.evaluations;
    const double featureBest = out.features.bestCost;
    brkga::Observer shifted;   // the observer sees evaluations and the best over the whole run
    if (observer)
        shifted = [&](const brkga::Status& s) {
            brkga::Status t = s;
            t.evaluations += offset;
            t.best = std::min(t.best, featureBest);
            return observer(t);
        };
    out.learnedRun = search(problem, second, shifted, std::move(stop)).result;
    out.evaluations = offset + out.learnedRun.evaluations;
    const bool featureRunWins = out.features.bestCost < out.learnedRun.bestCost;
    out.best = featureRunWins ? out.features.bestKeys : out.learnedRun.best;
    out.bestCost = featureRunWins ? out.features.bestCost : out.learnedRun.bestCost;
    return out;
}

} // namespace sl::regal
