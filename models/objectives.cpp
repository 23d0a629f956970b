// SPDX-License-Identifier: MIT
#include "models/objectives.h"

#include <algorithm>
#include <stdexcept>

namespace sl::models {

void requireDeclaredObjective(const OptimizerInfo& info, const Problem& problem) {
    const Objective asked = problem.objective.kind;
    if (std::find(info.objectives.begin(), info.objectives.end(), asked) != info.objectives.end()) return;
    std::string declared;
    for (Objective o : info.objectives) declared += (declared.empty() ? "" : ", ") + toString(o);
    throw std::invalid_argument(info.name + " does not support the '" + toString(asked) + "' objective; it supports: " +
                                declared);
}

} // namespace sl::models
