// SPDX-License-Identifier: MIT
#include "core/costmodel/sharedlinks.h"

#include "core/costmodel/bookedchains.h"
#include "core/costmodel/linkbooker.h"
#include "core/costmodel/validator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sl {

bool linksShared(const Platform& platform) {
    return !platform.topology.empty() && platform.topology.shared &&
        !platform.transfersFree();   // a free link holds nothing up
}

std::string linksDescription(const Platform& platform) {
    if (platform.topology.empty()) return "";
    if (linksShared(platform)) return "shared (one transfer at a time per link)";
    return platform.topology.shared ? "free (the links take no time)" : "free (contention-free)";
}

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
    Schedule out;
    out.ops.resize(s.ops.size());
    out.order = s.order;
    out.method = s.method;
    out.seed = s.seed;
    out.memoryClock = s.memoryClock;
    std::vector<int> device(s.ops.size());
    for (size_t v = 0; v < s.ops.size(); ++v) device[v] = s.ops[v].device;
    std::vector<double> start(s.ops.size()), end(s.ops.size()), deviceFree(static_cast<size_t>(p.platform.deviceCount()));
    out.transfers.reserve(s.transfers.size());
    LinkBooker links(p);
    out.makespan = links.replay(device, s.order, start, end, deviceFree, [&g](OpId v, int d) { return g.durationOn(v, d); },
                                &out.transfers);
    for (size_t v = 0; v < s.ops.size(); ++v) out.ops[v] = {device[v], start[v], end[v]};
    const Bookings given = givenTransfers(s, g.tensorCount());
    for (ScheduledTransfer& x : out.transfers) x.step = keptStep(s, given, x.tensor, x.to);
    return out;
}

void bookSharedLinks(const Problem& p, Schedule& s) {
    if (linksShared(p.platform)) s = timeOnSharedLinks(p, s);
}

Schedule retimeSchedule(const Problem& p, const Schedule& s) {
    if (linksShared(p.platform)) return timeOnSharedLinks(p, s);
    int devices =
        p.platform.deviceCount();   // the chains of every device it used: timeChains names one the platform lacks
    for (const ScheduledOp& o : s.ops) devices = std::max(devices, o.device + 1);
    return timeChains(p, deviceChains(s, devices));
}

Schedule timeChainsOnPlatform(const Problem& p, const DeviceChains& chains) {
    if (!linksShared(p.platform)) return timeChains(p, chains);
    requireChains(p);
    return timeChainsOnSharedLinks(p, chains);
}

} // namespace sl
