// SPDX-License-Identifier: MIT
#include "core/exact/memorydive.h"

#include <algorithm>

namespace sl {

namespace {

bool has(const std::uint64_t* set, OpId v) { return (set[static_cast<size_t>(v) >> 6] >> (v & 63)) & 1u; }

} // namespace

GreedyMemoryDive::GreedyMemoryDive(const Graph& g) : m_g(g) {
    m_readers.resize(static_cast<size_t>(g.tensorCount()));
    for (OpId v = 0; v < g.opCount(); ++v)
        for (TensorId t : g.inputs(v)) {
            auto& readers = m_readers[static_cast<size_t>(t)];
            if (readers.empty() || readers.back() != v) readers.push_back(v);
        }
    m_deadOutputs.assign(static_cast<size_t>(g.opCount()), 0);
    for (OpId v = 0; v < g.opCount(); ++v)
        for (TensorId t : g.outputs(v))
            if (m_readers[static_cast<size_t>(t)].empty()) m_deadOutputs[static_cast<size_t>(v)] += g.tensor(t).bytes;
}

double GreedyMemoryDive::liveGrowth(OpId v) const {
    double growth = m_g.outputBytes(v) - m_deadOutputs[static_cast<size_t>(v)];
    for (TensorId t : m_g.inputs(v))
        if (m_unreadBy[static_cast<size_t>(t)] == 1) growth -= m_g.tensor(t).bytes;   // v is its last reader
    return growth;
}

void GreedyMemoryDive::run(OpId v, std::vector<OpId>& ready) {
    const auto& inputs = m_g.inputs(v);
    for (auto it = inputs.begin(); it != inputs.end(); ++it)
        if (std::find(inputs.begin(), it, *it) == it) --m_unreadBy[static_cast<size_t>(*it)];   // once per tensor
    for (OpId s : m_g.successors(v))
        if (--m_waitingFor[static_cast<size_t>(s)] == 0) ready.push_back(s);
}

std::vector<OpId> GreedyMemoryDive::complete(const std::uint64_t* set) {
    const int n = m_g.opCount();
    m_unreadBy.assign(static_cast<size_t>(m_g.tensorCount()), 0);
    for (TensorId t = 0; t < m_g.tensorCount(); ++t)
        for (OpId r : m_readers[static_cast<size_t>(t)])
            if (!has(set, r)) ++m_unreadBy[static_cast<size_t>(t)];
    m_waitingFor.assign(static_cast<size_t>(n), 0);
    std::vector<OpId> ready, order;
    for (OpId v = 0; v < n; ++v) {
        if (has(set, v)) continue;
        for (OpId q : m_g.predecessors(v))
            if (!has(set, q)) ++m_waitingFor[static_cast<size_t>(v)];
        if (m_waitingFor[static_cast<size_t>(v)] == 0) ready.push_back(v);
    }
    while (!ready.empty()) {
        size_t pick = 0;
        double pickGrowth = liveGrowth(ready[0]);
        for (size_t i = 1; i < ready.size(); ++i) {
            const OpId a = ready[i], b = ready[pick];
            const double growth = liveGrowth(a);
            const double stepA = m_g.outputBytes(a) + m_g.op(a).paramBytes, stepB = m_g.outputBytes(b) + m_g.op(b).paramBytes;
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
