// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Re-checks any timed schedule against the problem, whoever produced it (an optimizer, a file).

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <string>
#include <vector>

namespace sl {

struct ValidationReport {
    std::vector<std::string> errors;     ///< the first faults found (at most ~20), each naming an op
    std::vector<std::string> warnings;   ///< e.g. memory capacity exceeded, by how much
    double makespan = 0;                 ///< recomputed: max end
    double peakMemory = 0;               ///< recomputed, time clock
    double stepPeakMemory = 0;           ///< recomputed, step clock of `order` (with transfers)
    bool ok() const { return errors.empty(); }
    bool memoryFeasible = true;
};

/// Checks: one entry per op; device index in range and of the op's machine type; end - start equal to
/// the op's duration there; precedence (a consumer starts after its inputs arrive, transfers
/// included); resource capacity of every device at every instant; `order` is a topological
/// permutation of all ops. Memory capacity is checked and reported as a warning with the excess
/// (the schedule is still valid, but infeasible for a memory-capped objective).
ValidationReport validateSchedule(const Problem& p, const Schedule& s);

} // namespace sl
