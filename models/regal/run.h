// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL at test time (Paliwal et al., "REGAL: Transfer Learning for Fast Optimization of
/// Computation Graphs", ICLR 2020, "R" below; the 400 + rest split is its App. A.1, the order of
/// the steps ours: docs/regal.md, 'What runs'): a uniform BRKGA feature run (400 evaluations), the
/// policy's forward pass, one draw of the actions (or their argmax), then BRKGA with the learned
/// Betas for the rest of the budget; the result is the best over all evaluations. Includes
/// LibTorch: models/ only.

#include "core/brkga/brkga.h"
#include "core/costmodel/problem.h"
#include "core/regal/actions.h"
#include "core/regal/features.h"
#include "models/regal/network.h"

#include <cstdint>
#include <stop_token>

namespace sl::regal {

struct RunConfig {
    std::int64_t budget = 5000;          ///< total evaluations, the feature run's included
    std::int64_t featureBudget = 400;    ///< R A.1; at most 8 % of the budget (400 of 5,000)
    std::uint64_t seed = 1;
    int threads = 1;
    bool greedy = false;                 ///< argmax actions instead of a draw
    bool symmetry = true;
    /// Our addition (the paper restarts): the learned run starts from the feature run's
    /// elites instead of discarding its 400 evaluations.
    bool warmStart = false;
    LearnedKeys learned;                 ///< which key types follow the policy
    brkga::Params params;                ///< the papers' 100 / 10 / 10 / 0.7
};

struct RunOutcome {
    brkga::Chromosome best;
    double bestCost = 0;
    std::int64_t evaluations = 0;
    GraphFeatures features;              ///< includes the feature run's result
    Actions actions;
    brkga::Result learnedRun;            ///< the second run alone
    double policySeconds = 0;            ///< features excluded: the network's forward and the draw
};

/// Throws std::invalid_argument when the policy was trained for another device count or the
/// budget is below 2.
RunOutcome runRegal(const Problem& problem, RegalPolicy& policy, const RunConfig& config,
                    const brkga::Observer& observer = {}, std::stop_token stop = {});

/// The actions for one graph: the policy's forward pass and a draw seeded by `seed`.
Actions policyActions(RegalPolicy& policy, const GraphFeatures& features, std::uint64_t seed, bool greedy);

} // namespace sl::regal
