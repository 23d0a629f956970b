// SPDX-License-Identifier: MIT
#pragma once
// Numbers as people read them: durations in the graph's time unit scaled to a readable magnitude
// (12.3 ms, 4.5 s, 19.9 M units), counts with thousands separators, never scientific notation.
#include "core/graph/graph.h"

#include <QString>

namespace sl::gui {

/// A display scale for values of one unit: value / divisor, then the suffix ("ms", "M units").
struct TimeScale {
    double divisor = 1;
    QString suffix;
};

/// The largest scale under which `magnitude` (a duration in `unit`) reads as at least 1: 1,500 us
/// gives ms, 90 s gives min, 2e7 abstract units gives "M units". Axes use one scale per axis.
TimeScale timeScaleFor(double magnitude, TimeUnit unit);

/// `value` with three significant digits (no exponent) and the scale's suffix: "12.3 ms".
QString formatScaled(double value, const TimeScale& scale);

/// A duration or a time point in `unit`, scaled by its own magnitude: "12.3 ms", "0 s", "19.9 M units".
QString formatDuration(double value, TimeUnit unit);

/// A duration unscaled, in the graph's own unit with three decimals, for tooltips: "10,625.200 µs".
QString formatExact(double value, TimeUnit unit);

/// A GFlowNet temperature as the explorer writes it: "0.0012", "0.050".
QString sigmaText(double t);

/// A count with thousands separators: "1,234,567".
QString formatCount(long long n);

/// A duration to the unit, for read-outs of hand edits: rounded to whole units of `unit` or to five
/// significant digits, whichever is finer, its fraction's trailing zeros dropped; abstract units
/// never scaled, time in µs, ms or s: "1,491 units", "1,234,567 units", "12.346 ms", "1.234567 s".
QString formatDurationExact(double value, TimeUnit unit);

/// Bytes to the byte: "1,234,567 B".
QString formatBytesExact(double bytes);

/// A dimensionless number (a weighted cost, a ratio) with three significant digits, thousands
/// separators below a million and "M", "G", "T" suffixes above: "0.734", "1,235", "19.9 M".
QString formatPlain(double value);
/// A value before and after a change, with the difference and the relative change:
/// "1,491 units → 1,494 units (+3 units, +0.2 %)", or "1,491 units (unchanged)"; `before`, `after`
/// and `difference` (|to − from|, the sign is added here) are formatted, `from` and `to` the numbers. The per cent has one decimal, or two
/// significant digits below 0.05 % ("+0.00024 %"); none when `from` is 0.
QString formatChange(const QString& before, const QString& after, const QString& difference, double from, double to);
/// Two durations in `unit` with formatDurationExact: "1,491 units → 1,494 units (+3 units, +0.2 %)".
QString formatDurationChange(double from, double to, TimeUnit unit);
/// Two byte counts with formatBytesExact: "1,048,576 B → 1,048,832 B (+256 B, +0.024 %)".
QString formatBytesChange(double from, double to);

/// The IEC scale for bytes (B, KiB, MiB, GiB, TiB) under which `maxBytes` reads as at least 1.
TimeScale byteScaleFor(double maxBytes);

/// Decimals a tick label needs so neighbouring ticks `step` apart differ in `scale`: 0 for 5 ms
/// steps, 1 for 0.5 ms, 2 for 0.05 ms.
int tickDecimals(double step, const TimeScale& scale);

/// A tick label of an axis with ticks `step` apart: "0 ms", "2.5 ms", "10 ms" (every tick of one
/// axis in the same scale and with the same decimals).
QString formatTick(double value, const TimeScale& scale, double step);

}   // namespace sl::gui
