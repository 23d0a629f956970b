// SPDX-License-Identifier: MIT
#include "core/costmodel/stepmemory.h"

#include "core/costmodel/inputedges.h"

#include <algorithm>
#include <bit>
#include <tuple>
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
    m_remaining.resize(static_cast<size_t>(graph.tensorCount()));
    m_live.assign(static_cast<size_t>(m_devices), 0.0);
    m_peak.assign(static_cast<size_t>(m_devices), 0.0);
    m_stride = std::bit_ceil(static_cast<size_t>(m_devices));
    m_laneBits = std::countr_zero(m_stride);
    InputEdges edges = inputEdgesInRounds(graph, m_laneBits);   // the per-edge passes' order
    m_edgeSlot = std::move(edges.slot);
    m_edgeOp = std::move(edges.op);
    const auto n = static_cast<size_t>(graph.opCount());
    m_stepLane.resize(n);
    m_consumerSteps.resize(2 * (m_bytes.size() << m_laneBits));
    m_lastCopyOut.resize(m_bytes.size());
    resizeSteps(n, n);
    m_live.reserve(m_stride);   // walkSteps() uses one lane per stride entry
    m_peak.reserve(m_stride);
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
    // As peakOfOrder, with each transfer a step of its own: the copy is allocated at the
    // transfer's step and released after the last consumer on its device; the source copy after its
    // last local consumer or its last transfer out.
    const size_t D = static_cast<size_t>(m_devices), W = m_stride, S = sequence.size();
    const int n = m_graph.opCount();
    resizeSteps(S, static_cast<size_t>(n) + transfers.size());
    const TransferStep none{};
    for (size_t i = 0; i < S; ++i) {   // selects, not branches: ops and transfers interleave at random
        const int e = sequence[i];
        const bool isOp = e < n;
        const TransferStep& x = isOp || transfers.empty() ? none : transfers[static_cast<size_t>(e - n)];
        const auto v = static_cast<size_t>(isOp ? e : 0);
        const double params = isOp ? m_params[v] : 0.0;
        m_nodeStep[static_cast<size_t>(e)] = static_cast<int>(i);
        m_entryLane[i] = isOp ? placement[v] : x.device;
        m_entryParams[i] = params;
        m_entryAlloc[i] = isOp ? m_outputBytes[v] + params : m_bytes[static_cast<size_t>(x.tensor)];
    }
    packStepLanes(placement);
    findConsumerSteps(static_cast<int>(S));
    std::fill(m_lastCopyOut.begin(), m_lastCopyOut.end(), -1);
    for (size_t k = 0; k < transfers.size(); ++k) {
        int& last = m_lastCopyOut[static_cast<size_t>(transfers[k].tensor)];
        last = std::max(last, m_nodeStep[static_cast<size_t>(n) + k]);
    }
    std::fill(m_freeAt.begin(), m_freeAt.begin() + static_cast<std::ptrdiff_t>(S * W), 0.0);
    const int* steps = m_consumerSteps.data();
    double* freeAt = m_freeAt.data();
    for (size_t t = 0; t < m_bytes.size(); ++t) {
        const auto producer = static_cast<size_t>(m_producer[t]);
        const auto src = static_cast<size_t>(placement[producer]);
        const int producerStep = m_nodeStep[producer];
        const double bytes = m_bytes[t];
        for (size_t k = 1; k < D; ++k) {   // copies: released after their last consumer
            const size_t q = src + k - (src + k >= D ? D : 0);
            const int last = steps[2 * (t * W + q) + 1];
            const int read = static_cast<int>(last >= 0);
            freeAt[static_cast<size_t>(producerStep ^ ((producerStep ^ last) & -read)) * W + q] += bytes * read;
        }
        release(t, src, std::max(steps[2 * (t * W + src) + 1], m_lastCopyOut[t]), producerStep);
    }
    walkSteps(S);
    if (devicePeaks) devicePeaks->assign(m_peak.begin(), m_peak.end());
    return *std::max_element(m_peak.begin(), m_peak.end());
}

double StepMemory::peakOfOrder(std::span<const int> placement, std::span<const OpId> order,
                               std::vector<double>* devicePeaks) {
    // No counters, no step sequence: the first and last consumer step of each (tensor, device)
    // come from one flat pass over the edges; each tensor then becomes per-step amounts (its copies
    // allocated, its residencies released); one walk over the order applies them. Choices are
    // selects, not branches: an amount that does not apply adds 0 to its producer's step (a fixed
    // dummy slot would chain every update through one memory location).
    const size_t D = static_cast<size_t>(m_devices), W = m_stride, S = order.size();
    resizeSteps(S, S);
    for (size_t i = 0; i < S; ++i) {
        const auto v = static_cast<size_t>(order[i]);
        m_nodeStep[v] = static_cast<int>(i);
        m_entryLane[i] = D == 1 ? 0 : placement[v];
        m_entryParams[i] = m_params[v];
        m_entryAlloc[i] = m_outputBytes[v] + m_params[v];
    }
    packStepLanes(placement);
    findConsumerSteps(static_cast<int>(S));
    std::fill(m_freeAt.begin(), m_freeAt.begin() + static_cast<std::ptrdiff_t>(S * W), 0.0);
    const int* steps = m_consumerSteps.data();   // (first, last) per (tensor, device lane)
    double* alloc = m_entryAlloc.data();
    double* freeAt = m_freeAt.data();
    for (size_t t = 0; t < m_bytes.size(); ++t) {
        const auto producer = static_cast<size_t>(m_producer[t]);
        const size_t src = D == 1 ? 0 : static_cast<size_t>(placement[producer]);
        const int producerStep = m_nodeStep[producer];
        const double bytes = m_bytes[t];
        // A copy X(t, q) sits just before the first consumer on q (as insertTransfers() places it)
        // and is counted in that consumer's step, which peaks above it (nothing is freed on q in
        // between). The source copy is held until the last copy out is made.
        int lastCopy = -1;
        for (size_t k = 1; k < D; ++k) {   // the other devices, src + 1, src + 2, ... (mod D)
            const size_t q = src + k - (src + k >= D ? D : 0);
            const int first = steps[2 * (t * W + q)], last = steps[2 * (t * W + q) + 1];
            // Integer masks, not ?: (which compiles to branches that mispredict on random placements).
            const int copy = static_cast<int>(last >= 0);
            const int mask = -copy;
            alloc[static_cast<size_t>(producerStep ^ ((producerStep ^ first) & mask))] += bytes * copy;
            freeAt[static_cast<size_t>(producerStep ^ ((producerStep ^ last) & mask)) * W + q] += bytes * copy;
            lastCopy = std::max(lastCopy, (first & mask) | ~mask);
        }
        // Released on the source after its last local consumer or its last copy out, whichever
        // comes later (a release on src at another device's step does not change src's peaks).
        release(t, src, std::max(steps[2 * (t * W + src) + 1], lastCopy), producerStep);
    }
    walkSteps(S);
    if (devicePeaks) devicePeaks->assign(m_peak.begin(), m_peak.end());
    return *std::max_element(m_peak.begin(), m_peak.end());
}

/// Tensor t's copy on its source device goes after step `latest` (its last holder), or, when
/// nobody reads it (latest < 0), after its producer's step unless outputs are kept.
inline void StepMemory::release(size_t t, size_t src, int latest, int producerStep) {
    const int unread = latest >> 31;   // -1 when nobody reads it
    const int step = (latest & ~unread) | (producerStep & unread);
    m_freeAt[static_cast<size_t>(step) * m_stride + src] += keepOutputs && unread ? 0.0 : m_bytes[t];
}

/// Grows the per-step workspace to `steps` entries and the per-node steps to `nodes`.
void StepMemory::resizeSteps(size_t steps, size_t nodes) {
    if (m_entryLane.size() < steps) {
        m_entryLane.resize(steps);
        m_entryAlloc.resize(steps);
        m_entryParams.resize(steps);
        m_freeAt.resize(steps * m_stride);
    }
    if (m_nodeStep.size() < nodes) m_nodeStep.resize(nodes);
}

/// Every op's step and device in one word, for the edge pass.
void StepMemory::packStepLanes(std::span<const int> placement) {
    const bool oneDevice = m_devices == 1;
    for (size_t v = 0; v < m_stepLane.size(); ++v)
        m_stepLane[v] = (static_cast<std::int64_t>(m_nodeStep[v]) << m_laneBits) | (oneDevice ? 0 : placement[v]);
}

namespace {

/// The walk for `W` device lanes (W a compile-time width, so the live and peak values stay in
/// registers). Only the stepping device allocates, so taking every lane's max is the same as
/// taking the stepping one's: between its own steps a device's memory only falls. The live value
/// advances by one add per step (allocation minus release, computed off that chain).
template <size_t W>
void walkLanes(size_t steps, const int* lane, const double* alloc, const double* params, const double* freeAt,
               double* liveOut, double* peakOut) {
    double live[W] = {}, peak[W] = {};
    for (size_t i = 0; i < steps; ++i) {
        const size_t q = W == 1 ? 0 : static_cast<size_t>(lane[i]);
        for (size_t d = 0; d < W; ++d) {
            const double in = d == q ? alloc[i] : 0.0;
            const double out = (d == q ? params[i] : 0.0) + freeAt[i * W + d];
            peak[d] = std::max(peak[d], live[d] + in);
            live[d] += in - out;
        }
    }
    std::copy(live, live + W, liveOut);
    std::copy(peak, peak + W, peakOut);
}

} // namespace

/// Applies the per-step amounts in order: a step on q allocates (copies in, outputs and
/// parameters, or a transfer's copy), peaks, then drops its parameters and whatever is released
/// after it on each device.
void StepMemory::walkSteps(size_t steps) {
    const size_t D = static_cast<size_t>(m_devices), W = m_stride;
    m_live.resize(W);
    m_peak.resize(W);
    const auto args = std::tuple(steps, m_entryLane.data(), m_entryAlloc.data(), m_entryParams.data(), m_freeAt.data(),
                                 m_live.data(), m_peak.data());
    switch (W) {
    case 1: std::apply(walkLanes<1>, args); break;
    case 2: std::apply(walkLanes<2>, args); break;
    case 4: std::apply(walkLanes<4>, args); break;
    case 8: std::apply(walkLanes<8>, args); break;
    default: {   // many devices: one lane per device, in memory
        std::fill(m_live.begin(), m_live.end(), 0.0);
        std::fill(m_peak.begin(), m_peak.end(), 0.0);
        for (size_t i = 0; i < steps; ++i) {
            const auto q = static_cast<size_t>(m_entryLane[i]);
            m_live[q] += m_entryAlloc[i];
            m_peak[q] = std::max(m_peak[q], m_live[q]);
            m_live[q] -= m_entryParams[i];
            for (size_t d = 0; d < D; ++d) m_live[d] -= m_freeAt[i * W + d];
        }
    }
    }
    m_live.resize(D);
    m_peak.resize(D);
}

/// For each (tensor, device lane): the steps of its first and last consumer there (none: `none`
/// and -1), from one pass over the flat edge list, so no loop's trip count depends on the op.
void StepMemory::findConsumerSteps(int none) {
    const auto laneMask = static_cast<std::int64_t>(m_stride) - 1;
    const std::int64_t* stepLane = m_stepLane.data();
    int* steps = m_consumerSteps.data();
    if (m_devices == 1) {   // one device: no copies, so the first consumers do not matter
        for (size_t s = 1; s < m_consumerSteps.size(); s += 2) steps[s] = -1;
        for (size_t e = 0; e < m_edgeSlot.size(); ++e) {
            int& last = steps[2 * m_edgeSlot[e] + 1];
            last = std::max(last, static_cast<int>(stepLane[m_edgeOp[e]]));
        }
        return;
    }
    for (size_t s = 0; s < m_consumerSteps.size(); s += 2) {
        steps[s] = none;
        steps[s + 1] = -1;
    }
    for (size_t e = 0; e < m_edgeSlot.size(); ++e) {
        const std::int64_t packed = stepLane[m_edgeOp[e]];
        int* slot = steps + 2 * (m_edgeSlot[e] + (packed & laneMask));
        const auto step = static_cast<int>(packed >> m_laneBits);
        slot[0] = std::min(slot[0], step);
        slot[1] = std::max(slot[1], step);
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
