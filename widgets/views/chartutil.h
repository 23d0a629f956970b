// SPDX-License-Identifier: MIT
#pragma once
// Small helpers shared by the Qt Charts views (memory, convergence, compare).
#include "core/costmodel/memorytimeline.h"
#include "core/costmodel/problem.h"
#include "core/graph/graph.h"
#include "widgets/session/units.h"

#include <QList>
#include <QPointF>
#include <QString>

#include <utility>

class QCategoryAxis;
class QValueAxis;

namespace sl::gui {

/// A byte unit that keeps axis numbers short: {divisor, suffix}.
std::pair<double, QString> byteUnit(double maxBytes);
/// Ticks at values round in `scale` over [lo, hi] (20 MiB steps, not 50,000,000 bytes), labelled in
/// it ("0 ms", "5 ms"); the range is the caller's.
void setTickLabels(QCategoryAxis* axis, double lo, double hi, const TimeScale& scale, int maxTicks = 8);
/// Widens the axis's range to whole ticks of setTickLabels() (what QValueAxis::applyNiceNumbers does
/// for plain numbers), round in `scale`; a range that starts at 0 or above stays there.
void applyNiceRange(QValueAxis* axis, const TimeScale& scale, int maxTicks = 6);
/// Shows [t0, t1] on a time axis with ticks at the Gantt's round values (widgets/session/timemapping.h),
/// labelled in the graph's unit at one scale ("0 ms", "5 ms", "10 ms").
void setTimeRange(QCategoryAxis* axis, double t0, double t1, TimeUnit unit, int maxTicks = 8);
/// The display scale of a cost: time for the makespan objective, bytes (IEC) for memory, a plain
/// number (M above a million) for the weighted objective.
TimeScale costScaleFor(double magnitude, Objective objective, TimeUnit unit);
/// Labels a value axis (already ranged, nice numbers applied) with just enough decimals: "0, 0.5, 1".
void setPlainLabels(QValueAxis* axis);
/// A memory step curve as plot points (vertical risers included), at most ~2*maxPoints points:
/// buckets keep their maximum so the peak is never lost.
QList<QPointF> stepPoints(const std::vector<MemoryPoint>& curve, double endTime, double divisor, int maxPoints = 500);
/// The same for the window [t0, t1] only (what a zoomed chart shows), at the same resolution.
QList<QPointF> stepPoints(const std::vector<MemoryPoint>& curve, double t0, double t1, double endTime, double divisor,
                          int maxPoints = 500);
/// The memory in use at `time` on a step curve (the last point at or before it; 0 before the first).
double bytesAt(const std::vector<MemoryPoint>& curve, double time);

}   // namespace sl::gui
