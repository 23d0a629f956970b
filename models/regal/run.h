// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL at test time. The paper (Paliwal et al., "REGAL: Transfer Learning for Fast Optimization
/// of Computation Graphs", ICLR 2020, App. A.1) runs a 400-evaluation uniform BRKGA for features,
/// then a fresh BRKGA with the learned Betas. Ours is one run (docs/regal.md, "What runs"): plain
/// BRKGA, at the user's seed, for `steerAfter` generations (370 evaluations with the default
/// 100 / 10 / 10 population); then the policy reads the graph and that population and picks the
/// key distributions of the mutants that follow. A policy whose every shift is 0 leaves the run
/// exactly plain BRKGA's (`brkga` at the same seed and budget), draw for draw. Includes LibTorch:
/// models/ only.

#include "core/brkga/brkga.h"
#include "core/costmodel/problem.h"
#include "core/regal/actions.h"
#include "core/regal/features.h"
#include "core/regal/search.h"
#include "models/regal/network.h"

#include <cstdint>
#include <stop_token>

namespace sl::regal {

struct RunConfig {
    std::int64_t budget = 5000;          ///< total evaluations
    int steerAfter = kDefaultSteerAfter; ///< plain generations before the policy steers
    std::uint64_t seed = 1;
    int threads = 1;
    bool greedy = true;                  ///< the policy's means; false: a draw (seeded by `seed`)
    bool symmetry = true;
    PlacementRule placement;             ///< the decoder's (sl::RegalDecoder); by default affinity alone
    LearnedKeys learned;                 ///< which key types follow the policy
    brkga::Params params;                ///< the papers' 100 / 10 / 10 / 0.7
};

struct RunOutcome {
    brkga::Chromosome best;
    double bestCost = 0;
    std::int64_t evaluations = 0;
    std::int64_t steeredAt = -1;         ///< evaluations before the policy steered; -1: never
    double bestBeforeSteering = 0;
    Actions actions;
    double policySeconds = 0;            ///< features, the network's forward and the draw
};

/// Throws std::invalid_argument when the budget is below 2.
RunOutcome runRegal(const Problem& problem, RegalPolicy& policy, const RunConfig& config,
                    const brkga::Observer& observer = {}, std::stop_token stop = {});

/// The actions for one graph: the policy's forward pass, then its means (greedy) or a draw
/// seeded by `seed`.
Actions policyActions(RegalPolicy& policy, const GraphFeatures& features, std::uint64_t seed, bool greedy,
                      LearnedKeys learned = {});

} // namespace sl::regal
