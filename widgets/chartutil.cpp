// SPDX-License-Identifier: MIT
#include "widgets/chartutil.h"

#include "widgets/timemapping.h"

#include <QValueAxis>

#include <algorithm>

namespace sl::gui {

std::pair<double, QString> byteUnit(double maxBytes) {
    if (maxBytes >= 1024.0 * 1024 * 1024) return {1024.0 * 1024 * 1024, QStringLiteral("GiB")};
    if (maxBytes >= 1024.0 * 1024) return {1024.0 * 1024, QStringLiteral("MiB")};
    if (maxBytes >= 1024.0) return {1024.0, QStringLiteral("KiB")};
    return {1.0, QStringLiteral("B")};
}

QList<QPointF> stepPoints(const std::vector<MemoryPoint>& curve, double endTime, double divisor, int maxPoints) {
    QList<QPointF> out;
    if (curve.empty()) return out;
    std::vector<MemoryPoint> pts = curve;
    if (static_cast<int>(pts.size()) > maxPoints) {
        const double t0 = pts.front().time, t1 = std::max(endTime, pts.back().time);
        const double width = (t1 - t0) / maxPoints;
        std::vector<MemoryPoint> bucketed;
        size_t i = 0;
        for (int b = 0; b < maxPoints && i < pts.size(); ++b) {
            const double bEnd = t0 + (b + 1) * width;
            if (pts[i].time >= bEnd) continue;
            MemoryPoint m{pts[i].time, 0};
            for (; i < pts.size() && (pts[i].time < bEnd || b == maxPoints - 1); ++i) m.bytes = std::max(m.bytes, pts[i].bytes);
            bucketed.push_back(m);
        }
        pts.swap(bucketed);
    }
    double prev = 0;
    out.reserve(static_cast<qsizetype>(pts.size() * 2 + 2));
    out.append(QPointF(pts.front().time, 0));
    for (const auto& p : pts) {
        out.append(QPointF(p.time, prev / divisor));
        out.append(QPointF(p.time, p.bytes / divisor));
        prev = p.bytes;
    }
    out.append(QPointF(std::max(endTime, pts.back().time), prev / divisor));
    return out;
}

void alignTicks(QValueAxis* axis, double t0, double t1, int maxTicks) {
    const auto ticks = niceTicks(t0, t1, maxTicks);
    if (ticks.size() < 2) return;
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(ticks[1] - ticks[0]);
}

} // namespace sl::gui
