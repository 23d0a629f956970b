// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// HEFT (Topcuoglu, Hariri, Wu, IEEE TPDS 13(3), 2002): ops by decreasing upward
/// rank over mean costs, each placed on the device of its machine type with the earliest finish
/// time, inserted into the first idle gap that fits (insertion-based). Each device runs one op at a
/// time. Communication between devices costs Platform::transferTime per input tensor (its mean over
/// device pairs in the upward ranks).
/// Topcuoglu's 10-task, 3-processor example gives makespan 80 (docs/heuristics.md, "Choices where
/// the papers are silent"; tests/core/tst_heuristics.cpp).

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <stop_token>
#include <vector>

namespace sl {

/// rank_u(v) = mean duration over v's devices + max over successors s (mean comm(v, s) + rank_u(s)).
/// The mean communication cost of an edge is its transfer time (0 on a single device).
std::vector<double> upwardRanks(const Problem& p);

/// The HEFT schedule (time-clock memory). Returns a partial result only if `stop` fires: then
/// the remaining ops are appended back to back on their first device so the schedule stays valid.
Schedule heftSchedule(const Problem& p, std::stop_token stop = {});

} // namespace sl
