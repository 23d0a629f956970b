// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// One BRKGA run over REGAL's chromosome (sl::RegalDecoder, one per thread) with optional learned
/// distributions: what the `regal` optimizer, its trainer, its feature run and `bench regal` share.
/// Reproducible for any thread count (brkga::Engine's contract); cancellable through `stop`.

#include "core/brkga/brkga.h"
#include "core/costmodel/problem.h"

#include <cstdint>
#include <stop_token>
#include <vector>

namespace sl::regal {

struct SearchRequest {
    brkga::Params params;                 ///< the papers' 100 / 10 / 10 / 0.7 by default
    std::int64_t budget = 5000;           ///< evaluations
    double timeLimit = 0;                 ///< seconds, 0 = none
    std::uint64_t seed = 1;
    int threads = 1;
    bool symmetry = true;                 ///< fix the largest-memory op on device 0
    brkga::Distributions distributions;   ///< empty: Uniform keys, as plain BRKGA
    int keepPopulation = 0;               ///< > 0: return that many final chromosomes, best first
    std::vector<brkga::Chromosome> warmStart;   ///< replace the first initial chromosomes
};

struct SearchOutcome {
    brkga::Result result;
    std::vector<brkga::Chromosome> population;   ///< when keepPopulation > 0
};

/// Throws GraphError for an unschedulable problem, std::invalid_argument for bad parameters.
SearchOutcome search(const Problem& problem, const SearchRequest& request, const brkga::Observer& observer = {},
                     std::stop_token stop = {});

} // namespace sl::regal
