// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A schedule: where and when every op runs, plus the objective values the cost model gave it.

#include "core/graph/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl {

struct ScheduledOp {
    int device = 0;
    double start = 0;
    double end = 0;
};

/// A tensor copied from its producer's device to a device that hosts one of its consumers.
struct ScheduledTransfer {
    TensorId tensor = 0;
    int from = 0;
    int to = 0;
    double start = 0;
    double end = 0;
};

struct Schedule {
    std::vector<ScheduledOp> ops;             ///< indexed by OpId
    std::vector<OpId> order;                  ///< the schedule's total order of ops
    std::vector<ScheduledTransfer> transfers; ///< implied by the placement
    double makespan = 0;
    double peakMemory = 0;                    ///< bytes, max over devices (clock: see memoryClock)
    std::vector<double> devicePeakMemory;     ///< bytes per device
    /// "step" when peakMemory is the papers' step-clock value of `order`, "time" when it comes
    /// from the timed memory timeline.
    std::string memoryClock = "time";
    std::string method;
    std::uint64_t seed = 0;

    bool empty() const { return ops.empty(); }
    std::vector<int> placement() const;
};

} // namespace sl
