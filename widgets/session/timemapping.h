// SPDX-License-Identifier: MIT
#pragma once
// Time <-> pixel math of the Gantt chart, kept apart so it can be tested on its own.
#include <algorithm>
#include <cmath>
#include <vector>

namespace sl::gui {

struct TimeMapping {
    double t0 = 0;      ///< time at the left edge of the plot
    double t1 = 1;      ///< time at the right edge
    double x0 = 0;      ///< pixel of the left edge
    double width = 1;   ///< plot width in pixels

    double scale() const { return width / std::max(1e-12, t1 - t0); }
    double toX(double t) const { return x0 + (t - t0) * scale(); }
    double toTime(double x) const { return t0 + (x - x0) / scale(); }
    /// Zooms by `factor` (>1 zooms in) keeping the time under pixel `x` fixed.
    void zoomAt(double x, double factor) {
        const double t = toTime(x);
        const double span = (t1 - t0) / factor;
        t0 = t - (x - x0) / width * span;
        t1 = t0 + span;
    }
    void panPixels(double dx) {
        const double dt = dx / scale();
        t0 -= dt;
        t1 -= dt;
    }
};

/// "Nice" tick positions (1, 2, 5 x 10^k) covering [t0, t1] with at most `maxTicks` ticks.
inline std::vector<double> niceTicks(double t0, double t1, int maxTicks) {
    std::vector<double> ticks;
    const double span = t1 - t0;
    if (!(span > 0) || maxTicks < 1) return ticks;
    const double raw = span / maxTicks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    for (double t = std::ceil(t0 / step) * step; t <= t1 + step * 1e-9; t += step)
        ticks.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
    return ticks;
}

}   // namespace sl::gui
