// SPDX-License-Identifier: MIT
#include "core/costmodel/timememory.h"

#include "core/costmodel/inputedges.h"
#include "core/costmodel/sharedlinks.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <numeric>

namespace sl {

TimeMemory::TimeMemory(const Problem& problem)
    : m_problem(problem), m_graph(problem.g()), m_devices(std::max(problem.platform.deviceCount(), 1)) {
    const Graph& g = m_graph;
    const auto n = static_cast<size_t>(g.opCount()), T = static_cast<size_t>(g.tensorCount());
    m_stride = std::bit_ceil(static_cast<size_t>(m_devices));
    m_laneBits = std::countr_zero(m_stride);
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
    m_transferTimeFree = problem.platform.transfersFree();
    m_topoPos.resize(n);
    const auto& topo = g.topologicalOrder();
    for (size_t k = 0; k < topo.size(); ++k) m_topoPos[static_cast<size_t>(topo[k])] = static_cast<int>(k);
    InputEdges edges = inputEdgesInRounds(g, m_laneBits);   // the per-edge passes' order
    m_edgeSlot = std::move(edges.slot);
    m_edgeOp = std::move(edges.op);
    m_endRank.resize(n);
    m_rankLane.resize(n);
    m_lastEnd.resize(T << m_laneBits);
    m_endAlloc.resize(n * m_stride);
    m_endFree.resize(n * m_stride);
    m_endFreeLate.resize(n * m_stride);
    m_startTime.resize(n + 1);
    m_endTime.resize(n + 1);
    m_peak.resize(m_stride);
    m_scratch.resize(3 * m_stride);
}

/// For each (tensor, device lane): the end rank of its consumer there that ends last (-1: none),
/// from one pass over the flat edge list; at equal ends the later one in `byEnd` counts.
void TimeMemory::findReleasingOps(std::span<const double> ends, std::span<const int> devices, std::span<const OpId> byEnd) {
    const bool oneDevice = m_devices == 1;
    for (size_t j = 0; j < byEnd.size(); ++j) {
        const auto v = static_cast<size_t>(byEnd[j]);
        m_endRank[v] = static_cast<int>(j);
        m_endTime[j] = ends[v];
        if (!oneDevice) m_rankLane[v] = (static_cast<std::int64_t>(j) << m_laneBits) | devices[v];
    }
    m_endTime[byEnd.size()] = std::numeric_limits<double>::infinity();
    std::fill(m_lastEnd.begin(), m_lastEnd.end(), -1);
    int* lastEnd = m_lastEnd.data();
    if (oneDevice) {   // the lane is always 0: the rank alone, no packed words (2 of 31 us at 1,000 ops)
        for (size_t e = 0; e < m_edgeSlot.size(); ++e) {
            int& slot = lastEnd[m_edgeSlot[e]];
            slot = std::max(slot, m_endRank[static_cast<size_t>(m_edgeOp[e])]);
        }
        return;
    }
    const auto laneMask = static_cast<std::int64_t>(m_stride) - 1;
    for (size_t e = 0; e < m_edgeSlot.size(); ++e) {
        const std::int64_t packed = m_rankLane[static_cast<size_t>(m_edgeOp[e])];
        int& slot = lastEnd[m_edgeSlot[e] + (packed & laneMask)];
        slot = std::max(slot, static_cast<int>(packed >> m_laneBits));
    }
}

/// Sums, per (end rank, device lane), what happens at that op's end: its parameters and every
/// residency whose last holder it is are released (after the instant's peak if the residency has
/// zero length), and its outputs' copies on other devices are allocated. Residencies that outlast
/// every holder op (a transfer still in flight) go to m_arrivals instead. Choices are integer
/// masks and products, not branches: placements and ties are data, and mispredict.
void TimeMemory::sumEndEvents(std::span<const double> starts, std::span<const double> ends, std::span<const int> devices,
                              std::span<const OpId> byEnd) {
    const size_t D = static_cast<size_t>(m_devices), W = m_stride;
    if (D > 1) std::fill(m_endAlloc.begin(), m_endAlloc.end(), 0.0);   // one device: no copies
    std::fill(m_endFree.begin(), m_endFree.end(), 0.0);
    std::fill(m_endFreeLate.begin(), m_endFreeLate.end(), 0.0);
    m_arrivals.clear();
    double* endFree = m_endFree.data();
    double* endFreeLate = m_endFreeLate.data();
    // `bytes` released on lane q at the end of the op of rank r; `zeroLength`: after the peak
    // (a product, not a ?:, which compiles to a branch on a coin flip).
    auto release = [&](size_t r, size_t q, double bytes, bool zeroLength) {
        const double late = bytes * static_cast<double>(zeroLength);
        endFree[r * W + q] += bytes - late;
        endFreeLate[r * W + q] += late;
    };
    for (size_t j = 0; j < byEnd.size(); ++j) {   // by rank: the writes go in sequence
        const auto v = static_cast<size_t>(byEnd[j]);
        release(j, static_cast<size_t>(devices[v]), m_params[v], starts[v] == ends[v]);
    }
    const double* endTime = m_endTime.data();
    const int* lastEnd = m_lastEnd.data();
    if (D == 1) {   // no copies, no transfers in flight: each tensor goes at its last holder's end
                    // (the general loop below gives the same sums, 2 of 31 us slower at 1,000 ops)
        for (size_t t = 0; t < m_bytes.size(); ++t) {
            const auto p = static_cast<size_t>(m_producer[t]);
            const int home = std::max(m_endRank[p], lastEnd[t]);
            release(static_cast<size_t>(home), 0, m_bytes[t], endTime[home] == starts[p]);
        }
        return;
    }
    const Platform& platform = m_problem.platform;
    for (size_t t = 0; t < m_bytes.size(); ++t) {
        const auto p = static_cast<size_t>(m_producer[t]);
        const auto src = static_cast<size_t>(devices[p]);
        const auto producerRank = m_endRank[p];
        const double bytes = m_bytes[t];
        double arrival = -1;
        for (size_t k = 1; k < D; ++k) {   // the other devices, src + 1, src + 2, ... (mod D)
            const size_t q = src + k - (src + k >= D ? D : 0);
            const int last = lastEnd[(t << m_laneBits) + q];
            const int copy = static_cast<int>(last >= 0);
            const int rank = producerRank ^ ((producerRank ^ last) & -copy);   // producerRank when no copy
            const double amount = bytes * copy;
            m_endAlloc[static_cast<size_t>(producerRank) * W + q] += amount;   // sent as the producer ends
            release(static_cast<size_t>(rank), q, amount, endTime[rank] == ends[p]);
            if (m_useBooked)   // shared links: the schedule's booked arrival, not end + transfer time
                arrival = std::max(arrival, copy ? m_bookedEnd[(t << m_laneBits) + q] : -1.0);
            else if (!m_transferTimeFree)   // tested first: `copy` is a coin flip, the link is fixed
                arrival = std::max(arrival, copy ? ends[p] + platform.transferTime(static_cast<int>(src), static_cast<int>(q), bytes) : -1.0);
        }
        // The source copy lives until the producer, its local consumers and its outgoing transfers
        // have all ended; at equal ends a consumer comes after its producer in byEnd.
        const int home = std::max(producerRank, lastEnd[(t << m_laneBits) + src]);
        const double homeEnd = endTime[home];
        if (arrival > homeEnd) m_arrivals.push_back({arrival, static_cast<int>(src), bytes});   // never of zero length
        else release(static_cast<size_t>(home), src, bytes, homeEnd == starts[p]);
    }
    if (!m_arrivals.empty())
        std::sort(m_arrivals.begin(), m_arrivals.end(), [](const Arrival& a, const Arrival& b) { return a.time < b.time; });
}

namespace {

/// Everything the sweep reads, by event rank.
struct SweepInput {
    std::span<const OpId> byStart;
    std::span<const int> devices;
    const double* startTime;   ///< n + 1 entries, the last +inf
    const double* endTime;     ///< n + 1 entries, the last +inf
    const double* endAlloc;    ///< per (end rank, lane)
    const double* endFree;
    const double* endFreeLate;
    const double* outputBytes;
    const double* params;
    std::span<const TimeMemory::Arrival> arrivals;
};

/// The sweep for `W` device lanes. With W a compile-time width the live, late and peak values stay
/// in registers; W = 0 means a run-time width `lanes` with the values in `scratch`.
template <size_t W>
void sweepLanes(const SweepInput& in, size_t lanes, double* scratch, double* peakOut) {
    constexpr size_t kFixed = W == 0 ? 1 : W;
    const size_t L = W == 0 ? lanes : W;
    double fixed[3 * kFixed] = {};
    double* live = W == 0 ? scratch : fixed;
    double* late = live + L;
    double* peak = late + L;
    std::fill(live, live + 3 * L, 0.0);
    const size_t n = in.byStart.size();
    size_t i = 0, j = 0, k = 0;
    while (i < n || j < n || k < in.arrivals.size()) {
        double now = std::min(in.startTime[i], in.endTime[j]);
        if (k < in.arrivals.size()) now = std::min(now, in.arrivals[k].time);
        for (; in.endTime[j] == now && j < n; ++j)
            for (size_t d = 0; d < L; ++d) {
                live[d] += (W == 1 ? 0.0 : in.endAlloc[j * L + d]) - in.endFree[j * L + d];
                late[d] += in.endFreeLate[j * L + d];
            }
        for (; k < in.arrivals.size() && in.arrivals[k].time == now; ++k)
            live[static_cast<size_t>(in.arrivals[k].device)] -= in.arrivals[k].bytes;
        for (; in.startTime[i] == now && i < n; ++i) {
            const auto v = static_cast<size_t>(in.byStart[i]);
            const auto q = static_cast<size_t>(in.devices[v]);
            const double alloc = in.outputBytes[v] + in.params[v];
            for (size_t d = 0; d < L; ++d) live[d] += d == q ? alloc : 0.0;
        }
        for (size_t d = 0; d < L; ++d) {
            peak[d] = std::max(peak[d], live[d]);
            live[d] -= late[d];
            late[d] = 0;
        }
    }
    std::copy(peak, peak + L, peakOut);
}

} // namespace

/// Applies the events instant by instant: at each instant everything that ends, arrives or starts
/// then, the device peaks, then the zero-length residencies of that instant are dropped.
double TimeMemory::sweep(std::span<const double> starts, std::span<const int> devices, std::span<const OpId> byStart) {
    const size_t n = byStart.size();
    for (size_t i = 0; i < n; ++i) m_startTime[i] = starts[static_cast<size_t>(byStart[i])];
    m_startTime[n] = std::numeric_limits<double>::infinity();   // m_endTime: findReleasingOps()
    const SweepInput in{byStart,        devices,         m_startTime.data(),  m_endTime.data(), m_endAlloc.data(),
                        m_endFree.data(), m_endFreeLate.data(), m_outputBytes.data(), m_params.data(), m_arrivals};
    m_peak.resize(m_stride);
    switch (m_stride) {
    case 1: sweepLanes<1>(in, 1, nullptr, m_peak.data()); break;
    case 2: sweepLanes<2>(in, 2, nullptr, m_peak.data()); break;
    case 4: sweepLanes<4>(in, 4, nullptr, m_peak.data()); break;
    case 8: sweepLanes<8>(in, 8, nullptr, m_peak.data()); break;
    default: sweepLanes<0>(in, m_stride, m_scratch.data(), m_peak.data());
    }
    m_peak.resize(static_cast<size_t>(m_devices));
    return *std::max_element(m_peak.begin(), m_peak.end());
}

double TimeMemory::peak(std::span<const double> starts, std::span<const double> ends, std::span<const int> devices,
                        std::span<const OpId> byStart, std::span<const OpId> byEnd, std::vector<double>* devicePeaks) {
    findReleasingOps(ends, devices, byEnd);
    sumEndEvents(starts, ends, devices, byEnd);
    const double peak = sweep(starts, devices, byStart);
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
    m_useBooked = linksShared(m_problem.platform);
    if (m_useBooked) bookedEnds(s);
    const double result = peak(starts, ends, devices, m_sortStart, m_sortEnd, devicePeaks);
    m_useBooked = false;   // the span overload stays contention-free (the methods' inner loops)
    return result;
}

void TimeMemory::bookedEnds(const Schedule& s) {
    m_bookedEnd.assign(static_cast<size_t>(m_graph.tensorCount()) << m_laneBits, -1.0);
    for (const ScheduledTransfer& x : s.transfers)
        m_bookedEnd[(static_cast<size_t>(x.tensor) << m_laneBits) + static_cast<size_t>(x.to)] = x.end;
}

} // namespace sl
