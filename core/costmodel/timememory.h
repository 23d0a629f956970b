// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The time clock's peak memory per device, in one sweep over the ops' start and end events.
///
/// Same residency rules as memorytimeline.h (which draws the curves): an op's outputs are
/// allocated on its device when it starts and freed when the last of the producer, its local
/// consumers and its outgoing transfers ends; a transferred copy is allocated on the destination
/// when the transfer starts (the producer's end) and freed when its last consumer there ends;
/// parameters are resident while their op runs. At one instant, memory released then is reusable
/// then, except that a residency of zero length still counts at its instant.
///
/// Bytes are whole numbers (Graph::finalize checks), so every sum is exact and this sweep, the
/// curves of memorytimeline.h and any other correct implementation agree to the bit.
///
/// How: every residency ends at some op's end (its last holder) or, on a costly link, at a transfer's
/// arrival. One flat pass over the input edges finds, for each (tensor, device), the consumer there
/// that ends last (the highest rank in end order); the releases and the copies made at a
/// producer's end are summed per (end rank, device) without branches; then one sweep over the ops'
/// start and end orders applies those sums instant by instant, the device values in registers. Cost O(V·D + E + T·D), plus sorting the arrivals that outlast every holder when the
/// link is not free. Allocation-free after the first call; one TimeMemory per thread.

#include "core/costmodel/problem.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sl {

class TimeMemory {
public:
    /// `problem` must outlive this object.
    explicit TimeMemory(const Problem& problem);

    /// Peak over devices; `devicePeaks` (optional) receives each device's peak. `byStart` and
    /// `byEnd` list every op sorted by start and by end time (ties in any order).
    double peak(std::span<const double> starts, std::span<const double> ends, std::span<const int> devices,
                std::span<const OpId> byStart, std::span<const OpId> byEnd, std::vector<double>* devicePeaks = nullptr);

    /// The same for a schedule, sorting its ops itself. With shared links (core/costmodel/sharedlinks.h)
    /// a source copy is held until its transfer's end as `s.transfers` books it.
    double peak(const Schedule& s, std::vector<double>* devicePeaks = nullptr);

    /// A residency released at a transfer's arrival rather than at an op's end (costly links).
    struct Arrival {
        double time;
        int device;
        double bytes;
    };

private:
    void findReleasingOps(std::span<const double> ends, std::span<const int> devices, std::span<const OpId> byEnd);
    void sumEndEvents(std::span<const double> starts, std::span<const double> ends, std::span<const int> devices,
                      std::span<const OpId> byEnd);
    void bookedEnds(const Schedule& s);
    double sweep(std::span<const double> starts, std::span<const int> devices, std::span<const OpId> byStart);

    const Problem& m_problem;
    const Graph& m_graph;
    int m_devices;
    size_t m_stride = 1;                ///< device lanes: the devices rounded up to a power of 2
    int m_laneBits = 0;                 ///< log2(m_stride)
    std::vector<double> m_bytes;        ///< per tensor
    std::vector<OpId> m_producer;       ///< per tensor
    std::vector<double> m_params;       ///< per op
    std::vector<double> m_outputBytes;  ///< per op
    std::vector<int> m_topoPos;         ///< per op: position in Graph::topologicalOrder() (ties)
    std::vector<std::int64_t> m_edgeSlot;   ///< per input edge, in rounds: its tensor << m_laneBits
    std::vector<OpId> m_edgeOp;             ///< per input edge: the consuming op
    bool m_transferTimeFree = true;
    bool m_useBooked = false;           ///< shared links: read m_bookedEnd, not end + transfer time
    std::vector<double> m_bookedEnd;    ///< per (tensor, lane): the schedule's transfer end

    // workspace
    std::vector<int> m_endRank;               ///< per op: its position in byEnd
    std::vector<std::int64_t> m_rankLane;     ///< per op: end rank << m_laneBits | device
    std::vector<int> m_lastEnd;               ///< per (tensor, lane): end rank of the consumer there that ends last
    // per (end rank, lane), applied at that op's end: copies allocated there (the op's outputs sent
    // to the device), bytes released, and bytes of zero-length residencies released after the peak
    std::vector<double> m_endAlloc, m_endFree, m_endFreeLate;
    std::vector<Arrival> m_arrivals;    ///< sorted by time
    std::vector<double> m_startTime, m_endTime;   ///< by rank, +inf last
    std::vector<double> m_peak, m_scratch;   ///< per lane; scratch: the live, late and peak lanes of a wide sweep
    std::vector<OpId> m_sortStart, m_sortEnd;
};

} // namespace sl
