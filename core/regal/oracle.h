// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's action space handed the answer: the actions whose Betas point at one known solution,
/// and the BRKGA run they steer. `bench regal --oracle K` uses it to measure how much any policy
/// of REGAL's shape could gain on a graph (docs/regal.md, "How much room there is").

#include "core/costmodel/problem.h"
#include "core/regal/actions.h"

#include <cstdint>
#include <span>

namespace sl::regal {

/// Per op: affinity mean k - 1 (the highest) for the device `placement` gives it and 0 for the
/// others; priority mean by the op's rank in `order`, first k-quantile k - 1 (the decoder runs the
/// highest key first); every variance 0 (the narrowest Beta). Throws std::invalid_argument unless
/// `order` is a permutation of the ops and every placement is in [0, devices).
Actions actionsToward(std::span<const int> placement, std::span<const OpId> order, int devices, int k = 2);

struct OracleOutcome {
    double guideCost = 0;   ///< the long plain BRKGA run's best
    double cost = 0;        ///< the steered run's best
};

/// Plain BRKGA for `guideBudget` evaluations (seed `guideSeed`), then BRKGA for `budget`
/// evaluations (seed `seed`) with actionsToward() its best solution as REGAL's distributions.
/// Throws as regal::search does.
OracleOutcome oracleSearch(const Problem& problem, std::int64_t guideBudget, std::uint64_t guideSeed, std::int64_t budget,
                           std::uint64_t seed);

} // namespace sl::regal
