// SPDX-License-Identifier: MIT
#pragma once
// Small helpers shared by the Qt Charts views (memory, convergence, compare).
#include "core/costmodel/memorytimeline.h"

#include <QList>
#include <QPointF>
#include <QString>

#include <utility>

class QValueAxis;

namespace sl::gui {

/// A byte unit that keeps axis numbers short: {divisor, suffix}.
std::pair<double, QString> byteUnit(double maxBytes);
/// Ticks of a time axis at the same round values as the Gantt axes (widgets/timemapping.h).
void alignTicks(QValueAxis* axis, double t0, double t1, int maxTicks = 8);
/// A memory step curve as plot points (vertical risers included), at most ~2*maxPoints points:
/// buckets keep their maximum so the peak is never lost.
QList<QPointF> stepPoints(const std::vector<MemoryPoint>& curve, double endTime, double divisor, int maxPoints = 500);

} // namespace sl::gui
