// SPDX-License-Identifier: MIT
#include "core/schedule/schedule.h"

#include <stdexcept>

namespace sl {

std::string toString(MemoryClock c) { return c == MemoryClock::Step ? "step" : "time"; }

MemoryClock memoryClockFromString(const std::string& s) {
    if (s == "step") return MemoryClock::Step;
    if (s == "time") return MemoryClock::Time;
    throw std::invalid_argument("unknown memory clock '" + s + "' (step or time)");
}

std::vector<int> Schedule::placement() const {
    std::vector<int> p;
    p.reserve(ops.size());
    for (const auto& o : ops) p.push_back(o.device);
    return p;
}

} // namespace sl
