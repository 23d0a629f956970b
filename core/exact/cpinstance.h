// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The integer scheduling instance that exact-makespan's constraint model solves, built from a
/// problem only where that model is exact for the cost model's time clock (core/costmodel).
///
/// The cost model times a schedule as chains: each device runs one op at a time, and an input made
/// on another device arrives a transfer time after its producer ends. The constraint model keeps
/// start times and per-device exclusivity, so it is exact when
///  - the objective is the makespan alone (no memory term, no finite memory capacity);
///  - every device runs one op at a time (no two ops of its type fit its resource capacity together);
///  - every machine type either has one device (the op's device is fixed: job-shops), or has
///    identical devices (same duration everywhere, every op fits every one) that no costly transfer
///    joins: a transfer's time is then fixed by the op types alone and becomes a lag on its edge;
///  - durations and transfer times become whole numbers after one decimal scaling (x 10^k, k <= 4).
/// Anything else is refused with a message that says which condition fails.
///
/// \code
///   sl::CpInstance in = sl::makeCpInstance(problem, upperBound);   // throws std::invalid_argument
/// \endcode

#include "core/costmodel/problem.h"

#include <vector>

namespace sl {

struct CpInstance {
    /// Model time = graph time x scale (a power of ten).
    double scale = 1;
    /// Per op, in model time.
    std::vector<int> duration;
    /// The op must start at least `lag` after `from` ends (the transfer time between their devices).
    struct Arc {
        OpId from = 0, to = 0;
        int lag = 0;
    };
    std::vector<Arc> arcs;
    /// One machine type: its devices and its ops. One device: a unary resource (ops ranked on it);
    /// several: a cumulative resource of that capacity (identical devices).
    struct Pool {
        std::vector<int> devices;
        std::vector<OpId> ops;
    };
    std::vector<Pool> pools;
    /// Per op, its pool.
    std::vector<int> poolOf;
};

/// The instance of `p`, or std::invalid_argument saying why the constraint model would not be exact
/// for it. `upperBound` (graph time) is a makespan some schedule reaches: it must fit Gecode's
/// integers after scaling.
CpInstance makeCpInstance(const Problem& p, double upperBound);

} // namespace sl
