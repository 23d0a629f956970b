// SPDX-License-Identifier: MIT
#include "models/prioritysampler/datasets.h"

#include "core/util/random.h"

#include <stdexcept>

namespace sl::ps {

std::string TaskSpec::describe() const {
    if (task == "jobshop") return "jobshop " + std::to_string(jobs) + "x" + std::to_string(machines);
    return task + ", " + std::to_string(minNodes) + "-" + std::to_string(maxNodes) + " ops";
}

std::uint64_t instanceSeed(Split split, int index) {
    const std::uint64_t base = split == Split::Train ? 1'000'000 : split == Split::Validation ? 2'000'000
                             : split == Split::Bench ? 3'000'000 : 4'000'000;
    return base + static_cast<std::uint64_t>(index);
}

GeneratedInstance taskInstance(const TaskSpec& spec, Split split, int index) {
    const std::uint64_t seed = instanceSeed(split, index);
    if (spec.task == "jobshop") return generateJobShop(spec.jobs, spec.machines, seed);
    if (spec.task == "layered-typed") {
        if (spec.minNodes < 2 || spec.maxNodes < spec.minNodes) throw std::invalid_argument("bad node range");
        Rng rng(deriveSeed(seed, 0x517e));
        const int nodes = static_cast<int>(rng.integer(spec.minNodes, spec.maxNodes));
        return generateLayeredTyped(nodes, seed);
    }
    throw std::invalid_argument("unknown task '" + spec.task + "' (layered-typed, jobshop)");
}

Problem makespanProblem(const GeneratedInstance& inst) {
    Problem p{inst.graph, inst.platform, {}};
    p.objective.kind = Objective::Makespan;
    return p;
}

} // namespace sl::ps
