// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Improvement mode of the critical-path neighbourhood (core/localsearch/moves.h): steepest
/// descent, making the cheapest strictly improving move until none improves. The cost never
/// rises, so it can polish any schedule (a BRKGA decode, a sampler's best) without risk.

#include "core/localsearch/chainschedule.h"
#include "core/localsearch/moves.h"

#include <cstdint>
#include <functional>

namespace sl {

struct DescentResult {
    double cost = 0;                 ///< of `s` at the end
    std::int64_t moves = 0;          ///< improving moves made
    std::int64_t evaluations = 0;    ///< neighbours costed
    bool localOptimum = false;       ///< false: `interrupted` stopped it first
};

/// Descends from `s` (timed, acyclic), which ends timed at the result. `interrupted` is asked
/// before every evaluation; `onMove` (optional) sees the schedule after each move.
DescentResult descend(ChainSchedule& s, const ChainCost& cost = makespanCost,
                      const std::function<bool()>& interrupted = {},
                      const std::function<void(const ChainSchedule&, double)>& onMove = {});

} // namespace sl
