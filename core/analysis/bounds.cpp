// SPDX-License-Identifier: MIT
#include "core/analysis/bounds.h"

#include "core/analysis/levels.h"
#include "core/analysis/transferbounds.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <map>
#include <queue>

namespace sl {

double criticalPathBound(const Problem& p) {
    const Graph& g = p.g();
    std::vector<double> d(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) d[static_cast<size_t>(v)] = minDuration(g, p.platform, v);
    const std::vector<double> bl = bottomLevels(g, d);
    return bl.empty() ? 0.0 : *std::max_element(bl.begin(), bl.end());
}

double workBound(const Problem& p) {
    const Graph& g = p.g();
    std::map<int, double> work, capacity;
    for (OpId v = 0; v < g.opCount(); ++v)
        work[g.op(v).machineType] += minDuration(g, p.platform, v) * g.op(v).resourceDemand;
    for (const Device& d : p.platform.devices) capacity[d.machineType] += d.resourceCapacity;
    double bound = 0;
    for (const auto& [type, w] : work) {
        const double cap = capacity[type];
        if (cap > 0) bound = std::max(bound, w / cap);
    }
    return bound;
}

double jacksonPreemptiveBound(std::vector<HeadTailOp> ops) {
    std::sort(ops.begin(), ops.end(), [](const HeadTailOp& a, const HeadTailOp& b) { return a.head < b.head; });
    struct Running {
        double remaining, tail;
        bool operator<(const Running& o) const { return tail < o.tail; }   // the longest tail on top
    };
    std::priority_queue<Running> released;
    double t = 0, bound = 0;
    std::size_t next = 0;
    while (next < ops.size() || !released.empty()) {
        if (released.empty()) t = std::max(t, ops[next].head);
        for (; next < ops.size() && ops[next].head <= t; ++next) released.push({ops[next].duration, ops[next].tail});
        Running top = released.top();
        released.pop();
        const double nextRelease = next < ops.size() ? ops[next].head : kInfinity;
        if (t + top.remaining <= nextRelease) {   // runs to its end
            t += top.remaining;
            bound = std::max(bound, t + top.tail);
        } else {                                  // preempted at the next release
            top.remaining -= nextRelease - t;
            t = nextRelease;
            released.push(top);
        }
    }
    return bound;
}

double machineBound(const Problem& p) {
    const Graph& g = p.g();
    std::vector<double> d(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) d[static_cast<size_t>(v)] = minDuration(g, p.platform, v);
    const std::vector<double> heads = topLevels(g, d), bottoms = bottomLevels(g, d);
    std::map<int, std::vector<OpId>> opsOfType;
    for (OpId v = 0; v < g.opCount(); ++v) opsOfType[g.op(v).machineType].push_back(v);
    double bound = 0;
    for (const auto& [type, ops] : opsOfType) {
        int devices = 0;
        double capacity = 0;
        for (const Device& dev : p.platform.devices)
            if (dev.machineType == type) ++devices, capacity += dev.resourceCapacity;
        if (capacity <= 0) continue;
        std::vector<HeadTailOp> relaxed;
        double work = 0, minHead = kInfinity, minTail = kInfinity;
        bool oneAtATime = devices == 1;
        for (const OpId v : ops) {
            const auto i = static_cast<size_t>(v);
            const double tail = bottoms[i] - d[i];   // after the op's end
            relaxed.push_back({heads[i], d[i], tail});
            work += d[i] * g.op(v).resourceDemand;
            minHead = std::min(minHead, heads[i]);
            minTail = std::min(minTail, tail);
            oneAtATime = oneAtATime && 2 * g.op(v).resourceDemand > capacity;   // no two can overlap
        }
        bound = std::max(bound, oneAtATime ? jacksonPreemptiveBound(std::move(relaxed)) : minHead + work / capacity + minTail);
    }
    return bound;
}

double gapToBound(double makespan, double bound) {
    return bound > 0 ? (makespan - bound) / bound : std::numeric_limits<double>::quiet_NaN();
}

double footprintBound(const Graph& g) {
    double best = 0;
    for (OpId v = 0; v < g.opCount(); ++v) {
        double bytes = g.outputBytes(v) + g.op(v).paramBytes;
        for (TensorId t : g.inputs(v)) bytes += g.tensor(t).bytes;
        best = std::max(best, bytes);
    }
    return best;
}

std::vector<OpBits> opReachability(const Graph& g, bool forward) {
    const auto n = static_cast<size_t>(g.opCount()), words = (n + 63) / 64;
    std::vector<OpBits> reach(n, OpBits(words, 0));
    const std::vector<OpId>& order = g.topologicalOrder();
    const auto visit = [&](OpId v) {
        OpBits& r = reach[static_cast<size_t>(v)];
        for (const OpId w : forward ? g.successors(v) : g.predecessors(v)) {
            const OpBits& rw = reach[static_cast<size_t>(w)];
            for (size_t k = 0; k < words; ++k) r[k] |= rw[k];
            r[static_cast<size_t>(w) / 64] |= std::uint64_t{1} << (static_cast<size_t>(w) % 64);
        }
    };
    if (forward) std::for_each(order.rbegin(), order.rend(), visit);
    else std::for_each(order.begin(), order.end(), visit);
    return reach;
}

std::vector<double> opCutBounds(const Graph& g, const std::vector<OpBits>& after, const std::vector<OpBits>& before) {
    const auto n = static_cast<size_t>(g.opCount()), words = (n + 63) / 64;
    // crossing[v]: bytes of tensors made before v and read after v, resident somewhere at v's step
    std::vector<double> crossing(n, 0);
    OpBits readLater(words);
    for (TensorId t = 0; t < g.tensorCount(); ++t) {
        const Tensor& tensor = g.tensor(t);
        if (tensor.producer == kNoOp || tensor.bytes <= 0) continue;
        std::fill(readLater.begin(), readLater.end(), 0);
        for (const OpId c : tensor.consumers)
            for (size_t k = 0; k < words; ++k) readLater[k] |= before[static_cast<size_t>(c)][k];
        const OpBits& made = after[static_cast<size_t>(tensor.producer)];
        for (size_t k = 0; k < words; ++k)
            for (std::uint64_t both = made[k] & readLater[k]; both != 0; both &= both - 1)
                crossing[k * 64 + static_cast<size_t>(std::countr_zero(both))] += tensor.bytes;
    }
    std::vector<double> bound(n);
    for (OpId v = 0; v < g.opCount(); ++v) {
        double own = g.outputBytes(v) + g.op(v).paramBytes, cut = crossing[static_cast<size_t>(v)];
        for (const TensorId t : g.inputs(v)) {
            const Tensor& input = g.tensor(t);
            own += input.bytes;
            // an input also read after v is already in the cut: count it once
            if (input.producer != kNoOp && std::any_of(input.consumers.begin(), input.consumers.end(),
                                                       [&](OpId c) { return hasOpBit(after[static_cast<size_t>(v)], c); }))
                cut -= input.bytes;
        }
        bound[static_cast<size_t>(v)] = own + cut;
    }
    return bound;
}

double cutMemoryBound(const Graph& g, int devices, int maxOps) {
    const double footprint = footprintBound(g);
    if (g.opCount() > maxOps || devices < 1) return footprint;
    double best = footprint;
    for (const double b : opCutBounds(g, opReachability(g, true), opReachability(g, false)))
        best = std::max(best, b / devices);
    return best;
}

LowerBounds lowerBounds(const Problem& p) {
    LowerBounds b;
    b.criticalPath = criticalPathBound(p);
    b.workPerDevice = workBound(p);
    b.machines = machineBound(p);
    const TransferBounds transfers = transferBounds(p);
    b.transferPath = std::max(b.criticalPath, transfers.criticalPath);
    b.busiestLink = transfers.busiestLink;
    b.makespan = std::max({b.criticalPath, b.workPerDevice, b.machines, b.transferPath, b.busiestLink});
    b.makespanSource = b.makespan == b.criticalPath ? "critical path"
        : b.makespan == b.workPerDevice             ? "work / capacity"
        : b.makespan == b.machines                  ? "machines"
        : b.makespan == b.transferPath              ? "critical path with transfers"
                                                    : "busiest link";
    b.footprint = footprintBound(p.g());
    b.memory = cutMemoryBound(p.g(), p.platform.deviceCount());
    b.memorySource = b.memory > b.footprint ? "tensors live across an op" : "largest op footprint";
    return b;
}

} // namespace sl
