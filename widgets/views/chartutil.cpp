// SPDX-License-Identifier: MIT
#include "widgets/views/chartutil.h"

#include "widgets/session/timemapping.h"
#include "widgets/session/units.h"

#include <QCategoryAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sl::gui {

std::pair<double, QString> byteUnit(double maxBytes) {
    const TimeScale s = byteScaleFor(maxBytes);
    return {s.divisor, s.suffix};
}

namespace {

/// At most ~maxPoints bucket maxima of `pts` over [t0, t1].
std::vector<MemoryPoint> bucketMaxima(const std::vector<MemoryPoint>& pts, double t0, double t1, int maxPoints) {
    const double width = (t1 - t0) / maxPoints;
    std::vector<MemoryPoint> bucketed;
    size_t i = 0;
    for (int b = 0; b < maxPoints && i < pts.size(); ++b) {
        const double bEnd = t0 + (b + 1) * width;
        if (pts[i].time >= bEnd) continue;
        MemoryPoint m{pts[i].time, 0};
        for (; i < pts.size() && (pts[i].time < bEnd || b == maxPoints - 1); ++i)
            m.bytes = std::max(m.bytes, pts[i].bytes);
        bucketed.push_back(m);
    }
    return bucketed;
}

QList<QPointF> risers(const std::vector<MemoryPoint>& pts, double before, double endTime, double divisor) {
    QList<QPointF> out;
    double prev = before;
    out.reserve(static_cast<qsizetype>(pts.size() * 2 + 2));
    out.append(QPointF(pts.front().time, prev / divisor));
    for (const auto& p : pts) {
        out.append(QPointF(p.time, prev / divisor));
        out.append(QPointF(p.time, p.bytes / divisor));
        prev = p.bytes;
    }
    out.append(QPointF(std::max(endTime, pts.back().time), prev / divisor));
    return out;
}

}   // namespace

QList<QPointF> stepPoints(const std::vector<MemoryPoint>& curve, double endTime, double divisor, int maxPoints) {
    if (curve.empty()) return {};
    if (static_cast<int>(curve.size()) <= maxPoints) return risers(curve, 0, endTime, divisor);
    return risers(bucketMaxima(curve, curve.front().time, std::max(endTime, curve.back().time), maxPoints), 0, endTime,
                  divisor);
}

QList<QPointF> stepPoints(const std::vector<MemoryPoint>& curve, double t0, double t1, double endTime, double divisor,
                          int maxPoints) {
    if (curve.empty() || !(t1 > t0)) return {};
    // the points inside the window, starting from the step in force at t0
    auto first =
        std::upper_bound(curve.begin(), curve.end(), t0, [](double t, const MemoryPoint& p) { return t < p.time; });
    if (first != curve.begin()) --first;
    auto last = std::upper_bound(first, curve.end(), t1, [](double t, const MemoryPoint& p) { return t < p.time; });
    std::vector<MemoryPoint> window(first, last);
    if (window.empty()) return {};
    const double end = std::min(endTime, t1) > window.back().time ? std::min(endTime, t1) : window.back().time;
    if (static_cast<int>(window.size()) > maxPoints) window = bucketMaxima(window, window.front().time, end, maxPoints);
    return risers(window, 0, end, divisor);
}

double bytesAt(const std::vector<MemoryPoint>& curve, double time) {
    auto it =
        std::upper_bound(curve.begin(), curve.end(), time, [](double t, const MemoryPoint& p) { return t < p.time; });
    return it == curve.begin() ? 0 : std::prev(it)->bytes;
}

void setTickLabels(QCategoryAxis* axis, double lo, double hi, const TimeScale& scale, int maxTicks) {
    for (const QString& label : axis->categoriesLabels()) axis->remove(label);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setStartValue(lo);
    const double d = scale.divisor > 0 ? scale.divisor : 1;
    const auto ticks = niceTicks(lo / d, hi / d, maxTicks);
    const double step = ticks.size() >= 2 ? (ticks[1] - ticks[0]) * d : hi - lo;
    for (double t : ticks) axis->append(formatTick(t * d, scale, step), t * d);
}

void applyNiceRange(QValueAxis* axis, const TimeScale& scale, int maxTicks) {
    const double d = scale.divisor > 0 ? scale.divisor : 1, lo = axis->min() / d, hi = axis->max() / d;
    const auto ticks = niceTicks(lo, hi, maxTicks);
    if (ticks.size() < 2) return;
    const double step = ticks[1] - ticks[0];
    const double niceLo = std::floor(lo / step + 1e-9) * step, niceHi = std::ceil(hi / step - 1e-9) * step;
    axis->setRange(lo >= 0 ? std::max(0.0, niceLo) * d : niceLo * d, niceHi * d);
}

void setTimeRange(QCategoryAxis* axis, double t0, double t1, TimeUnit unit, int maxTicks) {
    if (!(t1 > t0)) return;
    axis->setRange(t0, t1);
    setTickLabels(axis, t0, t1, timeScaleFor(std::max(std::abs(t0), std::abs(t1)), unit), maxTicks);
}

TimeScale costScaleFor(double magnitude, Objective objective, TimeUnit unit) {
    switch (objective) {
    case Objective::Makespan: return timeScaleFor(magnitude, unit);
    case Objective::Memory: return byteScaleFor(magnitude);
    case Objective::Weighted: break;
    }
    return std::abs(magnitude) >= 1e6 ? TimeScale{1e6, QStringLiteral("M")} : TimeScale{1, {}};
}

void setPlainLabels(QValueAxis* axis) {
    const double step = (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(tickDecimals(step, {1, {}})));
}

}   // namespace sl::gui
