// SPDX-License-Identifier: MIT
#include "widgets/session/units.h"

#include <QLocale>

#include <algorithm>
#include <array>
#include <cmath>

namespace sl::gui {
namespace {

struct Step {
    double size;   // in the graph's unit
    const char* suffix;
};

constexpr std::array kMicroseconds{Step{1, "µs"}, Step{1e3, "ms"}, Step{1e6, "s"}, Step{60e6, "min"},
                                   Step{3600e6, "h"}};
constexpr std::array kSeconds{Step{1e-6, "µs"}, Step{1e-3, "ms"}, Step{1, "s"}, Step{60, "min"}, Step{3600, "h"}};
constexpr std::array kAbstract{Step{1, "units"}, Step{1e3, "k units"}, Step{1e6, "M units"}, Step{1e9, "G units"},
                               Step{1e12, "T units"}};
constexpr std::array kBytes{Step{1, "B"}, Step{1024.0, "KiB"}, Step{1024.0 * 1024, "MiB"},
                            Step{1024.0 * 1024 * 1024, "GiB"}, Step{1024.0 * 1024 * 1024 * 1024, "TiB"}};

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

}   // namespace

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

QString formatDuration(double value, TimeUnit unit) { return formatScaled(value, timeScaleFor(value, unit)); }

QString formatExact(double value, TimeUnit unit) {
    if (!std::isfinite(value)) return formatScaled(value, {});
    const TimeScale natural = timeScaleFor(0, unit);   // zero reads in the unit itself
    return numbers().toString(value, 'f', 3) + QLatin1Char(' ') + natural.suffix;
}

namespace {

/// The scale of an exact read-out: abstract units unscaled; time in µs, ms or s (min and h have
/// no decimal fraction of a µs).
TimeScale exactScale(double magnitude, TimeUnit unit) {
    if (unit == TimeUnit::Abstract) return timeScaleFor(0, unit);
    const TimeScale scale = timeScaleFor(magnitude, unit);
    const double second = unit == TimeUnit::Microseconds ? 1e6 : 1;
    return scale.divisor > second ? TimeScale{second, QStringLiteral("s")} : scale;
}

/// "1,491.0" to "1,491", "12.340" to "12.34"; "1,000" stays (no fraction), "-0" reads "0".
QString withoutTrailingZeros(QString digits) {
    if (digits.contains(QLatin1Char('.'))) {
        while (digits.endsWith(QLatin1Char('0'))) digits.chop(1);
        if (digits.endsWith(QLatin1Char('.'))) digits.chop(1);
    }
    return digits == QLatin1String("-0") ? QStringLiteral("0") : digits;
}

}   // namespace

QString formatDurationExact(double value, TimeUnit unit) {
    if (!std::isfinite(value)) return formatScaled(value, {});
    const TimeScale scale = exactScale(std::abs(value), unit);
    const double x = value / scale.divisor;
    // decimals that show one unit of the graph (3 for µs read in ms), and those of 5 significant digits
    const int whole = static_cast<int>(std::lround(std::log10(scale.divisor)));
    const int significant = x == 0 ? 0 : 4 - static_cast<int>(std::floor(std::log10(std::abs(x))));
    const int decimals = std::clamp(std::max(whole, significant), 0, 9);
    return withoutTrailingZeros(numbers().toString(x, 'f', decimals)) + QLatin1Char(' ') + scale.suffix;
}

QString formatBytesExact(double bytes) {
    if (!std::isfinite(bytes)) return formatScaled(bytes, {});
    return numbers().toString(static_cast<qlonglong>(std::llround(bytes))) + QStringLiteral(" B");
}

QString formatCount(long long n) { return numbers().toString(n); }

QString formatPlain(double value) {
    if (std::abs(value) >= 1e6 && std::isfinite(value)) {
        static constexpr std::array kLarge{Step{1e6, "M"}, Step{1e9, "G"}, Step{1e12, "T"}};
        return formatScaled(value, pick(kLarge, std::abs(value), 0));
    }
    return formatScaled(value, {1, {}}).trimmed();
}

TimeScale byteScaleFor(double maxBytes) { return pick(kBytes, std::abs(maxBytes), 0); }

int tickDecimals(double step, const TimeScale& scale) {
    const double scaled = std::abs(step / scale.divisor);
    if (!(scaled > 0) || !std::isfinite(scaled)) return 0;
    return std::clamp(static_cast<int>(-std::floor(std::log10(scaled) + 1e-9)), 0, 9);
}

QString formatTick(double value, const TimeScale& scale, double step) {
    const double x = value / scale.divisor;
    // a tick at zero reads "0", never "-0.0" from rounding
    const double shown = std::abs(x) < std::abs(step / scale.divisor) * 1e-6 ? 0 : x;
    const QString digits = numbers().toString(shown, 'f', tickDecimals(step, scale));
    return scale.suffix.isEmpty() ? digits : digits + QLatin1Char(' ') + scale.suffix;
}

namespace {

/// "+0.2 %", "−4.9 %"; two significant digits below 0.05 %: "+0.00024 %".
QString percentText(double from, double to) {
    const double pct = 100 * (to - from) / from;
    const double a = std::abs(pct);
    const int decimals = a >= 0.05 || !(a > 0) ? 1 : std::clamp(1 - static_cast<int>(std::floor(std::log10(a))), 1, 9);
    const QString sign = pct < 0 ? QStringLiteral("−") : QStringLiteral("+");
    return sign + QString::number(a, 'f', decimals) + QStringLiteral(" %");
}

}   // namespace

QString formatChange(const QString& before, const QString& after, const QString& difference, double from, double to) {
    if (from == to) return QStringLiteral("%1 (unchanged)").arg(after);
    QString change = (to < from ? QStringLiteral("−") : QStringLiteral("+")) + difference;
    if (from != 0 && std::isfinite(from) && std::isfinite(to)) change += QStringLiteral(", ") + percentText(from, to);
    return QStringLiteral("%1 → %2 (%3)").arg(before, after, change);
}

QString formatDurationChange(double from, double to, TimeUnit unit) {
    const auto exact = [unit](double v) { return formatDurationExact(v, unit); };
    return formatChange(exact(from), exact(to), exact(std::abs(to - from)), from, to);
}

QString formatBytesChange(double from, double to) {
    return formatChange(formatBytesExact(from), formatBytesExact(to), formatBytesExact(std::abs(to - from)), from, to);
}

QString sigmaText(double t) { return QString::number(t, t < 0.01 ? 'g' : 'f', t < 0.01 ? 2 : 3); }

}   // namespace sl::gui
