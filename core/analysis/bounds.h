// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Lower bounds on what any schedule of a problem can achieve. Optimizers use them to normalise the
/// weighted objective; `schedlab-cli info` prints them; tests check every schedule against them.

#include "core/costmodel/problem.h"

#include <cstdint>
#include <vector>

namespace sl {

struct LowerBounds {
    /// Longest path by the shortest duration each op can have (communication can always be
    /// avoided by co-locating, so it is not counted).
    double criticalPath = 0;
    /// max over machine types of (sum of duration x resource demand) / (total resource capacity
    /// of that type's devices), with each op's shortest duration.
    double workPerDevice = 0;
    /// max over machine types of the one-machine relaxation with heads and tails (the longest paths
    /// before an op's start and after its end): Jackson's preemptive schedule when the type's ops
    /// run one at a time on one device (job-shops), else min head + work / capacity + min tail.
    double machines = 0;
    /// The critical path counting the transfers the problem forces (machine types, pins, per-device
    /// durations; core/analysis/transferbounds.h): >= criticalPath.
    double transferPath = 0;
    /// Shared links: the busiest link's forced transfers (transferbounds.h); 0 on free links.
    double busiestLink = 0;
    /// The largest of the five: no schedule finishes earlier, on free or shared links.
    double makespan = 0;
    /// Which gives `makespan`: "critical path", "work / capacity", "machines", "critical path with
    /// transfers" or "busiest link".
    const char* makespanSource = "critical path";
    /// Largest single-op footprint: its input tensors + output tensors + parameter bytes, which
    /// must all be resident on its device while it runs (both memory clocks).
    double footprint = 0;
    /// cutMemoryBound() over the platform's devices (>= footprint): no peak, on either clock, is lower.
    double memory = 0;
    /// Which gives `memory`: "largest op footprint" or "tensors live across an op".
    const char* memorySource = "largest op footprint";
};

/// O(V + E). `p.graph` must be finalized.
LowerBounds lowerBounds(const Problem& p);

/// The critical-path bound alone (shortest durations on the platform).
double criticalPathBound(const Problem& p);
/// The work bound alone.
double workBound(const Problem& p);
/// The machine bound alone.
double machineBound(const Problem& p);

/// (makespan - bound) / bound: how far a schedule can at most be from the optimum; NaN without a
/// positive bound.
double gapToBound(double makespan, double bound);

/// One op of a one-machine problem with heads and tails.
struct HeadTailOp {
    double head = 0, duration = 0, tail = 0;
};
/// max over ops of (completion + tail) in Jackson's preemptive schedule (at every moment run the
/// released op with the longest tail): the optimum of the preemptive problem, a lower bound of the
/// non-preemptive one. O(n log n).
double jacksonPreemptiveBound(std::vector<HeadTailOp> ops);

/// The largest single-op footprint alone.
double footprintBound(const Graph& g);

/// The cut bound on the step-clock peak memory over `devices` devices (any placement, any order,
/// transfers included): at the step of op v, every tensor produced by an ancestor of v and read
/// by a descendant of v is resident on some device, beside v's own footprint. So the busiest
/// device holds at least max(footprint(v), (footprint(v) + those bytes) / devices). On a training
/// step the loss op's cut holds every saved activation. It holds on the time clock too (those
/// tensors are resident throughout v's run). Returns the maximum over v, never below
/// footprintBound(g); graphs of more than `maxOps` ops get footprintBound(g) alone (the
/// reachability sets take O(ops^2) bits). O(ops x (ops + tensors) / 64).
double cutMemoryBound(const Graph& g, int devices, int maxOps = 16384);

/// One bit per op.
using OpBits = std::vector<std::uint64_t>;
inline bool hasOpBit(const OpBits& bits, OpId v) { return (bits[static_cast<size_t>(v) >> 6] >> (v & 63)) & 1u; }
/// reach[v]: the ops reachable from v along successors (`forward`) or predecessors, v excluded.
/// O(ops x edges / 64) time, ops^2 bits.
std::vector<OpBits> opReachability(const Graph& g, bool forward);

/// Per op v, one device: footprint(v) plus the bytes of tensors made by an ancestor of v and read
/// by a descendant of v (cutMemoryBound's term; its maximum over v is cutMemoryBound(g, 1)).
/// `after` and `before` are opReachability(g, true) and (g, false).
std::vector<double> opCutBounds(const Graph& g, const std::vector<OpBits>& after, const std::vector<OpBits>& before);

} // namespace sl
