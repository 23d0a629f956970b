// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Memory over time (the time clock) of a timed schedule, per device.
///
/// Residency rules (the time-clock reading of REGAL's memory model, Paliwal et al. 2020, §3.1):
///  - an output tensor is allocated on its producer's device when the producer starts and freed
///    when the last of its local consumers and outgoing transfers ends; an output nobody reads
///    is freed when its producer ends;
///  - a transferred tensor is resident on the destination from the producer's end (the transfer's
///    start, on links that are not shared) until its last consumer there ends; the source copy is
///    held until the transfer ends (with shared links, the end `s.transfers` books);
///  - an op's parameter bytes are resident while it runs.
/// At equal times, frees come before allocations (memory released at t can be reused at t), but a
/// residency of zero length still counts at its instant. sl::TimeMemory computes the same peaks
/// in one sweep, for the optimizers' inner loops.

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <vector>

namespace sl {

/// One (tensor or parameter block, device) interval of residency.
struct Residency {
    TensorId tensor = -1;   ///< -1: the parameter bytes of `op`
    OpId op = kNoOp;        ///< producer (or the op owning the parameters)
    int device = 0;
    double from = 0;
    double to = 0;
    double bytes = 0;
};

struct MemoryPoint {
    double time;
    double bytes;   ///< memory in use from `time` until the next point
};

struct MemoryTimeline {
    std::vector<std::vector<MemoryPoint>> curves;   ///< per device, a step function
    std::vector<double> peaks;                      ///< per device
    std::vector<double> peakTimes;                  ///< per device: first time the peak is reached
    double peak = 0;
    int peakDevice = 0;
    std::vector<double> devicePeaks() const { return peaks; }
};

/// One transfer per (tensor, remote consumer device), starting when the producer ends.
std::vector<ScheduledTransfer> impliedTransfers(const Problem& p, const Schedule& s);
std::vector<Residency> residencies(const Problem& p, const Schedule& s);
MemoryTimeline computeMemoryTimeline(const Problem& p, const Schedule& s);
/// Residencies live on `device` at `time` (what makes up the memory at that instant), largest first.
std::vector<Residency> liveAt(const Problem& p, const Schedule& s, int device, double time);

} // namespace sl
