// SPDX-License-Identifier: MIT
#include "widgets/session/criticalpath.h"

#include <algorithm>
#include <cmath>

namespace sl::gui {

std::vector<OpId> criticalPath(const Problem& p, const Schedule& s) {
    const Graph& g = p.g();
    const int n = g.opCount();
    if (n == 0 || static_cast<int>(s.ops.size()) != n) return {};
    const double eps = 1e-9 * std::max(1.0, s.makespan);
    // the op that ran just before each op on its device, for device-bound waits
    std::vector<OpId> byStart(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) byStart[static_cast<size_t>(v)] = v;
    std::sort(byStart.begin(), byStart.end(), [&](OpId a, OpId b) { return s.ops[a].end < s.ops[b].end; });
    std::vector<OpId> path;
    OpId v = byStart.back();
    std::vector<char> seen(static_cast<size_t>(n), 0);
    while (v != kNoOp && !seen[static_cast<size_t>(v)]) {
        seen[static_cast<size_t>(v)] = 1;
        path.push_back(v);
        const ScheduledOp& sv = s.ops[v];
        OpId next = kNoOp;
        double bestEnd = -1;
        for (OpId u : g.predecessors(v)) {   // data waits: the latest pred that ended by our start
            const ScheduledOp& su = s.ops[u];
            if (su.end <= sv.start + eps && su.end > bestEnd) {
                bestEnd = su.end;
                next = u;
            }
        }
        if (next == kNoOp || sv.start - bestEnd > eps) {   // otherwise the device was busy until our start
            auto it = std::lower_bound(byStart.begin(), byStart.end(), sv.start - eps,
                                       [&](OpId a, double t) { return s.ops[a].end < t; });
            for (; it != byStart.end() && s.ops[*it].end <= sv.start + eps; ++it)
                if (*it != v && s.ops[*it].device == sv.device && s.ops[*it].end > bestEnd) {
                    bestEnd = s.ops[*it].end;
                    next = *it;
                }
        }
        if (next == kNoOp || bestEnd < 0) break;
        v = next;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}   // namespace sl::gui
