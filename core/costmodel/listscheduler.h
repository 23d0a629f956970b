// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The time clock of the cost model: non-delay list scheduling of prioritised ops on a platform.
///
/// Algorithm (Jeon et al., ICLR 2023, §2.2, Steps 1-4, generalised to devices and transfers; the
/// reading of Step 3 is in docs/costmodel.md, "Choices where the papers are silent"):
///  - an op is *ready* once all its predecessors have finished;
///  - pins (Problem::pins): a pinned op runs on its device whatever placement is asked; a ranked
///    pin is ready only once the one of the next lower rank on its device has ended;
///  - at each decision time t, ready ops are scanned in priority order (higher key first, ties to
///    the smaller op id); each one starts at t on a device of its machine type (or its fixed
///    device) that has enough free resource capacity and on which all its inputs have arrived,
///    choosing the device where its data arrives earliest (ties: lowest index). Ops that do not
///    fit are skipped, not waited for (non-blocking scan);
///  - t then advances to the next op finish or data arrival.
/// An input tensor produced on device p arrives on device q != p at
/// end(producer) + latency + bytes / bandwidth (contention-free links, as in HEFT); with shared
/// links (sl::linksShared) at the end its booking gets (sl::LinkBooker): a candidate device's
/// arrival is probed (again only once the clock has passed the last probe: bookings delay), the
/// transfers are booked when the op starts, and the run's placement and start order are replayed
/// at the end, so the schedule is its own replay (sl::timeOnSharedLinks) to the bit.
///
/// Complexity: uniform devices (one machine type, unit demands, free links, no fixed placement):
/// O(V + E) plus O(log64 V) per ready-queue operation (sl::PriorityQueue: priority buckets, no
/// ranking), the busy devices scanned for the next end. Otherwise O(V + E) for ranking the
/// priorities (radix sort; makespanRanked skips it) plus O(log64 V) per ready-set operation and
/// O(log V) per event. Allocation-free after the first call. Not thread-safe: use
/// one ListScheduler per thread.
///
/// \code
///   sl::ListScheduler ls(problem);
///   double ms = ls.makespan(priorities);            // inner loop of an optimizer
///   sl::Schedule s = ls.schedule(priorities);       // full detail for export and views
/// \endcode

#include "core/costmodel/linkbooker.h"
#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"
#include "core/util/priorityqueue.h"
#include "core/util/prioritysort.h"
#include "core/util/rankset.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sl {

class ListScheduler {
public:
    /// `problem` must outlive the scheduler. Throws GraphError if the platform cannot run the graph.
    explicit ListScheduler(const Problem& problem);

    /// Makespan of the list schedule for `priority` (one key per op, higher = earlier).
    /// `placement` (optional): a device per op, or -1 to let the scheduler choose.
    double makespan(std::span<const double> priority, std::span<const int> placement = {});
    /// The same for priorities already ranked: `opAt[r]` is the op of rank r (0 = first) and
    /// `rankOf[v]` the rank of op v. Skips the sort (REGAL's decoder has the ranks).
    double makespanRanked(std::span<const int> rankOf, std::span<const int> opAt, std::span<const int> placement = {});

    /// The full schedule (ops, order by start time, transfers, makespan); its memory values are
    /// left to sl::scoreSchedule.
    Schedule schedule(std::span<const double> priority, std::span<const int> placement = {});
    /// The schedule of the last run, as schedule() returns it.
    Schedule lastSchedule() const;

    /// Start / end / device of the last run (valid until the next call).
    std::span<const double> starts() const { return m_start; }
    std::span<const double> ends() const { return m_end; }
    std::span<const int> devices() const { return m_device; }
    /// Ops of the last run in the order they started (a topological order, by start time) and in
    /// the order they ended (by end time; a producer before its consumers at equal times).
    std::span<const OpId> startOrder() const { return m_order; }
    std::span<const OpId> endOrder() const { return m_finished; }

private:
    struct Event {
        double time;
        OpId op;   ///< op finishing, or wakeUp(v) for v's data-arrival wake-up
    };
    static OpId wakeUp(OpId v) { return -2 - v; }   ///< a wake-up event's op field (negative)
    static OpId wokenOp(OpId event) { return -2 - event; }
    void checkPlacement(std::span<const int> placement) const;
    void run(std::span<const int> rankOf, std::span<const int> opAt, std::span<const int> placement);
    /// run() when every ready op fits every free device (one machine type, unit demands and
    /// capacities, free transfers, no fixed placement): the best ready op takes the
    /// lowest-numbered free device, with no scan and no event heap. Gives exactly run()'s
    /// schedule, faster. Ready ops wait in m_readyQueue, which the caller assigns.
    void runUniform();
    void resetRun();
    /// Shared links: false when no free device of `candidates` can have v's inputs by `t` (then a
    /// wake-up at the next bound is set), true when the devices must be looked at.
    bool mayStartNow(OpId v, std::span<const int> candidates, double t);
    /// Shared links: re-times the run's placement and start order by the booking rule.
    void replayBookings();
    /// Handles the events at the next event time (see the definition); `onReady(op)` is called
    /// for each op that becomes ready.
    template <typename OnEnd, typename OnReady>
    double advance(OnEnd&& onEnd, OnReady&& onReady);
    template <typename OnReady>
    void finish(OpId u, OnReady&& onReady);
    /// Earliest time the inputs of `v` are all on device `d` (all predecessors have finished).
    double dataReady(OpId v, int d) const;
    void pushEvent(double time, OpId op);
    void occupy(int device, double demand);
    void release(int device, double demand);

    const Problem& m_problem;
    const Graph& m_graph;
    std::vector<std::vector<int>> m_devicesOfType;
    std::vector<int> m_typeOfDevice;
    bool m_freeTransfers = true;
    bool m_sharedLinks = false;           ///< transfers book their links (m_links)
    bool m_uniform = false;               ///< runUniform() applies when no placement is fixed

    // Hot per-op fields copied out of the (large) Op structs for cache locality.
    std::vector<int> m_type;
    std::vector<double> m_demand;
    std::vector<double> m_duration;       ///< device-independent duration, or -1 for a table
    std::vector<int> m_predCount;         ///< distinct predecessors per op (and a ranked pin's predecessor)
    std::vector<int> m_pinPlacement;      ///< the pinned device per op, -1 when free; empty without pins
    std::vector<OpId> m_rankNext;         ///< the ranked pin after each op on its device, or kNoOp; empty without pins
    std::vector<int> m_placement;         ///< run(): the placement asked, with the pins over it

    // workspace
    std::vector<int> m_pending;          ///< unfinished predecessors per op
    std::vector<double> m_start, m_end;
    std::vector<int> m_device;
    std::vector<double> m_freeCapacity;  ///< per device
    std::vector<int> m_freeDevices;      ///< per machine type: devices with capacity left
    std::vector<double> m_wakeAt;        ///< per op: pending data-arrival wake-up, or -1
    PrioritySort m_ranks;                ///< priority rank of every op for this call
    PriorityQueue m_readyQueue;           ///< runUniform(): ready ops by priority
    std::vector<OpId> m_woken;            ///< finish(): successors made ready by one op
    std::vector<OpId> m_running;          ///< runUniform(): the op each busy device runs
    std::vector<RankSet> m_ready;        ///< per machine type: ready ops by rank
    std::vector<OpId> m_order;           ///< ops in the order they started
    std::vector<OpId> m_finished;        ///< ops in the order they ended
    std::vector<Event> m_events;         ///< min-heap by time
    std::vector<OpId> m_due;             ///< shared links: the ops whose wake-up came at the last event time
    bool m_ended = false;                ///< an op ended at the last event time
    LinkBooker m_links;                  ///< shared links: the bookings of the run
    std::vector<ScheduledTransfer> m_transfers;   ///< shared links: the transfers booked, in order
    std::vector<double> m_lowerArrival;         ///< shared links: op x device, the last probed arrival (a lower bound)
    std::vector<double> m_deviceFree;           ///< shared links: replayBookings()' device clocks
    bool m_masks = false;                       ///< shared links on at most 64 devices: mayStartNow() applies
    std::uint64_t m_freeMask = 0;               ///< devices with capacity left
    std::vector<std::uint64_t> m_arrivalMask;   ///< per op: devices whose arrival bound has passed
    std::vector<double> m_maskValidUntil;       ///< per op: the next bound the clock will pass
    size_t m_deviceCount = 0;
    double m_makespan = 0;
};

} // namespace sl
