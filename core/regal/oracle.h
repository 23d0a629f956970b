// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's action space handed the answer: the actions whose Betas point at one known solution,
/// and the BRKGA run they steer. `bench regal --oracle K` uses it to measure how much any policy
/// of REGAL's shape could gain on a graph (docs/regal.md, "How much room there is").

#include "core/costmodel/problem.h"
#include "core/regal/actions.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sl::regal {

/// Per op: the shift `strength` on the affinity of the device `placement` gives it (0 on the
/// others); the priority shift falls linearly from +strength for the first op of `order` to
/// -strength for the last (the decoder runs the highest key first). Throws std::invalid_argument
/// unless `order` is a permutation of the ops, every placement is in [0, devices) and
/// 0 <= strength <= kMaxShift.
Actions actionsToward(std::span<const int> placement, std::span<const OpId> order, int devices, int strength = 8);

/// The priority's share of the strength at `rank` of an order of `n`: +1 for the first, falling
/// linearly to -1 for the last (1 when n <= 1). actionsToward() rounds strength x this to a shift;
/// imitation (models/regal/imitation.h) keeps it continuous as a target.
inline double alongOrder(std::size_t rank, std::size_t n) {
    const double fromFirst = n > 1 ? static_cast<double>(rank) / static_cast<double>(n - 1) : 0.0;
    return 1 - 2 * fromFirst;
}

/// The answer the oracle is handed: a schedule's placement and op order, and its cost.
struct OracleGuide {
    std::vector<int> placement;
    std::vector<OpId> order;
    double cost = 0;
};

/// The best of a plain BRKGA run of `guideBudget` evaluations (seed `guideSeed`). Throws as
/// regal::search does.
OracleGuide longRunGuide(const Problem& problem, std::int64_t guideBudget, std::uint64_t guideSeed);

/// The best of the classic single-device memory orders (core/heuristics/memoryorders.h: DFS, BFS,
/// XLA's post-order and list scheduler) by its one-device step-clock peak, every op on device 0:
/// an order guide that BRKGA's own long run need not find (docs/regal.md, "Where order matters").
/// Its cost is that one-device peak. O(orders x (V + E)).
OracleGuide classicOrderGuide(const Problem& problem);

/// A per-op rule a policy could learn from each op's own sizes: the priority pushed up by
/// `strength` for an op whose output is smaller than its predecessors' outputs together (it frees
/// memory), down for one whose output is larger (it allocates); affinities untouched. With one
/// output per op, as in the branches family, that is what the op reads. On the branches family this runs
/// each branch's reduce as soon as it can, so the branches do not interleave (docs/regal.md,
/// "Where order matters").
Actions freesFirstActions(const Graph& g, int devices, int strength = kMaxShift);

/// REGAL's run shape steered by `actions` after generation `steerAfter`: its best cost.
double steeredBy(const Problem& problem, const Actions& actions, std::int64_t budget, std::uint64_t seed,
                 int steerAfter = 3, LearnedKeys keys = {});

/// REGAL's run shape with a perfect guide: BRKGA for `budget` evaluations (seed `seed`), steered
/// after generation `steerAfter` by actionsToward() the guide on the key types of `keys` (the
/// others stay Uniform: `keys` splits the oracle's gain into placement and order); its best cost.
double steeredToward(const Problem& problem, const OracleGuide& guide, std::int64_t budget, std::uint64_t seed, int steerAfter = 3,
                     LearnedKeys keys = {});

struct OracleOutcome {
    double guideCost = 0;   ///< the long plain BRKGA run's best
    double cost = 0;        ///< the steered run's best
};

/// longRunGuide(), then steeredToward() it on both key types, as REGAL's policy would steer.
OracleOutcome oracleSearch(const Problem& problem, std::int64_t guideBudget, std::uint64_t guideSeed, std::int64_t budget,
                           std::uint64_t seed, int steerAfter = 3);

} // namespace sl::regal
