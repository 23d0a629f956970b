// SPDX-License-Identifier: MIT
#include "core/schedule/schedule.h"

namespace sl {

std::vector<int> Schedule::placement() const {
    std::vector<int> p;
    p.reserve(ops.size());
    for (const auto& o : ops) p.push_back(o.device);
    return p;
}

} // namespace sl
