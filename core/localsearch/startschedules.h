// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Where the local searches start: the schedules of the classic makespan heuristics (list-cp,
/// list-mopnr, list-spt, heft), each scored by the cost model.

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <stop_token>
#include <string>
#include <vector>

namespace sl {

struct NamedSchedule {
    std::string method;
    Schedule schedule;   ///< scored (sl::scoreSchedule)
    double cost = 0;
};

/// The four heuristics' schedules, in the order above. One evaluation each; heft stops early
/// (with a valid schedule) when `stop` fires.
std::vector<NamedSchedule> classicSchedules(const Problem& p, std::stop_token stop = {});

} // namespace sl
