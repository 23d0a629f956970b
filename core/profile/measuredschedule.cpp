// SPDX-License-Identifier: MIT
#include "core/profile/measuredschedule.h"

#include "core/costmodel/listscheduler.h"

#include <stdexcept>

namespace sl {

Schedule asMeasuredSchedule(const Problem& p, const std::vector<std::vector<OpId>>& orderPerThread) {
    const Graph& g = p.g();
    const int n = g.opCount();
    std::vector<double> priority(static_cast<size_t>(n), kInfinity);   // higher first; infinity: not run yet
    std::vector<int> placement(static_cast<size_t>(n), -1);
    int position = 0;
    for (size_t thread = 0; thread < orderPerThread.size(); ++thread)
        for (OpId v : orderPerThread[thread]) {
            if (v < 0 || v >= n) throw std::invalid_argument("the measured order names op #" + std::to_string(v) + ", not in the graph");
            if (priority[static_cast<size_t>(v)] != kInfinity)
                throw std::invalid_argument("the measured order runs op '" + g.op(v).name + "' twice");
            priority[static_cast<size_t>(v)] = -position++;
            const int device = static_cast<int>(thread % static_cast<size_t>(p.platform.deviceCount()));
            if (p.platform.devices[static_cast<size_t>(device)].machineType == g.op(v).machineType)
                placement[static_cast<size_t>(v)] = device;   // else the scheduler picks one of its type
        }
    // Ops the run did not show: just after their latest predecessor (topological order: it is set).
    for (OpId v : g.topologicalOrder()) {
        if (priority[static_cast<size_t>(v)] != kInfinity) continue;
        double after = 0.5;
        for (OpId q : g.predecessors(v)) after = std::min(after, priority[static_cast<size_t>(q)] - 0.5);
        priority[static_cast<size_t>(v)] = after;
    }
    ListScheduler scheduler(p);
    Schedule s = scheduler.schedule(priority, placement);
    s.method = "as measured";
    return s;
}

} // namespace sl
