// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Internal helpers shared by the schedule writers (core/io/schedule*.cpp, chrometrace.cpp,
/// annotateddot.cpp). Not part of the public API: include core/io/scheduleio.h instead.

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <string>
#include <vector>

namespace sl::scheduleformat {

/// Throws IoError("<where>: ...") unless the schedule has one entry per op of the graph, every
/// device index is in the platform and the order (when not empty) names each op once.
void checkShape(const Problem& p, const Schedule& s, const std::string& where);

/// Position of each op in rowOrder(p, s).
std::vector<int> positions(const Problem& p, const Schedule& s);

/// The ops in schedule order: `s.order` when present, else by start time (ties: topological).
std::vector<OpId> rowOrder(const Problem& p, const Schedule& s);

/// Shortest text that reads back as the same double ("57", "2.5", "1e+20").
std::string number(double x);

/// The name of device `d`, or its index as text when the platform has no such device.
std::string deviceName(const Problem& p, int d);

/// "#rrggbb" of device `d`: the explorer's categorical palette (widgets/views/palette.cpp), cycling.
std::string deviceColour(int d);

} // namespace sl::scheduleformat
