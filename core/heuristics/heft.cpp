// SPDX-License-Identifier: MIT
#include "core/heuristics/heft.h"

#include "core/costmodel/cost.h"
#include "core/costmodel/linkbooker.h"
#include "core/costmodel/memorytimeline.h"

#include <algorithm>
#include <numeric>

namespace sl {

namespace {

/// Transfer time of the heaviest tensor from `v` to `s` (they all travel at once when split).
double edgeComm(const Problem& p, OpId v, OpId s) {
    const Graph& g = p.g();
    double comm = 0;
    for (TensorId t : g.outputs(v)) {
        const Tensor& x = g.tensor(t);
        if (std::find(x.consumers.begin(), x.consumers.end(), s) != x.consumers.end())
            comm = std::max(comm, p.platform.meanTransferTime(x.bytes));
    }
    return comm;
}

struct Busy {
    double start, end;
};

/// Earliest start >= `ready` on a device with busy intervals `busy` (sorted by start) for an op
/// lasting `w`: the first idle gap that fits, else after the last interval.
double earliestSlot(const std::vector<Busy>& busy, double ready, double w, bool insertion) {
    if (!insertion) return std::max(ready, busy.empty() ? 0.0 : busy.back().end);
    double prevEnd = 0;
    for (const Busy& b : busy) {
        const double s = std::max(ready, prevEnd);
        if (s + w <= b.start) return s;
        prevEnd = std::max(prevEnd, b.end);
    }
    return std::max(ready, prevEnd);
}

} // namespace

std::vector<double> upwardRanks(const Problem& p) {
    const Graph& g = p.g();
    const auto byType = p.platform.devicesByType();
    std::vector<double> rank(static_cast<size_t>(g.opCount()), 0.0);
    const bool free = p.platform.transfersFree() || p.platform.deviceCount() < 2;
    const auto& topo = g.topologicalOrder();
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const OpId v = *it;
        const auto& devs = byType.at(static_cast<size_t>(g.op(v).machineType));
        double w = 0;
        for (int d : devs) w += g.durationOn(v, d);
        w /= static_cast<double>(std::max<size_t>(devs.size(), 1));
        double tail = 0;
        for (OpId s : g.successors(v))
            tail = std::max(tail, (free ? 0.0 : edgeComm(p, v, s)) + rank[static_cast<size_t>(s)]);
        rank[static_cast<size_t>(v)] = w + tail;
    }
    return rank;
}

Schedule heftSchedule(const Problem& p, std::stop_token stop) {
    p.check();
    const Graph& g = p.g();
    const int n = g.opCount();
    const auto byType = p.platform.devicesByType();
    const std::vector<double> rank = upwardRanks(p);
    std::vector<int> topoPos(static_cast<size_t>(n));
    for (size_t i = 0; i < g.topologicalOrder().size(); ++i) topoPos[static_cast<size_t>(g.topologicalOrder()[i])] = static_cast<int>(i);
    std::vector<OpId> list(static_cast<size_t>(n));
    std::iota(list.begin(), list.end(), 0);
    // Decreasing rank is topological except for ties (zero-cost ops): break them topologically.
    std::sort(list.begin(), list.end(), [&](OpId a, OpId b) {
        const auto ia = static_cast<size_t>(a), ib = static_cast<size_t>(b);
        if (rank[ia] != rank[ib]) return rank[ia] > rank[ib];
        return topoPos[ia] < topoPos[ib];
    });

    Schedule s;
    s.ops.resize(static_cast<size_t>(n));
    std::vector<std::vector<Busy>> busy(static_cast<size_t>(p.platform.deviceCount()));
    // Shared links: transfers book their links in list order, and an op inserted into an earlier
    // gap would book after ops that start later (no insertion, so the list order is the order).
    LinkBooker links(p);
    const bool shared = links.shared();
    std::vector<int> device(static_cast<size_t>(n), -1);
    std::vector<double> end(static_cast<size_t>(n), 0.0);
    bool insertion = !shared;
    for (OpId v : list) {
        if (insertion && stop.stop_requested()) insertion = false;   // finish fast: append only
        int bestDevice = -1;
        double bestStart = 0, bestEnd = kInfinity;
        for (int d : byType.at(static_cast<size_t>(g.op(v).machineType))) {
            const double ready = links.probe(v, d, device, end);   // free links: end + transfer time
            const double w = g.durationOn(v, d);
            const double start = earliestSlot(busy[static_cast<size_t>(d)], ready, w, insertion);
            if (start + w < bestEnd || bestDevice < 0) {   // an infinite finish still picks a device; the validator names it
                bestEnd = start + w;
                bestStart = start;
                bestDevice = d;
            }
        }
        if (shared) links.book(v, bestDevice, device, end, &s.transfers);
        s.ops[static_cast<size_t>(v)] = {bestDevice, bestStart, bestEnd};
        device[static_cast<size_t>(v)] = bestDevice;
        end[static_cast<size_t>(v)] = bestEnd;
        auto& b = busy[static_cast<size_t>(bestDevice)];
        b.insert(std::upper_bound(b.begin(), b.end(), bestStart, [](double t, const Busy& x) { return t < x.start; }),
                 Busy{bestStart, bestEnd});
        s.makespan = std::max(s.makespan, bestEnd);
    }
    std::vector<int> listPos(static_cast<size_t>(n));
    for (size_t i = 0; i < list.size(); ++i) listPos[static_cast<size_t>(list[i])] = static_cast<int>(i);
    s.order = list;
    if (shared) {   // the booking order
        scoreSchedule(p, s);
        return s;
    }
    std::sort(s.order.begin(), s.order.end(), [&](OpId a, OpId b) {
        const double sa = s.ops[static_cast<size_t>(a)].start, sb = s.ops[static_cast<size_t>(b)].start;
        if (sa != sb) return sa < sb;
        return listPos[static_cast<size_t>(a)] < listPos[static_cast<size_t>(b)];
    });
    s.transfers = impliedTransfers(p, s);
    scoreSchedule(p, s);
    return s;
}

} // namespace sl
