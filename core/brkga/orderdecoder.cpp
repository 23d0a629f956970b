// SPDX-License-Identifier: MIT
#include "core/brkga/orderdecoder.h"

#include "core/brkga/decoderbasics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sl {

OrderDecoder::OrderDecoder(const Problem& problem)
    : m_problem(problem), m_graph(problem.g()), m_scheduler(problem) {
    const int n = m_graph.opCount(), D = problem.platform.deviceCount();
    m_needMemory = brkga::needsMemory(problem);
    if (problem.objective.kind == Objective::Weighted) {
        const auto s = brkga::objectiveScales(problem);
        m_makespanScale = s.makespan;
        m_memoryScale = s.memory;
    }
    if (m_needMemory) {
        m_memory = std::make_unique<StepMemory>(m_graph, D);
        m_topoPos.resize(static_cast<size_t>(n));
        const auto& topo = m_graph.topologicalOrder();
        for (size_t i = 0; i < topo.size(); ++i) m_topoPos[static_cast<size_t>(topo[i])] = static_cast<int>(i);
        m_order.resize(static_cast<size_t>(n));
        m_placement.resize(static_cast<size_t>(n));
        m_sequence.reserve(static_cast<size_t>(n) + static_cast<size_t>(m_graph.tensorCount()) * static_cast<size_t>(D));
        m_transfers.reserve(static_cast<size_t>(m_graph.tensorCount()) * static_cast<size_t>(D));
        m_stamp.assign(static_cast<size_t>(m_graph.tensorCount()) * static_cast<size_t>(D), 0);
        m_devicePeaks.assign(static_cast<size_t>(D), 0.0);
    }
}

void OrderDecoder::stepMemory() {
    const int n = m_graph.opCount();
    const auto starts = m_scheduler.starts();
    const auto devices = m_scheduler.devices();
    for (OpId v = 0; v < n; ++v) {
        m_order[static_cast<size_t>(v)] = v;
        m_placement[static_cast<size_t>(v)] = devices[static_cast<size_t>(v)];
    }
    // Start order is topological once ties (zero-duration predecessors) go by topological position.
    std::sort(m_order.begin(), m_order.end(), [&](OpId a, OpId b) {
        const double sa = starts[static_cast<size_t>(a)], sb = starts[static_cast<size_t>(b)];
        return sa != sb ? sa < sb : m_topoPos[static_cast<size_t>(a)] < m_topoPos[static_cast<size_t>(b)];
    });
    if (++m_epoch == 0) {   // wrapped: clear the stamps once
        std::fill(m_stamp.begin(), m_stamp.end(), 0);
        m_epoch = 1;
    }
    const auto D = static_cast<size_t>(m_problem.platform.deviceCount());
    m_sequence.clear();
    m_transfers.clear();
    for (OpId v : m_order) {
        const int q = m_placement[static_cast<size_t>(v)];
        for (TensorId t : m_graph.inputs(v)) {
            const int src = m_placement[static_cast<size_t>(m_graph.tensor(t).producer)];
            unsigned& stamp = m_stamp[static_cast<size_t>(t) * D + static_cast<size_t>(q)];
            if (src == q || stamp == m_epoch) continue;
            stamp = m_epoch;
            m_sequence.push_back(m_graph.opCount() + static_cast<int>(m_transfers.size()));
            m_transfers.push_back({t, q});
        }
        m_sequence.push_back(v);
    }
    m_peak = m_memory->peak(m_placement, m_sequence, m_transfers, &m_devicePeaks);
}

double OrderDecoder::decode(std::span<const double> keys) {
    if (keys.size() != size())
        throw std::invalid_argument("order decoder: expected " + std::to_string(size()) + " keys, got " +
                                    std::to_string(keys.size()));
    m_makespan = m_scheduler.makespan(keys);
    m_peak = std::nan("");
    if (m_needMemory) stepMemory();
    return scalarCost(m_problem, m_makespan, m_needMemory ? m_peak : 0,
                      m_needMemory ? std::span<const double>(m_devicePeaks) : std::span<const double>(),
                      m_makespanScale, m_memoryScale);
}

Schedule OrderDecoder::schedule(std::span<const double> keys) {
    decode(keys);
    Schedule s = m_scheduler.schedule(keys);
    if (m_needMemory && m_problem.objective.kind != Objective::Makespan) {
        s.order = m_order;
        s.peakMemory = m_peak;
        s.devicePeakMemory = m_devicePeaks;
        s.memoryClock = "step";
    }
    return s;
}

} // namespace sl
