// SPDX-License-Identifier: MIT
#include "models/timing/measure.h"

#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

namespace sl::models::timing {

namespace {

using MeasureClock = std::chrono::steady_clock;

double timedCallUs(const std::function<void()>& call) {
    const auto start = MeasureClock::now();
    call();
    const auto end = MeasureClock::now();
    return std::chrono::duration<double, std::micro>(end - start).count();
}

std::string formattedNow(const char* format) {
    const std::time_t t = std::time(nullptr);
    std::tm local{};
    localtime_r(&t, &local);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, format, &local);
    return buffer;
}

} // namespace

std::optional<std::vector<double>> timeRepeated(const std::function<void()>& call, int warmup, int repeats,
                                                const std::stop_token& stop) {
    for (int i = 0; i < warmup; ++i) {
        if (stop.stop_requested()) return std::nullopt;
        call();
    }
    std::vector<double> us;
    us.reserve(static_cast<std::size_t>(std::max(repeats, 0)));
    for (int i = 0; i < repeats; ++i) {
        if (stop.stop_requested()) return std::nullopt;
        us.push_back(timedCallUs(call));
    }
    return us;
}

std::optional<std::vector<double>> timeForBudget(const std::function<void()>& call, int minRepeats, int maxRepeats,
                                                 double budgetSeconds, const std::stop_token& stop) {
    if (stop.stop_requested()) return std::nullopt;
    call();
    std::vector<double> us;
    double spentUs = 0;
    while (static_cast<int>(us.size()) < maxRepeats && (static_cast<int>(us.size()) < minRepeats || spentUs < budgetSeconds * 1e6)) {
        if (stop.stop_requested()) return std::nullopt;
        us.push_back(timedCallUs(call));
        spentUs += us.back();
    }
    return us;
}

double medianOf(std::vector<double> samples) {
    if (samples.empty()) return 0;
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) != 0) continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(colon + 1);
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        if (!name.empty()) return name;
    }
    return "unknown CPU";
}

std::string libTorchVersion() { return TORCH_VERSION; }

std::string threadsText(int threads) { return std::to_string(threads) + (threads == 1 ? " thread" : " threads"); }

double physicalMemoryBytes() {
    std::ifstream in("/proc/meminfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("MemTotal:", 0) != 0) continue;
        std::istringstream fields(line.substr(9));
        double kib = 0;
        if (fields >> kib) return kib * 1024;
    }
    return 0;
}

std::string todayText() { return formattedNow("%Y-%m-%d"); }

std::string nowText() { return formattedNow("%Y-%m-%dT%H:%M:%S"); }

} // namespace sl::models::timing
