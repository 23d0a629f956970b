// SPDX-License-Identifier: MIT
#pragma once
// Independent re-implementations of the cost model's memory clocks, written straight from their
// definitions (docs/costmodel.md; REGAL's §3.1, Paliwal et al. 2020) with none of core/costmodel's
// code: slow (steps x tensors x devices), obviously right, for checking the fast ones. Plus the
// random problem generator the property tests share.

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"
#include "core/util/random.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace sl::reference {

/// Time for `bytes` from device a to device b != a, read off the platform's fields: the link, or
/// the route's summed latencies and narrowest bandwidth (docs/time.md, "Topologies").
inline double transferTime(const Platform& p, int a, int b, double bytes) {
    if (p.topology.empty()) return p.link.latency == 0 && p.link.bandwidth == kInfinity ? 0.0 : p.link.latency + bytes / p.link.bandwidth;
    double latency = 0, bandwidth = kInfinity;
    for (int id : p.topology.routes[static_cast<size_t>(a * p.deviceCount() + b)]) {
        latency += p.topology.links[static_cast<size_t>(id)].latency;
        bandwidth = std::min(bandwidth, p.topology.links[static_cast<size_t>(id)].bandwidth);
    }
    return latency + (bandwidth == kInfinity ? 0.0 : bytes / bandwidth);
}

/// Per-device step-clock peaks of a schedule. The step sequence: ops in `s.order`; each transfer
/// at its `step`, or (step -1) just before the first consumer on its destination.
inline std::vector<double> stepPeaks(const Problem& p, const Schedule& s) {
    const Graph& g = p.g();
    const int D = p.platform.deviceCount();
    struct Node { OpId op; TensorId tensor; int device; };   // op >= 0, or a transfer (tensor, device)
    std::vector<Node> seq;
    const bool explicitSteps = !s.transfers.empty() && s.transfers.front().step >= 0;
    if (explicitSteps) {
        seq.assign(s.order.size() + s.transfers.size(), Node{-2, -1, -1});
        for (const auto& x : s.transfers) seq[static_cast<size_t>(x.step)] = {-1, x.tensor, x.to};
        size_t next = 0;
        for (Node& n : seq)
            if (n.op == -2) n = {s.order[next++], -1, -1};
    } else {
        for (OpId v : s.order) {
            const int q = s.ops[static_cast<size_t>(v)].device;
            for (TensorId t : g.inputs(v)) {
                const int src = s.ops[static_cast<size_t>(g.tensor(t).producer)].device;
                bool already = src == q;
                for (const Node& n : seq) already = already || (n.op < 0 && n.tensor == t && n.device == q);
                if (!already) seq.push_back({-1, t, q});
            }
            seq.push_back({v, -1, -1});
        }
    }
    auto deviceOf = [&](const Node& n) { return n.op >= 0 ? s.ops[static_cast<size_t>(n.op)].device : n.device; };
    std::vector<double> peaks(static_cast<size_t>(D), 0.0);
    for (size_t i = 0; i < seq.size(); ++i) {
        std::vector<double> m(static_cast<size_t>(D), 0.0);
        if (seq[i].op >= 0) m[static_cast<size_t>(deviceOf(seq[i]))] += g.op(seq[i].op).paramBytes;
        for (TensorId t = 0; t < g.tensorCount(); ++t) {
            const Tensor& x = g.tensor(t);
            for (int q = 0; q < D; ++q) {
                // alloc: the producer's step on its device, the transfer's step elsewhere
                long alloc = -1, free = -1;
                for (size_t k = 0; k < seq.size(); ++k) {
                    const Node& n = seq[k];
                    if (n.op == x.producer && deviceOf(n) == q) alloc = static_cast<long>(k);
                    if (n.op < 0 && n.tensor == t && n.device == q) alloc = static_cast<long>(k);
                }
                if (alloc < 0) continue;
                free = alloc;
                for (size_t k = 0; k < seq.size(); ++k) {
                    const Node& n = seq[k];
                    const bool consumer = n.op >= 0 && deviceOf(n) == q &&
                                          std::count(x.consumers.begin(), x.consumers.end(), n.op) > 0;
                    const bool outgoing = n.op < 0 && n.tensor == t && n.device != q &&
                                          s.ops[static_cast<size_t>(x.producer)].device == q;
                    if (consumer || outgoing) free = std::max(free, static_cast<long>(k));
                }
                if (alloc <= static_cast<long>(i) && static_cast<long>(i) <= free) m[static_cast<size_t>(q)] += x.bytes;
            }
        }
        for (int q = 0; q < D; ++q) peaks[static_cast<size_t>(q)] = std::max(peaks[static_cast<size_t>(q)], m[static_cast<size_t>(q)]);
    }
    return peaks;
}

/// Per-device time-clock peaks: at every event instant t, the residencies with from <= t < to,
/// plus those of zero length at t. Residencies: outputs on the producer's device from its start
/// to the end of the producer, its local consumers and its outgoing transfers; copies on a remote
/// device from the producer's end to the end of the last consumer there; parameters while their
/// op runs.
inline std::vector<double> timePeaks(const Problem& p, const Schedule& s) {
    const Graph& g = p.g();
    const int D = p.platform.deviceCount();
    struct Interval { int device; double from, to, bytes; };
    std::vector<Interval> all;
    std::vector<double> instants;
    for (OpId v = 0; v < g.opCount(); ++v) {
        const ScheduledOp& o = s.ops[static_cast<size_t>(v)];
        instants.push_back(o.start);
        instants.push_back(o.end);
        if (g.op(v).paramBytes > 0) all.push_back({o.device, o.start, o.end, g.op(v).paramBytes});
    }
    for (const Tensor& x : g.tensors()) {
        const ScheduledOp& prod = s.ops[static_cast<size_t>(x.producer)];
        double home = prod.end;
        for (int q = 0; q < D; ++q) {
            double last = -1;
            for (OpId c : x.consumers)
                if (s.ops[static_cast<size_t>(c)].device == q) last = std::max(last, s.ops[static_cast<size_t>(c)].end);
            if (last < 0) continue;
            if (q == prod.device) {
                home = std::max(home, last);
            } else {
                const double arrived = prod.end + transferTime(p.platform, prod.device, q, x.bytes);
                home = std::max(home, arrived);
                instants.push_back(arrived);
                all.push_back({q, prod.end, last, x.bytes});
            }
        }
        all.push_back({prod.device, prod.start, home, x.bytes});
    }
    std::vector<double> peaks(static_cast<size_t>(D), 0.0);
    for (double t : instants)
        for (int q = 0; q < D; ++q) {
            double m = 0;
            for (const Interval& r : all)
                if (r.device == q && ((r.from <= t && t < r.to) || (r.from == t && r.to == t))) m += r.bytes;
            peaks[static_cast<size_t>(q)] = std::max(peaks[static_cast<size_t>(q)], m);
        }
    return peaks;
}

inline double maxOf(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

struct Case {
    Problem problem;
    bool positiveDurations = true;
};

/// Random DAG (edge probability p over a random id order), random durations (some zero),
/// whole-byte tensors and parameters, on 1-3 identical devices, sometimes with a costly link or a topology,
/// sometimes with two machine types.
inline Case randomCase(std::uint64_t seed, int minOps = 2, int maxOps = 14) {
    Rng rng(seed);
    const int n = static_cast<int>(rng.integer(minOps, maxOps));
    const double p = rng.uniform(0.1, 0.5);
    const bool typed = rng.uniform() < 0.25;
    Case c;
    auto g = std::make_shared<Graph>();
    std::vector<int> perm(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
    rng.shuffle(perm);   // op i of the DAG gets id perm[i]: ids are not topological
    std::vector<OpId> id(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) g->addOp({.name = "n" + std::to_string(k)});
    for (int i = 0; i < n; ++i) {
        Op& op = g->mutableOp(perm[static_cast<size_t>(i)]);
        op.duration = static_cast<double>(rng.integer(0, 9));
        if (op.duration == 0 && rng.uniform() < 0.7) op.duration = 1;
        c.positiveDurations &= op.duration > 0;
        if (rng.uniform() < 0.3) op.paramBytes = static_cast<double>(rng.integer(1, 5));
        if (typed) op.machineType = static_cast<int>(rng.integer(0, 1));
        id[static_cast<size_t>(i)] = perm[static_cast<size_t>(i)];
    }
    for (int i = 0; i < n; ++i) {
        const TensorId t = g->addTensor("t" + std::to_string(i), id[static_cast<size_t>(i)], static_cast<double>(rng.integer(0, 12)));
        for (int j = i + 1; j < n; ++j)
            if (rng.uniform() < p) g->addConsumer(t, id[static_cast<size_t>(j)]);
        if (rng.uniform() < 0.15) g->addTensor("x" + std::to_string(i), id[static_cast<size_t>(i)], 3);
    }
    g->finalize();
    c.problem.graph = g;
    if (typed) {
        c.problem.platform.devices = {{"gpu0", 0}, {"cpu", 1}, {"gpu1", 0}};
    } else {
        c.problem.platform = Platform::identical(static_cast<int>(rng.integer(1, 3)));
    }
    if (rng.uniform() < 0.4) c.problem.platform.link = {.latency = 1, .bandwidth = 4};
    // Sometimes a topology instead: a port per device with its own latency and bandwidth, each
    // pair routed over the sender's port and the receiver's (drawn last: earlier cases unchanged).
    const int D = c.problem.platform.deviceCount();
    if (D > 1 && rng.uniform() < 0.3) {
        Topology& t = c.problem.platform.topology;
        for (int d = 0; d < D; ++d)
            t.links.push_back({"port" + std::to_string(d), static_cast<double>(rng.integer(0, 2)), static_cast<double>(rng.integer(1, 8))});
        for (int a = 0; a < D; ++a)
            for (int b = 0; b < D; ++b) t.routes.push_back(a == b ? std::vector<int>{} : std::vector<int>{a, b});
        t.finalize(D);
    }
    return c;
}

} // namespace sl::reference
