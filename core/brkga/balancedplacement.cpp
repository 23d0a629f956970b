// SPDX-License-Identifier: MIT
#include "core/brkga/balancedplacement.h"

#include "core/brkga/distinctconsumers.h"
#include "core/brkga/regaldecoder.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

BalancedPlacement::BalancedPlacement(const Problem& problem, std::vector<std::vector<int>> devicesOfType)
    : m_graph(problem.g()), m_devicesOfType(std::move(devicesOfType)) {
    const int n = m_graph.opCount(), T = m_graph.tensorCount();
    for (const Device& d : problem.platform.devices) m_capacity.push_back(d.memoryCapacity);
    m_inputBytes.assign(static_cast<size_t>(n), 0.0);
    for (OpId v = 0; v < n; ++v)
        for (TensorId t : m_graph.inputs(v)) m_inputBytes[static_cast<size_t>(v)] += m_graph.tensor(t).bytes;
    DistinctConsumers consumers(m_graph);
    m_consStart = std::move(consumers.start);
    m_cons = std::move(consumers.ops);
    m_producer.resize(static_cast<size_t>(T));
    m_consumers.resize(static_cast<size_t>(T));
    for (TensorId t = 0; t < T; ++t) {
        m_producer[static_cast<size_t>(t)] = m_graph.tensor(t).producer;
        m_consumers[static_cast<size_t>(t)] =
            m_consStart[static_cast<size_t>(t) + 1] - m_consStart[static_cast<size_t>(t)];
    }
    m_remaining.resize(static_cast<size_t>(T));
    m_indeg.resize(static_cast<size_t>(n));
    m_live.resize(m_capacity.size());
}

double BalancedPlacement::copiedBytes(OpId v, int device, std::span<const int> placement) const {
    double bytes = 0;
    for (TensorId t : m_graph.inputs(v))
        if (placement[static_cast<size_t>(m_producer[static_cast<size_t>(t)])] != device)
            bytes += m_graph.tensor(t).bytes;
    return bytes;
}

int BalancedPlacement::chooseDevice(std::span<const double> keys, const RegalLayout& layout, const PlacementRule& rule,
                                    OpId v, std::span<const int> placement) const {
    const auto& cands = m_devicesOfType[static_cast<size_t>(m_graph.op(v).machineType)];
    const double inputBytes = m_inputBytes[static_cast<size_t>(v)];
    double mostLive = 0;
    for (int q : cands) mostLive = std::max(mostLive, m_live[static_cast<size_t>(q)]);
    int best = -1;
    bool bestFits = false;
    double bestScore = 0;
    for (int q : cands) {
        const double live = m_live[static_cast<size_t>(q)], copied = copiedBytes(v, q, placement);
        double score = keys[layout.affinity(v, q)];
        if (mostLive > 0) score -= rule.balance * live / mostLive;
        if (inputBytes > 0) score -= rule.locality * copied / inputBytes;
        // What v's step holds on q: the live bytes, its outputs, its weights, the copies.
        const bool fits =
            live + m_graph.outputBytes(v) + m_graph.op(v).paramBytes + copied <= m_capacity[static_cast<size_t>(q)];
        // A device with room beats one without; then the higher score; ties to the lower index.
        if (best < 0 || (fits && !bestFits) || (fits == bestFits && score > bestScore)) {
            best = q;
            bestFits = fits;
            bestScore = score;
        }
    }
    return best;
}

void BalancedPlacement::commit(OpId v, int device, std::span<const int> placement) {
    for (TensorId t : m_graph.outputs(v))
        if (m_consumers[static_cast<size_t>(t)] > 0)
            m_live[static_cast<size_t>(device)] += m_graph.tensor(t).bytes;   // unread outputs die at once
    for (TensorId t : m_graph.inputs(v)) {
        const auto st = static_cast<size_t>(t);
        if (--m_remaining[st] == 0)
            m_live[static_cast<size_t>(placement[static_cast<size_t>(m_producer[st])])] -= m_graph.tensor(t).bytes;
    }
}

void BalancedPlacement::place(std::span<const double> keys, const RegalLayout& layout, const PlacementRule& rule,
                              OpId pinnedOp, std::span<int> placement) {
    const int n = m_graph.opCount();
    std::copy(m_consumers.begin(), m_consumers.end(), m_remaining.begin());
    std::fill(m_live.begin(), m_live.end(), 0.0);
    m_ready.assign(keys.subspan(layout.priority(0), static_cast<size_t>(n)));
    for (OpId v = 0; v < n; ++v) {
        m_indeg[static_cast<size_t>(v)] = static_cast<int>(m_graph.inputs(v).size());
        if (m_indeg[static_cast<size_t>(v)] == 0) m_ready.push(v);
    }
    int placed = 0;
    while (!m_ready.empty()) {
        const OpId v = m_ready.take();
        const int q = v == pinnedOp ? 0 : chooseDevice(keys, layout, rule, v, placement);
        placement[static_cast<size_t>(v)] = q;
        commit(v, q, placement);
        ++placed;
        for (TensorId t : m_graph.outputs(v)) {
            const auto st = static_cast<size_t>(t);
            for (int i = m_consStart[st]; i < m_consStart[st + 1]; ++i) {
                const OpId c = m_cons[static_cast<size_t>(i)];
                if (--m_indeg[static_cast<size_t>(c)] == 0) m_ready.push(c);
            }
        }
    }
    if (placed != n) throw std::logic_error("REGAL decoder: the graph has a cycle");
}

}   // namespace sl
