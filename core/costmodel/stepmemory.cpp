// SPDX-License-Identifier: MIT
#include "core/costmodel/stepmemory.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

StepMemory::StepMemory(const Graph& graph, int deviceCount)
    : m_graph(graph), m_devices(std::max(deviceCount, 1)) {
    if (!graph.finalized()) throw std::invalid_argument("StepMemory needs a finalized graph");
    m_bytes.resize(static_cast<size_t>(graph.tensorCount()));
    for (TensorId t = 0; t < graph.tensorCount(); ++t) m_bytes[static_cast<size_t>(t)] = graph.tensor(t).bytes;
    m_params.resize(static_cast<size_t>(graph.opCount()));
    m_outputBytes.resize(static_cast<size_t>(graph.opCount()));
    m_producer.resize(static_cast<size_t>(graph.tensorCount()));
    for (TensorId t = 0; t < graph.tensorCount(); ++t) m_producer[static_cast<size_t>(t)] = graph.tensor(t).producer;
    for (OpId v = 0; v < graph.opCount(); ++v) {
        m_params[static_cast<size_t>(v)] = graph.op(v).paramBytes;
        m_outputBytes[static_cast<size_t>(v)] = graph.outputBytes(v);
    }
    m_consumerCount.assign(static_cast<size_t>(graph.tensorCount()), 0);
    for (OpId v = 0; v < graph.opCount(); ++v)
        for (TensorId t : graph.inputs(v)) ++m_consumerCount[static_cast<size_t>(t)];
    m_deadOutputBytes.assign(static_cast<size_t>(graph.opCount()), 0.0);
    for (TensorId t = 0; t < graph.tensorCount(); ++t)
        if (m_consumerCount[static_cast<size_t>(t)] == 0)
            m_deadOutputBytes[static_cast<size_t>(m_producer[static_cast<size_t>(t)])] += m_bytes[static_cast<size_t>(t)];
    m_remaining.resize(static_cast<size_t>(graph.tensorCount()) * static_cast<size_t>(m_devices));
    m_live.assign(static_cast<size_t>(m_devices), 0.0);
    m_peak.assign(static_cast<size_t>(m_devices), 0.0);
}

void StepMemory::reset() {
    std::copy(m_consumerCount.begin(), m_consumerCount.end(), m_remaining.begin());
    m_live[0] = 0;
    m_peak[0] = 0;
}

double StepMemory::step(OpId v) {
    const double params = m_params[static_cast<size_t>(v)];
    double& live = m_live[0];
    live += m_outputBytes[static_cast<size_t>(v)] + params;
    const double now = live;
    m_peak[0] = std::max(m_peak[0], now);
    // Which input is freed here depends on the order: select the bytes rather than branch (a
    // branch on the last consumer mispredicts about once per tensor).
    double freed = params + (keepOutputs ? 0.0 : m_deadOutputBytes[static_cast<size_t>(v)]);
    for (TensorId t : m_graph.inputs(v)) {
        const auto st = static_cast<size_t>(t);
        freed += m_bytes[st] * static_cast<double>(--m_remaining[st] == 0);
    }
    live -= freed;
    return now;
}

double StepMemory::peak(std::span<const OpId> order) {
    reset();
    for (OpId v : order) step(v);
    return m_peak[0];
}

double StepMemory::peak(std::span<const int> placement, std::span<const int> sequence,
                        std::span<const TransferStep> transfers, std::vector<double>* devicePeaks) {
    const auto D = static_cast<size_t>(m_devices);
    const int n = m_graph.opCount();
    std::fill(m_remaining.begin(), m_remaining.end(), 0);
    for (OpId v = 0; v < n; ++v) {
        const auto q = static_cast<size_t>(placement[static_cast<size_t>(v)]);
        for (TensorId t : m_graph.inputs(v)) ++m_remaining[static_cast<size_t>(t) * D + q];
    }
    for (const TransferStep& x : transfers) {
        const auto src = static_cast<size_t>(placement[static_cast<size_t>(m_producer[static_cast<size_t>(x.tensor)])]);
        ++m_remaining[static_cast<size_t>(x.tensor) * D + src];
    }
    std::fill(m_live.begin(), m_live.end(), 0.0);
    std::fill(m_peak.begin(), m_peak.end(), 0.0);
    for (int e : sequence) {
        if (e < n) {
            const OpId v = e;
            const auto q = static_cast<size_t>(placement[static_cast<size_t>(v)]);
            const double params = m_params[static_cast<size_t>(v)];
            double& live = m_live[q];
            live += m_outputBytes[static_cast<size_t>(v)] + params;
            m_peak[q] = std::max(m_peak[q], live);
            double freed = params;   // branch-free, as in step()
            for (TensorId t : m_graph.inputs(v)) {
                const auto st = static_cast<size_t>(t);
                freed += m_bytes[st] * static_cast<double>(--m_remaining[st * D + q] == 0);
            }
            if (!keepOutputs)
                for (TensorId t : m_graph.outputs(v))
                    freed += m_bytes[static_cast<size_t>(t)] * static_cast<double>(m_remaining[static_cast<size_t>(t) * D + q] == 0);
            live -= freed;
        } else {
            const TransferStep& x = transfers[static_cast<size_t>(e - n)];
            const double bytes = m_bytes[static_cast<size_t>(x.tensor)];
            const auto q = static_cast<size_t>(x.device);
            const auto src = static_cast<size_t>(placement[static_cast<size_t>(m_producer[static_cast<size_t>(x.tensor)])]);
            m_live[q] += bytes;
            m_peak[q] = std::max(m_peak[q], m_live[q]);
            m_live[src] -= bytes * static_cast<double>(--m_remaining[static_cast<size_t>(x.tensor) * D + src] == 0);
        }
    }
    if (devicePeaks) devicePeaks->assign(m_peak.begin(), m_peak.end());
    return *std::max_element(m_peak.begin(), m_peak.end());
}

double StepMemory::peakOfOrder(std::span<const int> placement, std::span<const OpId> order,
                               std::vector<double>* devicePeaks) {
    if (m_devices == 1) {   // no transfers: the single-device walk, the same sums in the same order
        reset();
        for (OpId v : order) step(v);
        if (devicePeaks) devicePeaks->assign(1, m_peak[0]);
        return m_peak[0];
    }
    // One walk, no step sequence built: each transfer is taken just before the first consumer on
    // its destination, as insertTransfers() places it, so the sums are those of peak().
    const auto D = static_cast<size_t>(m_devices);
    if (m_stamp.empty()) m_stamp.assign(m_bytes.size() * D, 0);
    if (++m_epoch == 0) {   // wrapped: clear the stamps once
        std::fill(m_stamp.begin(), m_stamp.end(), 0);
        m_epoch = 1;
    }
    countHolders(placement);
    std::fill(m_live.begin(), m_live.end(), 0.0);
    std::fill(m_peak.begin(), m_peak.end(), 0.0);
    for (OpId v : order) {
        const auto q = static_cast<size_t>(placement[static_cast<size_t>(v)]);
        const auto inputs = m_graph.inputs(v);
        for (TensorId t : inputs) {
            const auto st = static_cast<size_t>(t);
            const auto src = static_cast<size_t>(placement[static_cast<size_t>(m_producer[st])]);
            // Whether a transfer happens here is a coin flip under random placements: compute it
            // without branching (adding zero bytes changes nothing, exactly).
            unsigned& stamp = m_stamp[st * D + q];
            const bool transfer = (src != q) & (stamp != m_epoch);
            stamp = m_epoch;
            const double bytes = m_bytes[st] * static_cast<double>(transfer);
            m_live[q] += bytes;
            m_peak[q] = std::max(m_peak[q], m_live[q]);
            int& sourceHolders = m_remaining[st * D + src];
            sourceHolders -= transfer;
            m_live[src] -= bytes * static_cast<double>(sourceHolders == 0);
        }
        const double params = m_params[static_cast<size_t>(v)];
        double& live = m_live[q];
        live += m_outputBytes[static_cast<size_t>(v)] + params;
        m_peak[q] = std::max(m_peak[q], live);
        double freed = params;
        for (TensorId t : inputs) {
            const auto st = static_cast<size_t>(t);
            freed += m_bytes[st] * static_cast<double>(--m_remaining[st * D + q] == 0);
        }
        if (!keepOutputs)
            for (TensorId t : m_graph.outputs(v))
                freed += m_bytes[static_cast<size_t>(t)] * static_cast<double>(m_remaining[static_cast<size_t>(t) * D + q] == 0);
        live -= freed;
    }
    if (devicePeaks) devicePeaks->assign(m_peak.begin(), m_peak.end());
    return *std::max_element(m_peak.begin(), m_peak.end());
}

/// Holders of every (tensor, device) under `placement`: its consumers there, plus, on the
/// producer's device, one per device the tensor is transferred to.
void StepMemory::countHolders(std::span<const int> placement) {
    const auto D = static_cast<size_t>(m_devices);
    std::fill(m_remaining.begin(), m_remaining.end(), 0);
    for (OpId v = 0; v < m_graph.opCount(); ++v) {
        const auto q = static_cast<size_t>(placement[static_cast<size_t>(v)]);
        for (TensorId t : m_graph.inputs(v)) ++m_remaining[static_cast<size_t>(t) * D + q];
    }
    for (size_t t = 0; t < m_bytes.size(); ++t) {
        int* holders = m_remaining.data() + t * D;
        const auto src = static_cast<size_t>(placement[static_cast<size_t>(m_producer[t])]);
        int transfers = 0;
        for (size_t q = 0; q < D; ++q) transfers += q != src && holders[q] > 0;
        holders[src] += transfers;
    }
}

void insertTransfers(const Graph& g, std::span<const int> placement, std::span<const OpId> order,
                     std::vector<int>& sequence, std::vector<TransferStep>& transfers) {
    int devices = 1;
    for (int d : placement) devices = std::max(devices, d + 1);
    const auto D = static_cast<size_t>(devices);
    std::vector<char> done(static_cast<size_t>(g.tensorCount()) * D, 0);
    sequence.clear();
    transfers.clear();
    for (OpId v : order) {
        const int q = placement[static_cast<size_t>(v)];
        for (TensorId t : g.inputs(v)) {
            const int src = placement[static_cast<size_t>(g.tensor(t).producer)];
            char& flag = done[static_cast<size_t>(t) * D + static_cast<size_t>(q)];
            if (src == q || flag) continue;
            flag = 1;
            sequence.push_back(g.opCount() + static_cast<int>(transfers.size()));
            transfers.push_back({t, q});
        }
        sequence.push_back(v);
    }
}

} // namespace sl
