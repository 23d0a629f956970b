// SPDX-License-Identifier: MIT
#include "models/timing/tools.h"

#include <mutex>

namespace sl::models {

namespace {

/// The module fills the table while it is being mapped, which the explorer does on a background
/// thread (neural::preloadNeuralModule): hence the lock, although the CLI reads it afterwards.
struct TimingToolTable {
    std::mutex mutex;
    TimingTools tools;
};

TimingToolTable& timingToolTable() {
    static TimingToolTable table;
    return table;
}

} // namespace

void setTimingTools(TimingTools tools) {
    TimingToolTable& t = timingToolTable();
    const std::lock_guard lock(t.mutex);
    t.tools = std::move(tools);
}

TimingTools timingTools() {
    TimingToolTable& t = timingToolTable();
    const std::lock_guard lock(t.mutex);
    return t.tools;
}

} // namespace sl::models
