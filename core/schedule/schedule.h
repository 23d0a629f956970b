// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A schedule: where and when every op runs, the total order, the transfers, and the objective
/// values the cost model gave it (sl::scoreSchedule in core/costmodel/cost.h fills those).

#include "core/graph/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl {

/// Which of the cost model's two memory clocks a cost reads peak memory from (docs/costmodel.md):
///  - Step: the papers' clock, one op or transfer per step of the schedule's total order
///    (REGAL, Paliwal et al. 2020, §3.1; Topoformer, Gagrani et al. 2022, §3.2); the default
///    everywhere;
///  - Time: memory over time of the timed schedule, as the memory view draws it.
enum class MemoryClock { Step, Time };
std::string toString(MemoryClock c);
/// "step" or "time"; throws std::invalid_argument otherwise.
MemoryClock memoryClockFromString(const std::string& s);

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
    /// Position in the step sequence (ops of `order` and transfers interleaved; 0-based), as
    /// REGAL's chromosome orders transfers. -1: just before the first consumer on `to`. Either
    /// every transfer of a schedule has a step or none has.
    int step = -1;
};

/// Peak memory on one clock: the maximum over devices and each device's own peak (bytes).
struct MemoryPeaks {
    double peak = 0;
    std::vector<double> devices;
};

struct Schedule {
    std::vector<ScheduledOp> ops;             ///< indexed by OpId
    std::vector<OpId> order;                  ///< the schedule's total order of ops (topological)
    std::vector<ScheduledTransfer> transfers; ///< implied by the placement

    // Objective values, all recomputed from the fields above by sl::scoreSchedule.
    double makespan = 0;
    MemoryPeaks stepMemory;                   ///< step clock of `order` and the transfer steps
    MemoryPeaks timeMemory;                   ///< time clock of the timed ops and transfers
    MemoryClock memoryClock = MemoryClock::Step;   ///< the clock the schedule's cost reads

    std::string method;
    std::uint64_t seed = 0;

    bool empty() const { return ops.empty(); }
    std::vector<int> placement() const;
    /// Peaks on the clock the cost reads.
    const MemoryPeaks& memory() const { return memoryClock == MemoryClock::Step ? stepMemory : timeMemory; }
    double peakMemory() const { return memory().peak; }
};

} // namespace sl
