// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Re-checks any timed schedule against the problem, whoever produced it (an optimizer, a file).

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <span>
#include <string>
#include <vector>

namespace sl {

struct ValidationReport {
    std::vector<std::string> errors;     ///< the first faults found (at most ~20), each naming an op
    std::vector<std::string> warnings;   ///< e.g. memory capacity exceeded, by how much
    bool ok() const { return errors.empty(); }
    bool memoryFeasible = true;          ///< every device within capacity on the problem's clock
};

/// Checks: one entry per op; device index in range and of the op's machine type; end - start equal to
/// the op's duration there; precedence (a consumer starts after its inputs arrive, transfers
/// included); resource capacity of every device at every instant; `order` is a topological
/// permutation of all ops; transfer steps, when given, each between the producer and the consumers
/// on its destination; the problem's pins (core/costmodel/pins.h). Memory capacity is checked on the problem's memory clock and reported as a
/// warning with the excess (the schedule is still valid, but infeasible for a memory-capped
/// objective). The objective values themselves come from sl::scoreSchedule.
ValidationReport validateSchedule(const Problem& p, const Schedule& s);

/// Empty when `order` is a topological permutation of `g`'s ops, else what is wrong (the first
/// op found before a predecessor, by name): validateSchedule's order check, alone.
std::string orderError(const Graph& g, std::span<const OpId> order);

/// The one verdict on a method's result, in the CLI and the explorer alike: throws
/// std::runtime_error("METHOD produced an invalid schedule: FIRST ERROR") unless `s` validates;
/// else returns the report (its warnings).
ValidationReport requireValidResult(const Problem& p, const Schedule& s, const std::string& method);

} // namespace sl
