// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Improvement mode for any method's schedule: from the schedule's own device chains, steepest
/// descent in the critical-path neighbourhood (core/localsearch/descent.h), then a short tabu search
/// (core/localsearch/tabusearch.h; descent alone stops at once on most list schedules, which are
/// local optima of N5). Never worse: when neither lowers the cost model's cost, the schedule comes
/// back unchanged. The priority sampler offers it as `--polish EVALS`.

#include "core/costmodel/cost.h"
#include "core/localsearch/moves.h"
#include "core/optimizer/optimizer.h"

#include <cstdint>
#include <functional>

namespace sl {

/// The cost a local search minimises on chains: the makespan when that is the whole cost, else the
/// cost model on the schedule the chains give. `p` and `cost` must outlive the result.
ChainCost chainCostFor(const Problem& p, const CostFunction& cost);

struct PolishResult {
    Schedule schedule;             ///< scored (sl::scoreSchedule)
    double cost = 0;
    double startCost = 0;          ///< of the schedule given
    std::int64_t evaluations = 0;  ///< neighbours costed
    std::int64_t moves = 0;        ///< descent moves and tabu iterations (0 when the schedule came back unchanged)
};

/// `tabuEvaluations`: the tabu search's budget after the descent (0: descent only); `seed` its
/// tie-breaks. `interrupted` is asked before every evaluation (time limits, cancellation).
PolishResult polishSchedule(const Problem& p, Schedule schedule, std::int64_t tabuEvaluations, std::uint64_t seed,
                            const std::function<bool()>& interrupted = {});
/// The same for a schedule already scored under `cost` (a decoder's, in its inner loop): no
/// rescoring, no cost scales rebuilt.
PolishResult polishScored(const Problem& p, const CostFunction& cost, Schedule schedule, std::int64_t tabuEvaluations,
                          std::uint64_t seed, const std::function<bool()>& interrupted = {});

/// A method's `--polish EVALS` (priority sampler, GFlowNet): polishes r.schedule in place (when
/// tabuEvaluations > 0), adds the evaluations and says what it did in r.note.
void polishResult(const Problem& p, RunResult& r, std::int64_t tabuEvaluations, std::uint64_t seed,
                  const std::function<bool()>& interrupted);

/// The option's declaration, the same for every method that offers it.
OptionSpec polishOption();

} // namespace sl
