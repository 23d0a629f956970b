// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The tightest lower bound known for a run's cost: the analytic bounds (core/analysis/bounds.h)
/// or the bound the run proved (exact-makespan, exact-memory: RunResult::lowerBound), whichever
/// is larger, and what it is. The CLI's "gap to lower bound", the results table and the Memory
/// view all read this one.

#include "core/analysis/bounds.h"
#include "core/optimizer/optimizer.h"

#include <string>

namespace sl {

struct CostBound {
    double value = 0;      ///< no schedule of the problem does better; 0 = none (weighted objective)
    std::string source;    ///< "proven optimum", "search bound", "proved by the run", or the analytic bound's name
    bool proven = false;   ///< the run proved it (it holds for every schedule, not only this one)
};

/// For the makespan and memory objectives; the weighted objective has none. A proved memory bound
/// counts on the step clock (the clock exact-memory minimises) of a single device.
CostBound tightestBound(const Problem& p, const RunResult& r, const LowerBounds& analytic);

}   // namespace sl
