// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The mutable state of the local searches: one ordered op list per device (sl::DeviceChains) and
/// the start and end times they give, recomputed in place after each edit.
///
/// The times are those of sl::timeChains to the bit (same rules, same floating-point operations):
/// an op starts when its chain predecessor has ended and its inputs have arrived, an input from
/// another device arriving at end(producer) + Platform::transferTime(p, q, bytes). So a makespan
/// found here is the makespan the cost model gives the schedule timeChains builds from chains().
/// Each device runs one op at a time, whatever its resource capacity.
///
/// With shared links (sl::linksShared) the times are those of sl::BookedChains instead (links
/// booked in the order the ops' inputs would be ready): sl::timeChainsOnPlatform's, to the bit.
///
/// Edits (swapWithNext, moveTo) change the chains only; retime() recomputes every time in
/// O(V + E) and reports a cycle through chain and graph edges as an infinite makespan (the edit
/// must then be undone). Not thread-safe; the problem must outlive the object.
///
/// \code
///   sl::ChainSchedule s(problem, sl::deviceChains(listSchedule, problem.platform.deviceCount()));
///   s.swapWithNext(u);                     // u and the op after it on its device trade places
///   if (s.retime() == sl::kInfinity) s.swapWithNext(s.previous(u));   // cyclic: undo
/// \endcode

#include "core/costmodel/bookedchains.h"
#include "core/costmodel/chaintiming.h"
#include "core/costmodel/problem.h"

#include <optional>
#include <span>
#include <vector>

namespace sl {

class ChainSchedule {
public:
    /// An input of an op: its producer and the largest tensor it sends (the longest transfer:
    /// a transfer's time never decreases with its bytes, rounding included).
    struct Input {
        OpId producer;
        double bytes;
    };

    /// Checks the chains as sl::timeChains does (every op once, on a device of its machine type
    /// with room for its resource demand) and times them. Throws std::invalid_argument naming
    /// the op at fault, also when the chains contradict the graph's precedence.
    ChainSchedule(const Problem& p, const DeviceChains& chains);

    const Problem& problem() const { return *m_problem; }
    int opCount() const { return static_cast<int>(m_device.size()); }
    int deviceCount() const { return static_cast<int>(m_chains.size()); }
    const DeviceChains& chains() const { return m_chains; }
    const std::vector<OpId>& chain(int device) const { return m_chains[static_cast<size_t>(device)]; }
    int device(OpId v) const { return m_device[static_cast<size_t>(v)]; }
    int position(OpId v) const { return m_position[static_cast<size_t>(v)]; }
    /// The op before / after `v` on its device, or kNoOp.
    OpId previous(OpId v) const;
    OpId next(OpId v) const;
    /// Devices `v` may run on: its machine type, enough resource capacity for its demand.
    std::span<const int> devicesFor(OpId v) const;
    std::span<const Input> inputs(OpId v) const;
    double duration(OpId v, int device) const {
        return m_duration[static_cast<size_t>(v) * m_chains.size() + static_cast<size_t>(device)];
    }

    // ---- times of the last retime() ----
    double start(OpId v) const { return m_start[static_cast<size_t>(v)]; }
    double end(OpId v) const { return m_end[static_cast<size_t>(v)]; }
    double makespan() const { return m_makespan; }
    /// Links are shared: the times are booked ones (sl::BookedChains).
    bool linksShared() const { return m_booked.has_value(); }
    /// With shared links, the producer whose input reached `v` last in the last retime() (kNoOp
    /// without inputs) and when; without, kNoOp and 0.
    OpId latestInput(OpId v) const { return m_booked ? m_booked->latestProducer(v) : kNoOp; }
    double arrival(OpId v) const { return m_booked ? m_booked->arrival(v) : 0.0; }
    /// When `v`'s inputs would all be on `device` (0 without inputs), by the current end times.
    double inputsReady(OpId v, int device) const;

    // ---- edits; times are stale until the next retime() ----
    /// `u` and the op after it on its device trade places. `u` must have a chain successor.
    void swapWithNext(OpId u);
    /// Moves `v` to `device` (another device than its own), before the op at `position` of that
    /// chain (its size: at the end).
    void moveTo(OpId v, int device, int position);

    /// Replaces the chains by others of the same problem that were already checked (a copy of
    /// chains(), say) and retimes them.
    void setChains(const DeviceChains& chains);

    /// Recomputes all times; returns the makespan, or kInfinity if the chains and the graph have
    /// a cycle (times are then meaningless).
    double retime();

private:
    void reindex(int device, int from);

    const Problem* m_problem;
    DeviceChains m_chains;
    std::vector<int> m_device, m_position;
    std::vector<double> m_duration;        ///< op x device
    std::vector<int> m_inputStart;         ///< CSR over m_inputs
    std::vector<Input> m_inputs;
    std::vector<int> m_successorStart;     ///< CSR over m_successors (graph edges, distinct)
    std::vector<OpId> m_successors;
    std::vector<int> m_deviceStart;        ///< CSR over m_devicesFor
    std::vector<int> m_devicesFor;

    std::vector<double> m_start, m_end;
    double m_makespan = 0;
    std::optional<BookedChains> m_booked;   ///< the clock when links are shared
    std::vector<int> m_waiting;            ///< retime(): unfinished predecessors
    std::vector<OpId> m_ready;
};

} // namespace sl
