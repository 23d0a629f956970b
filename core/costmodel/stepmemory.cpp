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
    if (m_devices > 1) {   // peakOfOrder's workspace
        const auto n = static_cast<size_t>(graph.opCount()), D = static_cast<size_t>(m_devices);
        m_position.resize(n);
        m_firstConsumer.resize(m_bytes.size() * D);
        m_lastConsumer.resize(m_bytes.size() * D);
        m_transferIn.resize(n);
        m_freeAfter.resize(n);
        m_sourceRelease.resize(n * D);
    }
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
    // No step sequence, no holder counts: find each (tensor, device)'s first and last consumer,
    // turn them into per-op amounts, then walk the order once. Each transfer X(tau, q) sits just
    // before the first consumer of tau on q (as insertTransfers() places it); that consumer's step
    // peaks above every transfer step before it (nothing is freed on q in between), so a transfer
    // is counted in that step; the source copy it holds is released before that step.
    const auto D = static_cast<size_t>(m_devices);
    findConsumers(placement, order);
    std::fill(m_transferIn.begin(), m_transferIn.end(), 0.0);
    std::fill(m_freeAfter.begin(), m_freeAfter.end(), 0.0);
    std::fill(m_sourceRelease.begin(), m_sourceRelease.end(), 0.0);
    for (size_t t = 0; t < m_bytes.size(); ++t) {
        const OpId producer = m_producer[t];
        const auto src = static_cast<size_t>(placement[static_cast<size_t>(producer)]);
        const double bytes = m_bytes[t];
        OpId lastTransfer = kNoOp;   // the source copy is held until the last transfer out
        for (size_t q = 0; q < D; ++q) {
            const OpId last = m_lastConsumer[t * D + q];
            if (q == src || last == kNoOp) continue;
            const OpId first = m_firstConsumer[t * D + q];
            m_transferIn[static_cast<size_t>(first)] += bytes;
            m_freeAfter[static_cast<size_t>(last)] += bytes;
            if (lastTransfer == kNoOp || m_position[static_cast<size_t>(first)] > m_position[static_cast<size_t>(lastTransfer)])
                lastTransfer = first;
        }
        const OpId local = m_lastConsumer[t * D + src];
        if (local != kNoOp && (lastTransfer == kNoOp || m_position[static_cast<size_t>(local)] > m_position[static_cast<size_t>(lastTransfer)]))
            m_freeAfter[static_cast<size_t>(local)] += bytes;
        else if (lastTransfer != kNoOp)
            m_sourceRelease[static_cast<size_t>(lastTransfer) * D + src] += bytes;
        else if (!keepOutputs)
            m_freeAfter[static_cast<size_t>(producer)] += bytes;   // nobody reads it
    }
    std::fill(m_live.begin(), m_live.end(), 0.0);
    std::fill(m_peak.begin(), m_peak.end(), 0.0);
    for (OpId v : order) {
        const auto sv = static_cast<size_t>(v);
        const auto q = static_cast<size_t>(placement[sv]);
        for (size_t d = 0; d < D; ++d) m_live[d] -= m_sourceRelease[sv * D + d];
        m_live[q] += m_transferIn[sv] + m_outputBytes[sv] + m_params[sv];
        m_peak[q] = std::max(m_peak[q], m_live[q]);
        m_live[q] -= m_params[sv] + m_freeAfter[sv];
    }
    if (devicePeaks) devicePeaks->assign(m_peak.begin(), m_peak.end());
    return *std::max_element(m_peak.begin(), m_peak.end());
}

/// Position of every op in `order`, and for each (tensor, device) its first and last consumer
/// there in that order (kNoOp: none). Last writer wins, so no comparison per edge.
void StepMemory::findConsumers(std::span<const int> placement, std::span<const OpId> order) {
    const auto D = static_cast<size_t>(m_devices);
    std::fill(m_lastConsumer.begin(), m_lastConsumer.end(), kNoOp);
    for (size_t i = 0; i < order.size(); ++i) {
        const OpId v = order[i];
        const auto q = static_cast<size_t>(placement[static_cast<size_t>(v)]);
        m_position[static_cast<size_t>(v)] = static_cast<int>(i);
        for (TensorId t : m_graph.inputs(v)) m_lastConsumer[static_cast<size_t>(t) * D + q] = v;
    }
    for (size_t i = order.size(); i-- > 0;) {
        const OpId v = order[i];
        const auto q = static_cast<size_t>(placement[static_cast<size_t>(v)]);
        for (TensorId t : m_graph.inputs(v)) m_firstConsumer[static_cast<size_t>(t) * D + q] = v;
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
