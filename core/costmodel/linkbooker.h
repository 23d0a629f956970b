// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The booking rule of shared links (docs/time.md, "Shared links") as a clock the engines step
/// through op by op, in the order they schedule: the one implementation that sl::timeOnSharedLinks,
/// the list scheduler, the chain timing, HEFT and the decoders share, so that what a method
/// optimises is what it is scored on, to the bit.
///
/// For an op v placed on device d, its input tensors are taken in Graph::inputs order; one
/// produced on another device and not yet sent to d is booked on route(src, d) from
/// max(end(producer), the latest booked end on any link of the route) for
/// Platform::transferTime(src, d, bytes), and every link of the route is busy until its end (no
/// gap of the past is filled). `arrival` is the latest arrival of v's inputs on d (a tensor already
/// sent there arrives at its booked end; one made on d at its producer's end).
///
/// On a platform whose links are not shared nothing waits for a link: an input arrives at
/// end(producer) + transferTime, as in the contention-free clock.
///
/// Allocation-free after the first op of the first run. Not thread-safe: one per thread.
///
/// \code
///   sl::LinkBooker links(problem);
///   links.clear();
///   for (OpId v : order) {
///       const int d = device[v];
///       const double start = std::max(deviceFree[d], links.book(v, d, device, end));
///       ...
///   }
/// \endcode

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace sl {

class LinkBooker {
public:
    /// `p` must outlive the booker.
    explicit LinkBooker(const Problem& p);

    /// True when links are shared (otherwise nothing is booked and nothing waits).
    bool shared() const { return m_shared; }
    /// Forgets every booking: an empty machine.
    void clear();

    /// Books the transfers of `v`'s inputs to device `d` (producers' devices and ends from
    /// `device` and `end`, indexed by op; every producer must be timed) and returns when the
    /// last of them is on `d` (0 without inputs). Appends the new transfers to `out` when given.
    double book(OpId v, int d, std::span<const int> device, std::span<const double> end,
                std::vector<ScheduledTransfer>* out = nullptr);
    /// What book() would return, booking nothing.
    double probe(OpId v, int d, std::span<const int> device, std::span<const double> end);

    /// The replay of a placement and an order (the rule of docs/time.md): clears the bookings, then
    /// in `order` (topological, every op) starts op v at max(its device's last end, book(v, ...))
    /// with `duration(v, device[v])`, writing `start` and `end` (indexed by op) and the booked
    /// transfers to `out` when given; `deviceFree` is scratch of one entry per device. Returns the
    /// makespan.
    template <typename Duration>
    double replay(std::span<const int> device, std::span<const OpId> order, std::span<double> start, std::span<double> end,
                  std::span<double> deviceFree, Duration&& duration, std::vector<ScheduledTransfer>* out = nullptr) {
        clear();
        std::fill(deviceFree.begin(), deviceFree.end(), 0.0);
        double makespan = 0;
        for (OpId v : order) {
            const auto sv = static_cast<size_t>(v);
            const int d = device[sv];
            double& free = deviceFree[static_cast<size_t>(d)];
            start[sv] = std::max(free, book(v, d, device, end, out));
            free = end[sv] = start[sv] + duration(v, d);
            makespan = std::max(makespan, free);
        }
        return makespan;
    }

    /// The booked arrival of tensor `t` on device `d`, or -1 when it was not sent there.
    double sentAt(TensorId t, int d) const;
    /// An input of an op, copied out of the graph's tensors for the inner loops.
    struct Input {
        TensorId tensor;
        OpId producer;
        double bytes;
    };
    /// `v`'s input tensors in Graph::inputs order.
    std::span<const Input> inputs(OpId v) const {
        const auto b = static_cast<size_t>(m_inputStart[static_cast<size_t>(v)]);
        return {m_inputs.data() + b, static_cast<size_t>(m_inputStart[static_cast<size_t>(v) + 1]) - b};
    }

    /// The producer whose input arrived last in the last book() or probe() (kNoOp when `v` had
    /// no input): where a critical path goes on.
    OpId latestProducer() const { return m_latestProducer; }

private:
    template <bool Commit>
    double bookInputs(OpId v, int d, std::span<const int> device, std::span<const double> end,
                      std::vector<ScheduledTransfer>* out);
    std::span<const int> route(int from, int to) const;
    double busyUntil(int link) const;
    void recordSent(TensorId t, int d, double arrival);
    void setBusy(int link, double until);

    const Problem* m_problem;   ///< a pointer: the owners (ChainSchedule) are copied and assigned
    bool m_shared;
    int m_devices;
    std::vector<int> m_routeStart;   ///< CSR: the links of route(a, b) at [a * n + b]
    std::vector<int> m_routeLinks;
    std::vector<double> m_busy;      ///< per link: the latest booked end
    std::vector<int> m_inputStart;   ///< CSR over m_inputs, per op
    std::vector<Input> m_inputs;
    /// Per (tensor, device): the booked arrival, valid when its stamp is the current one (so
    /// clear() is O(links), not O(tensors x devices)); allocated on first use.
    std::vector<std::uint32_t> m_sentStamp;
    std::vector<double> m_sentArrival;
    std::uint32_t m_stamp = 1;
    // probe(): bookings of one op not yet made, read over the committed ones
    std::vector<double> m_probeBusy;   ///< per link, valid where m_probeStamp is m_probeEpoch
    std::vector<std::uint32_t> m_probeStamp;
    std::uint32_t m_probeEpoch = 1;
    std::vector<std::pair<TensorId, double>> m_pendingSent;   ///< only for ops that read a tensor twice
    std::vector<char> m_repeatsInput;                         ///< per op: some input tensor is listed twice
    OpId m_latestProducer = kNoOp;
};

/// The booking replay of a placement and an order (sl::timeOnSharedLinks' times) as a clock for an
/// inner loop: no checks, no transfers kept, allocation-free after construction. Each op starts at
/// max(end of the previous op on its device in the order, arrival of its inputs).
class BookedOrder {
public:
    explicit BookedOrder(const Problem& p);
    /// Times `order` (a topological order of every op) with op v on `device[v]`; returns the makespan.
    double time(std::span<const int> device, std::span<const OpId> order);
    std::span<const double> ends() const { return m_end; }

private:
    const Problem* m_problem;
    LinkBooker m_links;
    std::vector<double> m_start, m_end, m_deviceFree;
};

}   // namespace sl
