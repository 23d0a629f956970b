// SPDX-License-Identifier: MIT
#include "core/costmodel/memorytimeline.h"

#include "core/costmodel/sharedlinks.h"

#include <algorithm>
#include <map>

namespace sl {

std::vector<ScheduledTransfer> impliedTransfers(const Problem& p, const Schedule& s) {
    const Graph& g = *p.graph;
    std::vector<ScheduledTransfer> out;
    std::vector<int> seen;
    for (TensorId t = 0; t < g.tensorCount(); ++t) {
        const Tensor& x = g.tensor(t);
        const ScheduledOp& prod = s.ops[static_cast<size_t>(x.producer)];
        seen.clear();
        for (OpId c : x.consumers) {
            const int q = s.ops[static_cast<size_t>(c)].device;
            if (q == prod.device || std::find(seen.begin(), seen.end(), q) != seen.end()) continue;
            seen.push_back(q);
            out.push_back({t, prod.device, q, prod.end, prod.end + p.platform.transferTime(prod.device, q, x.bytes)});
        }
    }
    return out;
}

namespace {

/// When links are shared, each transfer's end as the schedule books it, per (tensor, device);
/// empty otherwise (the end is the producer's end plus the transfer time).
std::vector<double> bookedEnds(const Problem& p, const Schedule& s) {
    if (!linksShared(p.platform)) return {};
    const auto devices = static_cast<size_t>(p.platform.deviceCount());
    std::vector<double> end(static_cast<size_t>(p.g().tensorCount()) * devices, 0.0);
    for (const ScheduledTransfer& x : s.transfers) end[static_cast<size_t>(x.tensor) * devices + static_cast<size_t>(x.to)] = x.end;
    return end;
}

} // namespace

std::vector<Residency> residencies(const Problem& p, const Schedule& s) {
    const Graph& g = *p.graph;
    const std::vector<double> booked = bookedEnds(p, s);
    const auto devices = static_cast<size_t>(p.platform.deviceCount());
    std::vector<Residency> out;
    std::map<int, double> lastUse;   // device -> last consumer end, per tensor
    for (TensorId t = 0; t < g.tensorCount(); ++t) {
        const Tensor& x = g.tensor(t);
        const ScheduledOp& prod = s.ops[static_cast<size_t>(x.producer)];
        lastUse.clear();
        for (OpId c : x.consumers) {
            const ScheduledOp& co = s.ops[static_cast<size_t>(c)];
            auto [it, fresh] = lastUse.emplace(co.device, co.end);
            if (!fresh) it->second = std::max(it->second, co.end);
        }
        double freeOnProducer = prod.end;
        for (const auto& [q, end] : lastUse) {
            if (q == prod.device) {
                freeOnProducer = std::max(freeOnProducer, end);
            } else {   // the transfer runs from prod.end and holds the tensor on the source until it ends
                out.push_back({t, x.producer, q, prod.end, end, x.bytes});
                const double arrival = booked.empty() ? prod.end + p.platform.transferTime(prod.device, q, x.bytes)
                                                      : booked[static_cast<size_t>(t) * devices + static_cast<size_t>(q)];
                freeOnProducer = std::max(freeOnProducer, arrival);
            }
        }
        out.push_back({t, x.producer, prod.device, prod.start, freeOnProducer, x.bytes});
    }
    for (OpId v = 0; v < g.opCount(); ++v)
        if (g.op(v).paramBytes > 0) {
            const ScheduledOp& o = s.ops[static_cast<size_t>(v)];
            out.push_back({-1, v, o.device, o.start, o.end, g.op(v).paramBytes});
        }
    return out;
}

MemoryTimeline computeMemoryTimeline(const Problem& p, const Schedule& s) {
    const auto nd = static_cast<size_t>(p.platform.deviceCount());
    struct Ev {
        double time;
        int kind;   // 0 free, 1 alloc, 2 free of a zero-length residency (after the alloc spike)
        double bytes;
    };
    std::vector<std::vector<Ev>> events(nd);
    for (const Residency& r : residencies(p, s)) {
        if (r.bytes == 0) continue;
        auto& ev = events[static_cast<size_t>(r.device)];
        ev.push_back({r.from, 1, r.bytes});
        ev.push_back({r.to, r.to > r.from ? 0 : 2, -r.bytes});
    }
    MemoryTimeline tl;
    tl.curves.resize(nd);
    tl.peaks.assign(nd, 0.0);
    tl.peakTimes.assign(nd, 0.0);
    for (size_t d = 0; d < nd; ++d) {
        auto& ev = events[d];
        std::sort(ev.begin(), ev.end(), [](const Ev& a, const Ev& b) {
            return a.time < b.time || (a.time == b.time && a.kind < b.kind);
        });
        auto& curve = tl.curves[d];
        curve.push_back({0.0, 0.0});
        double live = 0;
        for (size_t i = 0; i < ev.size();) {
            const double time = ev[i].time;
            const int kind = ev[i].kind;
            for (; i < ev.size() && ev[i].time == time && ev[i].kind == kind; ++i) live += ev[i].bytes;
            live = std::max(live, 0.0);   // guard against rounding below zero
            curve.push_back({time, live});   // several points may share a time: draw them as a vertical step
            if (live > tl.peaks[d]) {
                tl.peaks[d] = live;
                tl.peakTimes[d] = time;
            }
        }
        if (tl.peaks[d] > tl.peak) {
            tl.peak = tl.peaks[d];
            tl.peakDevice = static_cast<int>(d);
        }
    }
    return tl;
}

std::vector<Residency> liveAt(const Problem& p, const Schedule& s, int device, double time) {
    std::vector<Residency> out;
    for (const Residency& r : residencies(p, s))
        if (r.device == device && r.bytes > 0 && r.from <= time && (time < r.to || r.from == r.to))
            out.push_back(r);
    std::sort(out.begin(), out.end(), [](const Residency& a, const Residency& b) { return a.bytes > b.bytes; });
    return out;
}

} // namespace sl
