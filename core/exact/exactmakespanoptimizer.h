// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// exact-makespan as a registered optimizer (core/exact/exactmakespan.h does the work): maps the
/// run options onto the search limits, its status onto progress reports (Progress::bound carries
/// the proven bound), and scores the schedule with the one cost model. RunResult::lowerBound is
/// the proven bound and RunResult::note says whether the optimum was proven.

#include "core/optimizer/optimizer.h"

#include <memory>
#include <vector>

namespace sl {

std::unique_ptr<Optimizer> makeExactMakespanOptimizer();
/// Its own options: "time" (seconds when --time-limit is not given) and "fail-limit".
std::vector<OptionSpec> exactMakespanOptions();

} // namespace sl
