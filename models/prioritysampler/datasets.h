// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The priority sampler's generated instance sets, with disjoint seed ranges so that benchmark and
/// test graphs are never seen in training:
///   train       seeds 1,000,000 + i      validation  2,000,000 + i
///   bench       seeds 3,000,000 + i      test        4,000,000 + i
/// Tasks: "layered-typed" (Jeon et al. 2023, App. C.3; nodes drawn per instance in
/// [minNodes, maxNodes] from the instance's own stream) and "jobshop" (jobs x machines, App. C.1).
/// Torch-free.

#include "core/costmodel/problem.h"
#include "core/generators/generators.h"

#include <cstdint>
#include <string>

namespace sl::ps {

enum class Split { Train, Validation, Bench, Test };

struct TaskSpec {
    std::string task = "layered-typed";   ///< "layered-typed" or "jobshop"
    int minNodes = 100, maxNodes = 300;   ///< layered-typed
    int jobs = 25, machines = 10;         ///< jobshop
    std::string describe() const;         ///< e.g. "layered-typed, 100-300 ops"
};

std::uint64_t instanceSeed(Split split, int index);
/// Instance `index` of a split. Throws std::invalid_argument for an unknown task.
GeneratedInstance taskInstance(const TaskSpec& spec, Split split, int index);
/// A makespan problem on the instance's platform.
Problem makespanProblem(const GeneratedInstance& inst);

} // namespace sl::ps
