// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A scheduling problem (graph + platform + objective) and the scalar cost every optimizer minimises.

#include "core/costmodel/pins.h"
#include "core/graph/graph.h"
#include "core/platform/platform.h"
#include "core/schedule/schedule.h"

#include <memory>
#include <string>

namespace sl {

enum class Objective { Makespan, Memory, Weighted };

std::string toString(Objective o);
/// "makespan", "memory" or "both"/"weighted"; throws std::invalid_argument otherwise.
Objective objectiveFromString(const std::string& s);


struct ObjectiveSpec {
    Objective kind = Objective::Makespan;
    /// For Weighted: cost = (1-w) * makespan / makespanScale + w * peak / memoryScale.
    double memoryWeight = 0.5;
    /// Makespan runs: a schedule over a device's memory capacity costs more than any feasible one
    /// (the REGAL workshop paper's App. A.2; docs/costmodel.md, "Capacity penalty").
    bool enforceMemoryCapacity = true;
    /// The clock of "peak memory" in the cost (memory and weighted objectives, capacity penalty).
    MemoryClock memoryClock = MemoryClock::Step;
};

/// Everything an optimizer needs. Cheap to copy; the graph is shared and immutable (finalized).
struct Problem {
    std::shared_ptr<const Graph> graph;
    Platform platform;
    ObjectiveSpec objective;
    /// Ops fixed by hand to a device or a place (core/costmodel/pins.h); none by default.
    Pins pins;

    /// Checks that the graph is finalized and fits the platform, and that some schedule can keep
    /// the pins; throws GraphError.
    void check() const;
    const Graph& g() const { return *graph; }
};

} // namespace sl
