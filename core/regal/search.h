// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// One BRKGA run over REGAL's chromosome (sl::RegalDecoder, one per thread) with optional learned
/// distributions: what the `regal` optimizer, its trainer, its feature run and `bench regal` share.
/// Reproducible for any thread count (brkga::Engine's contract); cancellable through `stop`.

#include "core/brkga/balancedplacement.h"
#include "core/brkga/brkga.h"
#include "core/costmodel/problem.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stop_token>
#include <vector>

namespace sl::regal {

/// Mid-run steering (REGAL's policy): after generation `afterGeneration` (0 = the initial
/// population) the population, best first, goes to `choose`, and the distributions it returns
/// drive the generations that follow. Until then the run is plain BRKGA, draw for draw.
/// REGAL steers after 3 plain generations (370 evaluations: R A.1's feature run was 400).
inline constexpr int kDefaultSteerAfter = 3;

struct Steering {
    int afterGeneration = kDefaultSteerAfter;
    std::function<brkga::Distributions(std::span<const brkga::Chromosome> population)> choose;
};

/// Evaluations a run has made when generation `generation` ends (0 = the initial population).
inline std::int64_t evaluationsThrough(const brkga::Params& p, int generation) {
    return std::int64_t(p.populations) * (p.population + std::int64_t(generation) * (p.population - p.elites));
}

struct SearchRequest {
    brkga::Params params;                 ///< the papers' 100 / 10 / 10 / 0.7 by default
    std::int64_t budget = 5000;           ///< evaluations
    double timeLimit = 0;                 ///< seconds, 0 = none
    std::uint64_t seed = 1;
    int threads = 1;
    bool symmetry = true;                 ///< fix the largest-memory op on device 0
    PlacementRule placement;              ///< the decoder's (sl::RegalDecoder); by default affinity alone
    brkga::Distributions distributions;   ///< empty: Uniform keys, as plain BRKGA
    int keepPopulation = 0;               ///< > 0: return that many final chromosomes, best first
    Steering steering;                    ///< no `choose`: never steered
    /// Continue this run (brkga::Engine::resume) instead of starting one; `seed` is then the
    /// snapshot's. Training replays a graph's plain prefix once, not once per reward.
    std::shared_ptr<const brkga::Snapshot> resumeFrom;
    bool snapshotAtSteering = false;      ///< fill SearchOutcome::atSteering
};

struct SearchOutcome {
    brkga::Result result;
    std::vector<brkga::Chromosome> population;   ///< when keepPopulation > 0
    std::int64_t steeredAt = -1;                 ///< evaluations when steering applied; -1: never
    double bestBeforeSteering = 0;               ///< the best cost at that point
    std::shared_ptr<const brkga::Snapshot> atSteering;   ///< the run just before it steered
};

/// Throws GraphError for an unschedulable problem, std::invalid_argument for bad parameters.
SearchOutcome search(const Problem& problem, const SearchRequest& request, const brkga::Observer& observer = {},
                     std::stop_token stop = {});

} // namespace sl::regal
