// SPDX-License-Identifier: MIT
#include "core/exact/memorydive.h"

namespace sl {

/// Live bytes after v minus before it, by the search's own rule (v counted as run while asked).
double GreedyMemoryDive::liveGrowth(OpId v) {
    mark(v);
    const double growth = m_memory.liveAfter(v, 0, [this](OpId c) { return done(c); });
    m_done[static_cast<size_t>(v) >> 6] &= ~(std::uint64_t{1} << (v & 63));
    return growth;
}

void GreedyMemoryDive::run(OpId v, std::vector<OpId>& ready) {
    mark(v);
    for (OpId s : m_g.successors(v))
        if (--m_waitingFor[static_cast<size_t>(s)] == 0) ready.push_back(s);
}

std::vector<OpId> GreedyMemoryDive::complete(const std::uint64_t* set) {
    const int n = m_g.opCount();
    m_done.assign(set, set + (static_cast<size_t>(n) + 63) / 64);
    m_waitingFor.assign(static_cast<size_t>(n), 0);
    std::vector<OpId> ready, order;
    for (OpId v = 0; v < n; ++v) {
        if (done(v)) continue;
        for (OpId q : m_g.predecessors(v))
            if (!done(q)) ++m_waitingFor[static_cast<size_t>(v)];
        if (m_waitingFor[static_cast<size_t>(v)] == 0) ready.push_back(v);
    }
    while (!ready.empty()) {
        size_t pick = 0;
        double pickGrowth = liveGrowth(ready[0]);
        for (size_t i = 1; i < ready.size(); ++i) {
            const OpId a = ready[i], b = ready[pick];
            const double growth = liveGrowth(a);
            const double stepA = m_memory.stepBytes(0, a), stepB = m_memory.stepBytes(0, b);
            if (growth < pickGrowth || (growth == pickGrowth && (stepA < stepB || (stepA == stepB && a < b)))) {
                pick = i;
                pickGrowth = growth;
            }
        }
        const OpId v = ready[pick];
        ready[pick] = ready.back();
        ready.pop_back();
        order.push_back(v);
        run(v, ready);
    }
    return order;
}

} // namespace sl
