// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// One op's repeated timings summarised as a profile entry: median, interquartile range and count.
/// Shared by every source of measurements (ONNX Runtime traces, `schedlab-cli profile`) so that a
/// "median" and a "spread" mean the same thing in every profile file.
///
/// Quartiles interpolate linearly between order statistics (the "type 7" definition, numpy's and
/// R's default): quantile q of n sorted samples x is x[h] + (h - floor(h)) (x[h+1] - x[h]) with
/// h = q (n - 1), 0-based. So the median of an even count is the mean of the middle two, and the
/// spread of two samples is half their difference; one sample has spread 0.
///
/// \code
///   sl::OpMeasurement m = sl::summarizeRepetitions("conv1", "Conv", {12, 10, 11, 30});
///   // m.medianUs == 11.5, m.spreadUs == 5.75 (q1 10.75, q3 16.5), m.repetitions == 4
/// \endcode

#include "core/profile/profile.h"

#include <vector>

namespace sl {

/// Quantile q in [0, 1] of `sorted` (ascending, not empty), linear interpolation (type 7).
double sortedQuantile(const std::vector<double>& sorted, double q);

/// The profile entry of an op timed `samplesUs.size()` times (microseconds, at least one sample).
/// Throws std::invalid_argument on no samples.
OpMeasurement summarizeRepetitions(std::string name, std::string type, std::vector<double> samplesUs);

} // namespace sl
