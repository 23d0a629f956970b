// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The one scalar cost. Every optimizer's inner loop, every reported result, `schedlab-cli
/// evaluate` and the explorer score a schedule through this file, so they agree to the bit.
///
///  - sl::CostFunction: the objective of a problem as a function of a schedule's makespan and
///    peak memory (on the problem's memory clock), built once per problem and cheap to call;
///  - sl::scoreSchedule: recomputes a schedule's makespan and both memory clocks from its ops,
///    order and transfers, then applies the CostFunction. Reported costs come from here.
///
/// \code
///   sl::CostFunction cost(problem);
///   if (!cost.needsMemory()) return cost(makespan, 0, {});   // inner loop, makespan only
///   double c = sl::scoreSchedule(problem, schedule);          // fills the schedule's values
/// \endcode

#include "core/costmodel/problem.h"
#include "core/costmodel/stepmemory.h"
#include "core/schedule/schedule.h"

#include <span>
#include <vector>

namespace sl {

/// Normalisers of the weighted objective: the makespan and memory lower bounds of
/// core/analysis/bounds.h (at least 1e-9).
struct CostScales {
    double makespan = 1;
    double memory = 1;
};
CostScales costScales(const Problem& p);

class CostFunction {
public:
    /// Computes the scales once (O(V + E)). `p` must outlive this object.
    explicit CostFunction(const Problem& p);

    /// The cost reads the makespan (makespan and weighted objectives).
    bool needsMakespan() const { return m_needsMakespan; }
    /// The cost reads peak memory: memory and weighted objectives, or makespan with the capacity
    /// penalty on and some device of finite capacity.
    bool needsMemory() const { return m_needsMemory; }
    MemoryClock clock() const { return m_problem.objective.memoryClock; }
    const CostScales& scales() const { return m_scales; }

    /// `peak` and `devicePeaks` are on clock(); pass 0 / {} for what the cost does not need.
    ///  - makespan: the makespan, or with a device over its capacity an upper bound on any makespan
    ///    times (1 + relative excess), so every feasible schedule is cheaper (docs/costmodel.md,
    ///    "Capacity penalty");
    ///  - memory: the peak;
    ///  - weighted: (1 - w) · makespan / makespan bound + w · peak / memory bound.
    double operator()(double makespan, double peak, std::span<const double> devicePeaks) const;
    /// The cost of a schedule already scored under this problem (sl::scoreSchedule).
    double of(const Schedule& s) const { return (*this)(s.makespan, s.peakMemory(), s.memory().devices); }

private:
    const Problem& m_problem;
    CostScales m_scales;
    bool m_needsMakespan, m_needsMemory;
};

/// Recomputes `s.makespan`, `s.stepMemory` and `s.timeMemory` from its ops, order and transfers,
/// sets `s.memoryClock` to the problem's clock and returns the scalar cost. `s` must be valid
/// (sl::validateSchedule); throws std::invalid_argument if its transfer steps are inconsistent.
double scoreSchedule(const Problem& p, Schedule& s, const CostFunction& cost);
double scoreSchedule(const Problem& p, Schedule& s);

/// The step sequence of a schedule (sl::StepMemory's input): the ops of `s.order` with each
/// transfer at its step, or (steps of -1) just before the first consumer on its destination.
void stepSequence(const Graph& g, const Schedule& s, std::vector<int>& sequence,
                  std::vector<TransferStep>& transfers);

} // namespace sl
