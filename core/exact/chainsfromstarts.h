// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Turns a solution of exact-makespan's model (a start per op, in model time) into device chains,
/// which the cost model then times (sl::timeChains): a one-device pool keeps its ops in start
/// order (at one start: zero-length ops first, then by the graph's topological order); a pool of identical devices
/// hands each op, in start order, to the device that came free last no later than its start (any
/// free one keeps the schedule; the latest keeps the others free for longer), or, for a zero-length
/// op with every device busy, to the one that frees first.

#include "core/costmodel/chaintiming.h"
#include "core/exact/cpinstance.h"

#include <vector>

namespace sl {

/// `in` must have been made from `g` (sl::makeCpInstance).
DeviceChains chainsFromStarts(const Graph& g, const CpInstance& in, int deviceCount, const std::vector<int>& starts);

} // namespace sl
