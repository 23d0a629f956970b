// SPDX-License-Identifier: MIT
#include "core/costmodel/timememory.h"

#include <algorithm>
#include <numeric>

namespace sl {

namespace {

struct LaterFirst {
    template <typename R>
    bool operator()(const R& a, const R& b) const { return a.time > b.time; }   // min-heap
};

} // namespace

TimeMemory::TimeMemory(const Problem& problem)
    : m_problem(problem), m_graph(problem.g()), m_devices(std::max(problem.platform.deviceCount(), 1)) {
    const Graph& g = m_graph;
    const auto D = static_cast<size_t>(m_devices);
    m_bytes.resize(static_cast<size_t>(g.tensorCount()));
    for (TensorId t = 0; t < g.tensorCount(); ++t) m_bytes[static_cast<size_t>(t)] = g.tensor(t).bytes;
    m_params.resize(static_cast<size_t>(g.opCount()));
    m_outputBytes.resize(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) {
        m_params[static_cast<size_t>(v)] = g.op(v).paramBytes;
        m_outputBytes[static_cast<size_t>(v)] = g.outputBytes(v);
    }
    m_transferTimeFree = problem.platform.link.free();
    m_topoPos.resize(static_cast<size_t>(g.opCount()));
    const auto& topo = g.topologicalOrder();
    for (size_t k = 0; k < topo.size(); ++k) m_topoPos[static_cast<size_t>(topo[k])] = static_cast<int>(k);
    m_holders.resize(static_cast<size_t>(g.tensorCount()) * D);
    m_live.assign(D, 0.0);
    m_peak.assign(D, 0.0);
    m_zeroLength.assign(D, 0.0);
    m_isTouched.assign(D, 0);
    m_touched.reserve(D);
}

void TimeMemory::countHolders(std::span<const int> devices) {
    const auto D = static_cast<size_t>(m_devices);
    std::fill(m_holders.begin(), m_holders.end(), 0);
    for (OpId v = 0; v < m_graph.opCount(); ++v)
        for (TensorId t : m_graph.inputs(v))
            ++m_holders[static_cast<size_t>(t) * D + static_cast<size_t>(devices[static_cast<size_t>(v)])];
    for (TensorId t = 0; t < m_graph.tensorCount(); ++t) {
        int* h = m_holders.data() + static_cast<size_t>(t) * D;
        const int src = devices[static_cast<size_t>(m_graph.tensor(t).producer)];
        int transfers = 0;
        for (size_t q = 0; q < D; ++q) transfers += static_cast<int>(q) != src && h[q] > 0;
        h[src] += 1 + transfers;   // the producer until it ends, each outgoing transfer until it ends
    }
}

void TimeMemory::allocate(int d, double bytes) {
    m_live[static_cast<size_t>(d)] += bytes;
    if (!m_isTouched[static_cast<size_t>(d)]) {
        m_isTouched[static_cast<size_t>(d)] = 1;
        m_touched.push_back(d);
    }
}

void TimeMemory::release(TensorId tensor, int d, double now, double allocatedAt) {
    const auto D = static_cast<size_t>(m_devices);
    if (--m_holders[static_cast<size_t>(tensor) * D + static_cast<size_t>(d)] != 0) return;
    freeBytes(d, m_bytes[static_cast<size_t>(tensor)], allocatedAt, now);
}

void TimeMemory::freeBytes(int d, double bytes, double allocatedAt, double now) {
    allocate(d, 0);   // marks the device for closeInstant()
    // Released memory is reusable at once, but a zero-length residency counts at its instant.
    if (allocatedAt < now) m_live[static_cast<size_t>(d)] -= bytes;
    else m_zeroLength[static_cast<size_t>(d)] += bytes;
}

void TimeMemory::closeInstant() {
    for (int d : m_touched) {
        const auto sd = static_cast<size_t>(d);
        m_peak[sd] = std::max(m_peak[sd], m_live[sd]);
        m_live[sd] -= m_zeroLength[sd];
        m_zeroLength[sd] = 0;
        m_isTouched[sd] = 0;
    }
    m_touched.clear();
}

double TimeMemory::peak(std::span<const double> starts, std::span<const double> ends, std::span<const int> devices,
                        std::span<const OpId> byStart, std::span<const OpId> byEnd, std::vector<double>* devicePeaks) {
    const Graph& g = m_graph;
    const size_t n = static_cast<size_t>(g.opCount());
    countHolders(devices);
    std::fill(m_live.begin(), m_live.end(), 0.0);
    std::fill(m_peak.begin(), m_peak.end(), 0.0);
    m_releases.clear();
    const Interconnect& link = m_problem.platform.link;
    auto allocatedAt = [&](TensorId t, int d) {
        const auto p = static_cast<size_t>(g.tensor(t).producer);
        return devices[p] == d ? starts[p] : ends[p];
    };
    auto endOp = [&](OpId v, double now) {
        const auto sv = static_cast<size_t>(v);
        const int d = devices[sv];
        if (m_params[sv] > 0) freeBytes(d, m_params[sv], starts[sv], now);
        for (TensorId t : g.inputs(v)) release(t, d, now, allocatedAt(t, d));
        for (TensorId t : g.outputs(v)) {
            const int* h = m_holders.data() + static_cast<size_t>(t) * static_cast<size_t>(m_devices);
            for (int q = 0; q < m_devices; ++q) {
                if (q == d || h[q] == 0) continue;
                allocate(q, m_bytes[static_cast<size_t>(t)]);   // the transfer starts as the producer ends
                if (m_transferTimeFree) release(t, d, now, starts[sv]);
                else {
                    m_releases.push_back({now + link.transferTime(m_bytes[static_cast<size_t>(t)]), t});
                    std::push_heap(m_releases.begin(), m_releases.end(), LaterFirst{});
                }
            }
            release(t, d, now, starts[sv]);
        }
    };
    size_t i = 0, j = 0;
    while (i < n || j < n || !m_releases.empty()) {
        double now = kInfinity;
        if (i < n) now = starts[static_cast<size_t>(byStart[i])];
        if (j < n) now = std::min(now, ends[static_cast<size_t>(byEnd[j])]);
        if (!m_releases.empty()) now = std::min(now, m_releases.front().time);
        for (; j < n && ends[static_cast<size_t>(byEnd[j])] == now; ++j) endOp(byEnd[j], now);
        while (!m_releases.empty() && m_releases.front().time == now) {
            std::pop_heap(m_releases.begin(), m_releases.end(), LaterFirst{});
            const TensorId t = m_releases.back().tensor;
            m_releases.pop_back();
            const auto p = static_cast<size_t>(g.tensor(t).producer);
            release(t, devices[p], now, starts[p]);
        }
        for (; i < n && starts[static_cast<size_t>(byStart[i])] == now; ++i) {
            const auto sv = static_cast<size_t>(byStart[i]);
            allocate(devices[sv], m_outputBytes[sv] + m_params[sv]);
        }
        closeInstant();
    }
    if (devicePeaks) devicePeaks->assign(m_peak.begin(), m_peak.end());
    return *std::max_element(m_peak.begin(), m_peak.end());
}

double TimeMemory::peak(const Schedule& s, std::vector<double>* devicePeaks) {
    const size_t n = static_cast<size_t>(m_graph.opCount());
    std::vector<double> starts(n), ends(n);
    std::vector<int> devices(n);
    for (size_t v = 0; v < n; ++v) {
        starts[v] = s.ops[v].start;
        ends[v] = s.ops[v].end;
        devices[v] = s.ops[v].device;
    }
    const std::vector<int>& topoPos = m_topoPos;
    m_sortStart.resize(n);
    m_sortEnd.resize(n);
    std::iota(m_sortStart.begin(), m_sortStart.end(), 0);
    std::iota(m_sortEnd.begin(), m_sortEnd.end(), 0);
    std::sort(m_sortStart.begin(), m_sortStart.end(), [&](OpId a, OpId b) {
        return starts[static_cast<size_t>(a)] != starts[static_cast<size_t>(b)] ? starts[static_cast<size_t>(a)] < starts[static_cast<size_t>(b)]
                                                                              : topoPos[static_cast<size_t>(a)] < topoPos[static_cast<size_t>(b)];
    });
    // At equal ends a producer must come before its consumers (zero-duration consumers).
    std::sort(m_sortEnd.begin(), m_sortEnd.end(), [&](OpId a, OpId b) {
        const auto sa = static_cast<size_t>(a), sb = static_cast<size_t>(b);
        if (ends[sa] != ends[sb]) return ends[sa] < ends[sb];
        if (starts[sa] != starts[sb]) return starts[sa] < starts[sb];
        return topoPos[sa] < topoPos[sb];
    });
    return peak(starts, ends, devices, m_sortStart, m_sortEnd, devicePeaks);
}

} // namespace sl
