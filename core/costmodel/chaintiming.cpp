// SPDX-License-Identifier: MIT
#include "core/costmodel/chaintiming.h"

#include "core/costmodel/memorytimeline.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

DeviceChains deviceChains(const Schedule& s, int devices) {
    const auto n = s.ops.size();
    std::vector<int> position(n, static_cast<int>(n));
    for (size_t i = 0; i < s.order.size(); ++i)
        if (s.order[i] >= 0 && static_cast<size_t>(s.order[i]) < n) position[static_cast<size_t>(s.order[i])] = static_cast<int>(i);
    DeviceChains chains(static_cast<size_t>(std::max(devices, 0)));
    for (OpId v = 0; v < static_cast<OpId>(n); ++v) {
        const int d = s.ops[static_cast<size_t>(v)].device;
        if (d < 0 || d >= devices)
            throw std::invalid_argument("op " + std::to_string(v) + " is on device " + std::to_string(d) +
                                        ", outside the platform's " + std::to_string(devices) + " devices");
        chains[static_cast<size_t>(d)].push_back(v);
    }
    for (auto& chain : chains)
        std::sort(chain.begin(), chain.end(), [&](OpId a, OpId b) {
            const double sa = s.ops[static_cast<size_t>(a)].start, sb = s.ops[static_cast<size_t>(b)].start;
            return sa < sb || (sa == sb && position[static_cast<size_t>(a)] < position[static_cast<size_t>(b)]);
        });
    return chains;
}

namespace {

/// The device of every op and its chain predecessor (kNoOp for a chain head); checks coverage
/// and machine types.
struct ChainLinks {
    std::vector<int> device;
    std::vector<OpId> previous;
};

ChainLinks linkChains(const Problem& p, const DeviceChains& chains) {
    const Graph& g = p.g();
    const auto n = static_cast<size_t>(g.opCount());
    if (chains.size() > static_cast<size_t>(p.platform.deviceCount()))
        throw std::invalid_argument("the schedule uses " + std::to_string(chains.size()) + " devices, the platform has " +
                                    std::to_string(p.platform.deviceCount()));
    ChainLinks links{std::vector<int>(n, -1), std::vector<OpId>(n, kNoOp)};
    for (size_t d = 0; d < chains.size(); ++d) {
        OpId previous = kNoOp;
        for (OpId v : chains[d]) {
            if (v < 0 || static_cast<size_t>(v) >= n) throw std::invalid_argument("a device chain names op " + std::to_string(v) + ", which does not exist");
            if (links.device[static_cast<size_t>(v)] >= 0) throw std::invalid_argument("op '" + g.op(v).name + "' is in the device chains twice");
            if (g.op(v).machineType != p.platform.devices[d].machineType)
                throw std::invalid_argument("op '" + g.op(v).name + "' is on device " + std::to_string(d) + " of another machine type");
            links.device[static_cast<size_t>(v)] = static_cast<int>(d);
            links.previous[static_cast<size_t>(v)] = previous;
            previous = v;
        }
    }
    for (OpId v = 0; v < static_cast<OpId>(n); ++v)
        if (links.device[static_cast<size_t>(v)] < 0) throw std::invalid_argument("op '" + g.op(v).name + "' is in no device chain");
    return links;
}

} // namespace

void checkDeviceChains(const Problem& p, const DeviceChains& chains) { linkChains(p, chains); }

std::string chainCycleError(const Graph& g, OpId stuck) {
    return "the device orders contradict the graph's precedence: op '" + g.op(stuck).name + "' waits on an op that waits on it";
}

Schedule timeChains(const Problem& p, const DeviceChains& chains) {
    const Graph& g = p.g();
    const int n = g.opCount();
    const ChainLinks links = linkChains(p, chains);
    // Kahn over graph edges plus chain edges: an op is timed once its producers and its chain
    // predecessor are.
    std::vector<int> waiting(static_cast<size_t>(n));
    std::vector<OpId> next(static_cast<size_t>(n), kNoOp);
    std::vector<OpId> ready;
    for (OpId v = 0; v < n; ++v) {
        const OpId prev = links.previous[static_cast<size_t>(v)];
        waiting[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size()) + (prev != kNoOp);
        if (prev != kNoOp) next[static_cast<size_t>(prev)] = v;
        if (waiting[static_cast<size_t>(v)] == 0) ready.push_back(v);
    }
    Schedule s;
    s.ops.resize(static_cast<size_t>(n));
    std::vector<OpId> timed;
    timed.reserve(static_cast<size_t>(n));
    auto release = [&](OpId w) {
        if (w != kNoOp && --waiting[static_cast<size_t>(w)] == 0) ready.push_back(w);
    };
    while (!ready.empty()) {
        const OpId v = ready.back();
        ready.pop_back();
        const int d = links.device[static_cast<size_t>(v)];
        const OpId prev = links.previous[static_cast<size_t>(v)];
        double start = prev == kNoOp ? 0.0 : s.ops[static_cast<size_t>(prev)].end;
        for (TensorId t : g.inputs(v)) {   // the list scheduler's arrival rule (ListScheduler::dataReady)
            const Tensor& x = g.tensor(t);
            const ScheduledOp& producer = s.ops[static_cast<size_t>(x.producer)];
            start = std::max(start, producer.end + p.platform.transferTime(producer.device, d, x.bytes));
        }
        s.ops[static_cast<size_t>(v)] = {d, start, start + g.durationOn(v, d)};
        s.makespan = std::max(s.makespan, start + g.durationOn(v, d));
        timed.push_back(v);
        for (OpId w : g.successors(v)) release(w);
        release(next[static_cast<size_t>(v)]);
    }
    if (static_cast<int>(timed.size()) != n) {
        OpId stuck = 0;
        while (waiting[static_cast<size_t>(stuck)] == 0) ++stuck;
        throw std::invalid_argument(chainCycleError(g, stuck));
    }
    // By start time; ties keep the timing order, which is topological.
    std::stable_sort(timed.begin(), timed.end(), [&](OpId a, OpId b) {
        return s.ops[static_cast<size_t>(a)].start < s.ops[static_cast<size_t>(b)].start;
    });
    s.order = std::move(timed);
    s.transfers = impliedTransfers(p, s);
    return s;
}

double chainMakespan(const Problem& p, const DeviceChains& chains) { return timeChains(p, chains).makespan; }

} // namespace sl
