// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Durations as the CLI prints them in its summary lines (the explorer's widgets/session/units.h does the
/// same with Qt): a graph in microseconds or seconds reads "318 µs", "2.381 ms", "1.25 s"; a graph in
/// abstract units keeps them, "1116.01 units". JSON outputs keep plain numbers.

#include "core/graph/graph.h"

#include <string>

namespace sl {

/// `value` (in `unit`) with four significant digits, scaled to µs, ms or s by its magnitude; in
/// abstract units, six significant digits and "units". Never an exponent; trailing zeros dropped.
std::string formatDuration(double value, TimeUnit unit);

/// `value` in the graph's own unit with twelve significant digits, unscaled, for read-outs that
/// must round-trip: "2381.05997015 µs", "1.25 s", "1116.01 units".
std::string formatDurationExact(double value, TimeUnit unit);

/// formatDuration, then the exact value in parentheses when the scaled text rounds it: "2.381 ms
/// (2381.05997015 µs)"; abstract units print the exact value alone.
std::string formatDurationWithExact(double value, TimeUnit unit);

/// The other way round, for read-outs whose number scripts parse (evaluate): "2381.05997015 µs
/// (2.381 ms)"; abstract units the exact value alone.
std::string formatExactWithScaled(double value, TimeUnit unit);

}   // namespace sl
