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
/// Cost O(V + E + T·D) given the ops sorted by start and by end (sl::ListScheduler produces both
/// orders as it runs), plus a heap over transfer ends when the link is not free. Allocation-free
/// after the first call; one TimeMemory per thread.

#include "core/costmodel/problem.h"

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

    /// The same for a schedule, sorting its ops itself.
    double peak(const Schedule& s, std::vector<double>* devicePeaks = nullptr);

private:
    struct Release {
        double time;
        TensorId tensor;
    };
    void countHolders(std::span<const int> devices);
    /// Drops one holder of `tensor` on device `d` at `now`; frees it when none is left.
    void release(TensorId tensor, int d, double now, double allocatedAt);
    void allocate(int d, double bytes);
    void freeBytes(int d, double bytes, double allocatedAt, double now);
    void closeInstant();

    const Problem& m_problem;
    const Graph& m_graph;
    int m_devices;
    std::vector<double> m_bytes;        ///< per tensor
    std::vector<double> m_params;       ///< per op
    std::vector<double> m_outputBytes;  ///< per op
    std::vector<int> m_topoPos;         ///< per op: position in Graph::topologicalOrder() (ties)
    bool m_transferTimeFree = true;

    // workspace
    std::vector<int> m_holders;         ///< per (tensor, device): what still keeps it resident
    std::vector<double> m_live, m_peak, m_zeroLength;   ///< per device
    std::vector<int> m_touched;         ///< devices allocated on at the current instant
    std::vector<char> m_isTouched;
    std::vector<Release> m_releases;    ///< min-heap of transfer ends (non-free links)
    std::span<const double> m_starts, m_ends;
    std::span<const int> m_device;
    std::vector<OpId> m_sortStart, m_sortEnd;
};

} // namespace sl
