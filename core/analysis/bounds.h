// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Lower bounds on what any schedule of a problem can achieve. Optimizers use them to normalise the
/// weighted objective; `schedlab-cli info` prints them; tests check every schedule against them.

#include "core/costmodel/problem.h"

namespace sl {

struct LowerBounds {
    /// Longest path by the shortest duration each op can have (communication can always be
    /// avoided by co-locating, so it is not counted).
    double criticalPath = 0;
    /// max over machine types of (sum of duration x resource demand) / (total resource capacity
    /// of that type's devices), with each op's shortest duration.
    double workPerDevice = 0;
    /// max(criticalPath, workPerDevice): no schedule finishes earlier.
    double makespan = 0;
    /// Largest single-op footprint: its input tensors + output tensors + parameter bytes, which
    /// must all be resident on its device while it runs (both memory clocks).
    double memory = 0;
};

/// O(V + E). `p.graph` must be finalized.
LowerBounds lowerBounds(const Problem& p);

/// The critical-path bound alone (shortest durations on the platform).
double criticalPathBound(const Problem& p);
/// The work bound alone.
double workBound(const Problem& p);
/// The largest single-op footprint alone.
double footprintBound(const Graph& g);

} // namespace sl
