// SPDX-License-Identifier: MIT
#pragma once
#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <vector>

namespace sl::gui {

/// The chain of ops that fixes the makespan: walking back from the op that ends last, each step
/// takes a predecessor (data or device) that ends exactly when the op starts. Time order.
std::vector<OpId> criticalPath(const Problem& p, const Schedule& s);

}   // namespace sl::gui
