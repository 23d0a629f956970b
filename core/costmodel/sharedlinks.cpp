// SPDX-License-Identifier: MIT
#include "core/costmodel/sharedlinks.h"

#include "core/costmodel/validator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sl {

bool linksShared(const Platform& platform) { return !platform.topology.empty() && platform.topology.shared; }

namespace {

/// The rule times one op at a time per device: anything else would need a resource model.
void requireChains(const Problem& p) {
    const Graph& g = p.g();
    for (const Device& d : p.platform.devices)
        if (d.resourceCapacity != 1)
            throw std::invalid_argument("shared links time one op at a time per device; device '" + d.name +
                                        "' has resource capacity " + std::to_string(d.resourceCapacity));
    for (OpId v = 0; v < g.opCount(); ++v)
        if (g.op(v).resourceDemand != 1)
            throw std::invalid_argument("shared links time one op at a time per device; op '" + g.op(v).name +
                                        "' demands " + std::to_string(g.op(v).resourceDemand) + " resource units");
}

void requirePlacement(const Problem& p, const Schedule& s) {
    const Graph& g = p.g();
    if (static_cast<int>(s.ops.size()) != g.opCount())
        throw std::invalid_argument("the schedule has " + std::to_string(s.ops.size()) + " ops, the graph " +
                                    std::to_string(g.opCount()));
    if (const std::string error = orderError(g, s.order); !error.empty()) throw std::invalid_argument(error);
    for (OpId v = 0; v < g.opCount(); ++v) {
        const int d = s.ops[static_cast<size_t>(v)].device;
        if (d < 0 || d >= p.platform.deviceCount())
            throw std::invalid_argument("op '" + g.op(v).name + "' is on device " + std::to_string(d) + ", which does not exist");
        if (p.platform.devices[static_cast<size_t>(d)].machineType != g.op(v).machineType)
            throw std::invalid_argument("op '" + g.op(v).name + "' is on device " + std::to_string(d) + " of another machine type");
    }
}

/// Link bookings in order: each link's latest booked end.
class LinkBook {
public:
    explicit LinkBook(const Platform& platform)
        : m_platform(platform), m_shared(linksShared(platform)), m_busyUntil(platform.topology.links.size(), 0.0) {}

    /// Books `bytes` from `src` (ready at `ready`) to `dst`; returns {start, end}.
    std::pair<double, double> book(int src, int dst, double bytes, double ready) {
        static const std::vector<int> kNoRoute;
        const std::vector<int>& route = m_shared ? m_platform.topology.route(src, dst) : kNoRoute;   // unshared: no waiting
        double start = ready;
        for (int l : route) start = std::max(start, m_busyUntil[static_cast<size_t>(l)]);
        const double end = start + m_platform.transferTime(src, dst, bytes);
        for (int l : route) m_busyUntil[static_cast<size_t>(l)] = end;
        return {start, end};
    }

private:
    const Platform& m_platform;
    bool m_shared;
    std::vector<double> m_busyUntil;
};

/// The transfers booked so far, found by (tensor, destination): a chain per tensor, as a tensor
/// goes to few devices (O(tensors) memory, not tensors x devices).
class Bookings {
public:
    explicit Bookings(int tensors) : m_first(static_cast<size_t>(tensors), -1) {}
    /// Index into `transfers` of the booking of `t` to `to`, or -1.
    int find(const std::vector<ScheduledTransfer>& transfers, TensorId t, int to) const {
        for (int i = m_first[static_cast<size_t>(t)]; i >= 0; i = m_next[static_cast<size_t>(i)])
            if (transfers[static_cast<size_t>(i)].to == to) return i;
        return -1;
    }
    /// Records transfers[index] as a booking of tensor `t`.
    void add(TensorId t, int index) {
        if (static_cast<size_t>(index) >= m_next.size()) m_next.resize(static_cast<size_t>(index) + 1, -1);
        m_next[static_cast<size_t>(index)] = m_first[static_cast<size_t>(t)];
        m_first[static_cast<size_t>(t)] = index;
    }

private:
    std::vector<int> m_first, m_next;
};

/// The step `s` gave the transfer of `t` to `to`, looked up only when `s` has steps (-1 otherwise).
int keptStep(const Schedule& s, const Bookings& given, TensorId t, int to) {
    if (s.transfers.empty() || s.transfers.front().step < 0) return -1;
    const int i = given.find(s.transfers, t, to);
    return i < 0 ? -1 : s.transfers[static_cast<size_t>(i)].step;
}

/// `s`'s own transfers indexed as bookings (for their steps); empty when it has no steps.
Bookings givenTransfers(const Schedule& s, int tensors) {
    const bool steps = !s.transfers.empty() && s.transfers.front().step >= 0;
    Bookings b(steps ? tensors : 0);
    for (size_t i = 0; steps && i < s.transfers.size(); ++i)
        if (s.transfers[i].tensor >= 0 && s.transfers[i].tensor < tensors) b.add(s.transfers[i].tensor, static_cast<int>(i));
    return b;
}

} // namespace

Schedule timeOnSharedLinks(const Problem& p, const Schedule& s) {
    const Graph& g = p.g();
    requireChains(p);
    requirePlacement(p, s);
    const int devices = p.platform.deviceCount();
    Schedule out;
    out.ops.resize(s.ops.size());
    out.order = s.order;
    out.method = s.method;
    out.seed = s.seed;
    out.memoryClock = s.memoryClock;
    std::vector<double> deviceFree(static_cast<size_t>(devices), 0.0);
    Bookings booked(g.tensorCount());
    out.transfers.reserve(s.transfers.size());
    LinkBook links(p.platform);
    const Bookings given = givenTransfers(s, g.tensorCount());
    for (OpId v : s.order) {
        const int d = s.ops[static_cast<size_t>(v)].device;
        double start = deviceFree[static_cast<size_t>(d)];
        for (TensorId t : g.inputs(v)) {
            const Tensor& x = g.tensor(t);
            const ScheduledOp& producer = out.ops[static_cast<size_t>(x.producer)];
            if (producer.device == d) {
                start = std::max(start, producer.end);
                continue;
            }
            int i = booked.find(out.transfers, t, d);
            if (i < 0) {
                const auto [from, to] = links.book(producer.device, d, x.bytes, producer.end);
                out.transfers.push_back({t, producer.device, d, from, to, keptStep(s, given, t, d)});
                i = static_cast<int>(out.transfers.size()) - 1;
                booked.add(t, i);
            }
            start = std::max(start, out.transfers[static_cast<size_t>(i)].end);
        }
        const double end = start + g.durationOn(v, d);
        out.ops[static_cast<size_t>(v)] = {d, start, end};
        deviceFree[static_cast<size_t>(d)] = end;
        out.makespan = std::max(out.makespan, end);
    }
    return out;
}

void bookSharedLinks(const Problem& p, Schedule& s) {
    if (linksShared(p.platform)) s = timeOnSharedLinks(p, s);
}

Schedule retimeSchedule(const Problem& p, const Schedule& s) {
    if (linksShared(p.platform)) return timeOnSharedLinks(p, s);
    return timeChains(p, deviceChains(s, p.platform.deviceCount()));
}

Schedule timeChainsOnPlatform(const Problem& p, const DeviceChains& chains) {
    Schedule timed = timeChains(p, chains);
    return linksShared(p.platform) ? timeOnSharedLinks(p, timed) : timed;
}

} // namespace sl
