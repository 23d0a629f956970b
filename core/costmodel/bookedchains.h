// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Device chains timed on shared links: the chain clock (sl::timeChains) with link bookings.
///
/// Chains hold no order across devices, and the bookings need one. The order taken is the one a
/// machine would show: among the ops whose producers and chain predecessor are timed, the one whose
/// inputs would be ready first (max of its chain predecessor's end and end(producer) +
/// transferTime per input, with the ends already booked; ties to the smaller op id) is timed next
/// and books its inputs (sl::LinkBooker). The schedule is a function of the chains alone, its
/// order is that timing order, and replaying it (sl::timeOnSharedLinks) gives its times to the bit.
///
/// O((V + E) log V) plus the routes' links per transfer; allocation-free after the first run. Not
/// thread-safe: one per thread.
///
/// \code
///   sl::BookedChains clock(problem);
///   double makespan = clock.time(chains, device, position);   // kInfinity on a cycle
/// \endcode

#include "core/costmodel/chaintiming.h"
#include "core/costmodel/linkbooker.h"

#include <span>
#include <vector>

namespace sl {

class BookedChains {
public:
    explicit BookedChains(const Problem& p);

    /// Times `chains`, where `device[v]` and `position[v]` say where op v is in them; returns the
    /// makespan, or kInfinity if chains and graph have a cycle (the times are then meaningless).
    /// With `transfers`, the booked transfers are written there in booking order.
    double time(const DeviceChains& chains, std::span<const int> device, std::span<const int> position,
                std::vector<ScheduledTransfer>* transfers = nullptr);

    std::span<const double> starts() const { return m_start; }
    std::span<const double> ends() const { return m_end; }
    /// The ops in the order they were timed and booked (a topological order).
    std::span<const OpId> order() const { return m_order; }
    /// Per op, the producer whose input arrived last (kNoOp without inputs) and when.
    OpId latestProducer(OpId v) const { return m_latest[static_cast<size_t>(v)]; }
    double arrival(OpId v) const { return m_arrival[static_cast<size_t>(v)]; }
    /// After time() found a cycle: an op it never timed.
    OpId untimedOp() const;

private:
    struct Ready {
        double at;
        OpId op;
    };
    double readyEstimate(OpId v, int d, double chainFree) const;

    const Problem* m_problem;
    LinkBooker m_links;
    std::span<const int> m_deviceOf;   ///< time(): the device per op
    std::vector<double> m_start, m_end, m_arrival;
    std::vector<OpId> m_latest, m_order;
    std::vector<int> m_waiting;
    std::vector<Ready> m_ready;   ///< min-heap by (at, op)
};

/// The schedule of `chains` on `p` when links are shared (sl::BookedChains): ops, order, booked
/// transfers, makespan. Throws std::invalid_argument as sl::timeChains does.
Schedule timeChainsOnSharedLinks(const Problem& p, const DeviceChains& chains);

}   // namespace sl
