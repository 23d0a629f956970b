// SPDX-License-Identifier: MIT
#include "core/costmodel/timememory.h"

#include <algorithm>
#include <numeric>

namespace sl {

TimeMemory::TimeMemory(const Problem& problem)
    : m_problem(problem), m_graph(problem.g()), m_devices(std::max(problem.platform.deviceCount(), 1)) {
    const Graph& g = m_graph;
    const auto D = static_cast<size_t>(m_devices);
    const auto n = static_cast<size_t>(g.opCount()), T = static_cast<size_t>(g.tensorCount());
    m_bytes.resize(T);
    m_producer.resize(T);
    for (TensorId t = 0; t < g.tensorCount(); ++t) {
        m_bytes[static_cast<size_t>(t)] = g.tensor(t).bytes;
        m_producer[static_cast<size_t>(t)] = g.tensor(t).producer;
    }
    m_params.resize(n);
    m_outputBytes.resize(n);
    for (OpId v = 0; v < g.opCount(); ++v) {
        m_params[static_cast<size_t>(v)] = g.op(v).paramBytes;
        m_outputBytes[static_cast<size_t>(v)] = g.outputBytes(v);
    }
    m_transferTimeFree = problem.platform.link.free();
    m_topoPos.resize(n);
    const auto& topo = g.topologicalOrder();
    for (size_t k = 0; k < topo.size(); ++k) m_topoPos[static_cast<size_t>(topo[k])] = static_cast<int>(k);
    m_lastOp.resize(T * D);
    m_endAlloc.resize(n * D);
    m_endFree.resize(n * D);
    m_endFreeLate.resize(n * D);
    m_live.assign(D, 0.0);
    m_late.assign(D, 0.0);
    m_peak.assign(D, 0.0);
}

/// For each (tensor, device): the consumer there that ends last (kNoOp: none). Walking the ops
/// by end time, the last writer is that consumer: no comparison per edge.
void TimeMemory::findReleasingOps(std::span<const int> devices, std::span<const OpId> byEnd) {
    const auto D = static_cast<size_t>(m_devices);
    std::fill(m_lastOp.begin(), m_lastOp.end(), kNoOp);
    for (OpId v : byEnd) {
        const auto q = static_cast<size_t>(devices[static_cast<size_t>(v)]);
        for (TensorId t : m_graph.inputs(v)) m_lastOp[static_cast<size_t>(t) * D + q] = v;
    }
}

/// Sums, per (op, device), what happens at the op's end: its parameters and every residency whose
/// last holder it is are released (after the instant's peak if the residency has zero length),
/// and its outputs' copies on other devices are allocated. Residencies that outlast every holder
/// op (a transfer still in flight) go to m_arrivals instead.
void TimeMemory::sumEndEvents(std::span<const double> starts, std::span<const double> ends, std::span<const int> devices) {
    const auto D = static_cast<size_t>(m_devices);
    std::fill(m_endAlloc.begin(), m_endAlloc.end(), 0.0);
    std::fill(m_endFree.begin(), m_endFree.end(), 0.0);
    std::fill(m_endFreeLate.begin(), m_endFreeLate.end(), 0.0);
    m_arrivals.clear();
    auto release = [&](OpId holder, size_t device, double bytes, bool zeroLength) {
        const size_t k = static_cast<size_t>(holder) * D + device;
        (zeroLength ? m_endFreeLate[k] : m_endFree[k]) += bytes;
    };
    for (OpId v = 0; v < m_graph.opCount(); ++v) {
        const auto sv = static_cast<size_t>(v);
        release(v, static_cast<size_t>(devices[sv]), m_params[sv], starts[sv] == ends[sv]);
    }
    const Interconnect& link = m_problem.platform.link;
    for (size_t t = 0; t < m_bytes.size(); ++t) {
        const OpId p = m_producer[t];
        const auto sp = static_cast<size_t>(p);
        const auto src = static_cast<size_t>(devices[sp]);
        const double bytes = m_bytes[t];
        double home = ends[sp];   // the source copy lives until the producer, its local consumers
        OpId homeOp = p;          // and its outgoing transfers have all ended
        double arrival = -1;
        for (size_t q = 0; q < D; ++q) {
            const OpId lastOp = m_lastOp[t * D + q];
            if (lastOp == kNoOp) continue;
            const double last = ends[static_cast<size_t>(lastOp)];
            if (q == src) {
                if (last >= home) {
                    home = last;
                    homeOp = lastOp;
                }
                continue;
            }
            m_endAlloc[sp * D + q] += bytes;   // the copy is sent as the producer ends
            release(lastOp, q, bytes, last == ends[sp]);
            if (!m_transferTimeFree) arrival = std::max(arrival, ends[sp] + link.transferTime(bytes));
        }
        if (arrival > home) m_arrivals.push_back({arrival, static_cast<int>(src), bytes});   // never of zero length: arrival > end
        else release(homeOp, src, bytes, home == starts[sp]);
    }
    if (!m_arrivals.empty())
        std::sort(m_arrivals.begin(), m_arrivals.end(), [](const Arrival& a, const Arrival& b) { return a.time < b.time; });
}

/// Applies the events instant by instant: at each instant everything that ends, arrives or starts
/// then, the device peaks, then the zero-length residencies of that instant are dropped.
double TimeMemory::sweep(std::span<const double> starts, std::span<const double> ends, std::span<const int> devices,
                         std::span<const OpId> byStart, std::span<const OpId> byEnd) {
    const auto D = static_cast<size_t>(m_devices);
    const size_t n = byStart.size(), arrivals = m_arrivals.size();
    std::fill(m_live.begin(), m_live.end(), 0.0);
    std::fill(m_late.begin(), m_late.end(), 0.0);
    std::fill(m_peak.begin(), m_peak.end(), 0.0);
    size_t i = 0, j = 0, k = 0;
    while (i < n || j < n || k < arrivals) {
        double now = kInfinity;
        if (i < n) now = starts[static_cast<size_t>(byStart[i])];
        if (j < n) now = std::min(now, ends[static_cast<size_t>(byEnd[j])]);
        if (k < arrivals) now = std::min(now, m_arrivals[k].time);
        for (; j < n && ends[static_cast<size_t>(byEnd[j])] == now; ++j) {
            const size_t base = static_cast<size_t>(byEnd[j]) * D;
            for (size_t q = 0; q < D; ++q) {
                m_live[q] += m_endAlloc[base + q] - m_endFree[base + q];
                m_late[q] += m_endFreeLate[base + q];
            }
        }
        for (; k < arrivals && m_arrivals[k].time == now; ++k) m_live[static_cast<size_t>(m_arrivals[k].device)] -= m_arrivals[k].bytes;
        for (; i < n && starts[static_cast<size_t>(byStart[i])] == now; ++i) {
            const auto sv = static_cast<size_t>(byStart[i]);
            m_live[static_cast<size_t>(devices[sv])] += m_outputBytes[sv] + m_params[sv];
        }
        for (size_t q = 0; q < D; ++q) {
            m_peak[q] = std::max(m_peak[q], m_live[q]);
            m_live[q] -= m_late[q];
            m_late[q] = 0;
        }
    }
    return *std::max_element(m_peak.begin(), m_peak.end());
}

double TimeMemory::peak(std::span<const double> starts, std::span<const double> ends, std::span<const int> devices,
                        std::span<const OpId> byStart, std::span<const OpId> byEnd, std::vector<double>* devicePeaks) {
    findReleasingOps(devices, byEnd);
    sumEndEvents(starts, ends, devices);
    const double peak = sweep(starts, ends, devices, byStart, byEnd);
    if (devicePeaks) devicePeaks->assign(m_peak.begin(), m_peak.end());
    return peak;
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
