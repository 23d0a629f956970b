// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What `profile` and `calibrate` share: timing one call repeatedly with std::chrono::steady_clock
/// around the call alone, and naming the machine and the LibTorch the numbers come from.
///
/// \code
///   std::optional<std::vector<double>> us = sl::models::timing::timeRepeated(call, 3, 20, stop);
///   if (!us) return;   // stopped
/// \endcode

#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sl::models::timing {

/// `warmup` untimed calls, then `repeats` timed ones (microseconds each). nullopt when `stop` was
/// requested before the last call.
std::optional<std::vector<double>> timeRepeated(const std::function<void()>& call, int warmup, int repeats,
                                                const std::stop_token& stop);

/// One untimed call, then timed calls until `budgetSeconds` of them have run, at least
/// `minRepeats` and at most `maxRepeats`: small probes get many samples, large ones a few.
std::optional<std::vector<double>> timeForBudget(const std::function<void()>& call, int minRepeats, int maxRepeats,
                                                 double budgetSeconds, const std::stop_token& stop);

/// Median of samples (the mean of the middle two for an even count); 0 for none.
double medianOf(std::vector<double> samples);

/// The first "model name" of /proc/cpuinfo ("AMD EPYC 7B13"); "unknown CPU" without one.
std::string cpuModel();
/// LibTorch's version as compiled against ("1.13.0").
std::string libTorchVersion();
/// "1 thread", "2 threads".
std::string threadsText(int threads);
/// Physical memory (MemTotal of /proc/meminfo), bytes; 0 when unknown.
double physicalMemoryBytes();
/// Today's date as YYYY-MM-DD, local time.
std::string todayText();
/// Now as ISO-8601 local date and time ("2025-01-31T14:05:09").
std::string nowText();

} // namespace sl::models::timing
