// SPDX-License-Identifier: MIT
#include "widgets/units.h"

#include <QLocale>

#include <array>
#include <cmath>

namespace sl::gui {
namespace {

struct Step {
    double size;   // in the graph's unit
    const char* suffix;
};

constexpr std::array kMicroseconds{Step{1, "µs"}, Step{1e3, "ms"}, Step{1e6, "s"}, Step{60e6, "min"}, Step{3600e6, "h"}};
constexpr std::array kSeconds{Step{1e-6, "µs"}, Step{1e-3, "ms"}, Step{1, "s"}, Step{60, "min"}, Step{3600, "h"}};
constexpr std::array kAbstract{Step{1, "units"}, Step{1e3, "k units"}, Step{1e6, "M units"}, Step{1e9, "G units"}, Step{1e12, "T units"}};

template <size_t N>
TimeScale pick(const std::array<Step, N>& steps, double magnitude, size_t unitIndex) {
    size_t chosen = unitIndex;   // zero and non-finite values read in the natural unit
    if (std::isfinite(magnitude) && magnitude > 0) {
        chosen = 0;
        for (size_t i = 0; i < N; ++i)
            if (magnitude >= steps[i].size * (1 - 1e-12)) chosen = i;
    }
    return {steps[chosen].size, QString::fromUtf8(steps[chosen].suffix)};
}

/// The C locale (a '.' decimal point whatever the desktop's language) with ',' thousands separators.
const QLocale& numbers() {
    static const QLocale locale = [] {
        QLocale l = QLocale::c();
        l.setNumberOptions(QLocale::DefaultNumberOptions);
        return l;
    }();
    return locale;
}

} // namespace

TimeScale timeScaleFor(double magnitude, TimeUnit unit) {
    magnitude = std::abs(magnitude);
    switch (unit) {
    case TimeUnit::Microseconds: return pick(kMicroseconds, magnitude, 0);
    case TimeUnit::Seconds: return pick(kSeconds, magnitude, 2);
    case TimeUnit::Abstract: break;
    }
    return pick(kAbstract, magnitude, 0);
}

QString formatScaled(double value, const TimeScale& scale) {
    if (std::isnan(value)) return QStringLiteral("–");
    if (!std::isfinite(value)) return QStringLiteral("∞");
    const double x = value / scale.divisor;
    const double a = std::abs(x);
    // three significant digits, without an exponent: 123, 12.3, 1.23, 0.123 (and 1,234 past 1,000)
    const int decimals = a == 0 || a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
    QString digits = numbers().toString(x, 'f', decimals);
    if (std::abs(x) < 0.0005 && x != 0) digits = x > 0 ? QStringLiteral("<0.001") : QStringLiteral(">-0.001");
    return digits + QLatin1Char(' ') + scale.suffix;
}

QString formatDuration(double value, TimeUnit unit) {
    return formatScaled(value, timeScaleFor(value, unit));
}

QString formatCount(long long n) {
    return numbers().toString(n);
}

} // namespace sl::gui
