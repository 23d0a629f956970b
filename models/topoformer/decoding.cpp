// SPDX-License-Identifier: MIT
#include "models/topoformer/decoding.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <queue>
#include <stdexcept>

namespace sl::models {

namespace {

std::vector<int> inDegrees(const Graph& g) {
    std::vector<int> deg(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) deg[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size());
    return deg;
}

void checkSizes(const Graph& g, std::span<const double> priority) {
    if (priority.size() != static_cast<size_t>(g.opCount()))
        throw std::invalid_argument("topoformer decoding: " + std::to_string(priority.size()) + " priorities for " +
                                    std::to_string(g.opCount()) + " ops");
}

double logSumExp(std::span<const double> priority, const std::vector<OpId>& ready) {
    double mx = -kInfinity;
    for (OpId v : ready) mx = std::max(mx, priority[static_cast<size_t>(v)]);
    double s = 0;
    for (OpId v : ready) s += std::exp(priority[static_cast<size_t>(v)] - mx);
    return mx + std::log(s);
}

} // namespace

double orderPeak(const Graph& g, std::span<const OpId> order, bool keepOutputs) {
    StepMemory mem(g, 1);
    mem.keepOutputs = keepOutputs;
    return mem.peak(order);
}

std::vector<OpId> greedyOrder(const Graph& g, std::span<const double> priority) {
    checkSizes(g, priority);
    std::vector<int> deg = inDegrees(g);
    auto lower = [&](OpId a, OpId b) {   // true if a pops after b
        const double pa = priority[static_cast<size_t>(a)], pb = priority[static_cast<size_t>(b)];
        return pa != pb ? pa < pb : a > b;
    };
    std::priority_queue<OpId, std::vector<OpId>, decltype(lower)> heap(lower);
    for (OpId v = 0; v < g.opCount(); ++v)
        if (deg[static_cast<size_t>(v)] == 0) heap.push(v);
    std::vector<OpId> order;
    order.reserve(static_cast<size_t>(g.opCount()));
    while (!heap.empty()) {
        const OpId v = heap.top();
        heap.pop();
        order.push_back(v);
        for (OpId s : g.successors(v))
            if (--deg[static_cast<size_t>(s)] == 0) heap.push(s);
    }
    return order;
}

std::vector<OpId> sampleOrder(const Graph& g, std::span<const double> priority, Rng& rng,
                              std::vector<std::uint8_t>* readyLog) {
    checkSizes(g, priority);
    const int n = g.opCount();
    std::vector<int> deg = inDegrees(g);
    std::vector<OpId> ready, order;
    order.reserve(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v)
        if (deg[static_cast<size_t>(v)] == 0) ready.push_back(v);
    if (readyLog) readyLog->assign(static_cast<size_t>(n) * static_cast<size_t>(n), 0);
    std::vector<double> weight;
    while (!ready.empty()) {
        if (readyLog) {
            std::uint8_t* row = readyLog->data() + order.size() * static_cast<size_t>(n);
            for (OpId v : ready) row[v] = 1;
        }
        double mx = -kInfinity;
        for (OpId v : ready) mx = std::max(mx, priority[static_cast<size_t>(v)]);
        weight.resize(ready.size());
        double total = 0;
        for (size_t i = 0; i < ready.size(); ++i) total += weight[i] = std::exp(priority[static_cast<size_t>(ready[i])] - mx);
        double u = rng.uniform() * total;
        size_t pick = ready.size() - 1;
        for (size_t i = 0; i < ready.size(); ++i) {
            if (u < weight[i]) {
                pick = i;
                break;
            }
            u -= weight[i];
        }
        const OpId v = ready[pick];
        ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(pick));   // keeps the id order stable
        order.push_back(v);
        for (OpId s : g.successors(v))
            if (--deg[static_cast<size_t>(s)] == 0) ready.push_back(s);
    }
    return order;
}

std::vector<std::uint8_t> readySets(const Graph& g, std::span<const OpId> order) {
    const int n = g.opCount();
    if (order.size() != static_cast<size_t>(n)) throw std::invalid_argument("readySets: order is not a permutation");
    std::vector<int> deg = inDegrees(g);
    std::vector<std::uint8_t> scheduled(static_cast<size_t>(n), 0), out(static_cast<size_t>(n) * static_cast<size_t>(n), 0);
    std::vector<std::uint8_t> isReady(static_cast<size_t>(n), 0);
    for (OpId v = 0; v < n; ++v) isReady[static_cast<size_t>(v)] = deg[static_cast<size_t>(v)] == 0;
    for (size_t t = 0; t < order.size(); ++t) {
        const OpId v = order[t];
        if (v < 0 || v >= n || scheduled[static_cast<size_t>(v)] || !isReady[static_cast<size_t>(v)])
            throw std::invalid_argument("readySets: order is not topological at step " + std::to_string(t));
        std::copy(isReady.begin(), isReady.end(), out.begin() + static_cast<std::ptrdiff_t>(t * static_cast<size_t>(n)));
        scheduled[static_cast<size_t>(v)] = 1;
        isReady[static_cast<size_t>(v)] = 0;
        for (OpId s : g.successors(v))
            if (--deg[static_cast<size_t>(s)] == 0) isReady[static_cast<size_t>(s)] = 1;
    }
    return out;
}

double plackettLuceLogProb(const Graph& g, std::span<const double> priority, std::span<const OpId> order) {
    checkSizes(g, priority);
    const int n = g.opCount();
    const std::vector<std::uint8_t> ready = readySets(g, order);
    double logp = 0;
    std::vector<OpId> set;
    for (size_t t = 0; t < order.size(); ++t) {
        set.clear();
        for (OpId v = 0; v < n; ++v)
            if (ready[t * static_cast<size_t>(n) + static_cast<size_t>(v)]) set.push_back(v);
        logp += priority[static_cast<size_t>(order[t])] - logSumExp(priority, set);
    }
    return logp;
}

DecodeResult bestOfSamples(const Graph& g, std::span<const double> priority, int samples, Rng& rng, bool keepOutputs) {
    StepMemory mem(g, 1);
    mem.keepOutputs = keepOutputs;
    DecodeResult best;
    best.peak = kInfinity;
    for (int s = 0; s < std::max(1, samples); ++s) {
        std::vector<OpId> order = sampleOrder(g, priority, rng);
        const double peak = mem.peak(order);
        ++best.evaluated;
        if (peak < best.peak) {
            best.peak = peak;
            best.order = std::move(order);
        }
    }
    return best;
}

namespace {

struct BeamEntry {
    std::vector<std::uint64_t> bits;   ///< scheduled ops
    std::vector<int> deg;              ///< unscheduled predecessors per op
    std::vector<OpId> ready;
    std::vector<OpId> order;
    std::unique_ptr<StepMemory> mem;   ///< step clock after `order`
    double logp = 0;
    std::uint64_t hash = 0;
};

struct Candidate {
    int parent = 0;
    OpId op = 0;
    double logp = 0;
    std::uint64_t hash = 0;
    std::unique_ptr<StepMemory> mem;   ///< materialised on demand
    double peak() const { return mem->peakSoFar(); }
};

/// True iff a's op set plus `va` equals b's op set plus `vb` (the exact check behind a hash match).
bool sameSet(const BeamEntry& a, OpId va, const BeamEntry& b, OpId vb) {
    if (va == vb) return a.bits == b.bits;
    auto has = [](const BeamEntry& e, OpId v) { return (e.bits[static_cast<size_t>(v) / 64] >> (v % 64)) & 1u; };
    if (!has(a, vb) || !has(b, va)) return false;
    for (size_t i = 0; i < a.bits.size(); ++i) {
        std::uint64_t x = a.bits[i], y = b.bits[i];
        if (static_cast<size_t>(va) / 64 == i) x |= std::uint64_t{1} << (va % 64);
        if (static_cast<size_t>(vb) / 64 == i) y |= std::uint64_t{1} << (vb % 64);
        if (x != y) return false;
    }
    return true;
}

/// One random key per op; an op set hashes to the XOR of its members' keys (Zobrist hashing),
/// so a candidate's hash is its parent's with one key flipped. Fixed seed: deterministic.
std::vector<std::uint64_t> zobristKeys(int n) {
    std::vector<std::uint64_t> zobrist(static_cast<size_t>(n));
    Rng rng(0x70b0f0);
    for (auto& z : zobrist) z = rng.bits();
    return zobrist;
}

/// The empty prefix: nothing scheduled, the sources ready, a fresh step clock.
BeamEntry rootEntry(const Graph& g, bool keepOutputs) {
    BeamEntry root;
    root.bits.assign((static_cast<size_t>(g.opCount()) + 63) / 64, 0);
    root.deg = inDegrees(g);
    for (OpId v = 0; v < g.opCount(); ++v)
        if (root.deg[static_cast<size_t>(v)] == 0) root.ready.push_back(v);
    root.mem = std::make_unique<StepMemory>(g, 1);
    root.mem->keepOutputs = keepOutputs;
    root.mem->reset();
    return root;
}

/// Every entry extended by every op it has ready, with the prefix's log-probability under
/// eq. 8 and the hash of its op set. Replaces the contents of `cands`.
void expand(const std::vector<BeamEntry>& beam, std::span<const double> priority,
            const std::vector<std::uint64_t>& zobrist, std::vector<Candidate>& cands) {
    cands.clear();
    for (size_t i = 0; i < beam.size(); ++i) {
        const BeamEntry& e = beam[i];
        const double lse = logSumExp(priority, e.ready);
        for (OpId v : e.ready)
            cands.push_back({.parent = static_cast<int>(i), .op = v,
                             .logp = e.logp + priority[static_cast<size_t>(v)] - lse,
                             .hash = e.hash ^ zobrist[static_cast<size_t>(v)]});
    }
}

/// Gives a candidate its step clock (its parent's, one op further) the first time it is needed:
/// most candidates are never compared by peak.
void materialise(Candidate& c, const std::vector<BeamEntry>& beam) {
    if (c.mem) return;
    c.mem = std::make_unique<StepMemory>(*beam[static_cast<size_t>(c.parent)].mem);
    c.mem->step(c.op);
}

/// Candidates sharing one hash: splits them into true equal-set groups (a 64-bit collision is
/// astronomically rare) and appends each group's representative to `reps`, the lowest partial
/// peak, then the higher log-prob, then the earlier candidate.
void collapseSameHash(std::vector<size_t> group, std::vector<Candidate>& cands, const std::vector<BeamEntry>& beam,
                      std::vector<size_t>& reps) {
    while (!group.empty()) {
        const size_t first = group.front();
        const Candidate& f = cands[first];
        size_t best = first;
        std::vector<size_t> rest;
        materialise(cands[first], beam);
        for (size_t k = 1; k < group.size(); ++k) {
            Candidate& c = cands[group[k]];
            if (!sameSet(beam[static_cast<size_t>(f.parent)], f.op, beam[static_cast<size_t>(c.parent)], c.op)) {
                rest.push_back(group[k]);
                continue;
            }
            materialise(c, beam);
            const Candidate& b = cands[best];
            if (c.peak() < b.peak() || (c.peak() == b.peak() && c.logp > b.logp)) best = group[k];
        }
        reps.push_back(best);
        group = std::move(rest);
    }
}

/// Collapse: `reps` receives one candidate index per distinct op set, in hash order.
/// `byHash` is scratch space.
void collapse(std::vector<Candidate>& cands, const std::vector<BeamEntry>& beam, std::vector<size_t>& byHash,
              std::vector<size_t>& reps) {
    byHash.resize(cands.size());
    std::iota(byHash.begin(), byHash.end(), size_t{0});
    std::sort(byHash.begin(), byHash.end(), [&](size_t a, size_t b) {
        return cands[a].hash != cands[b].hash ? cands[a].hash < cands[b].hash : a < b;
    });
    reps.clear();
    for (size_t i = 0; i < byHash.size();) {
        size_t j = i;
        while (j < byHash.size() && cands[byHash[j]].hash == cands[byHash[i]].hash) ++j;
        if (j - i == 1) {
            reps.push_back(byHash[i]);
        } else {
            const auto first = byHash.begin() + static_cast<std::ptrdiff_t>(i);
            collapseSameHash({first, first + static_cast<std::ptrdiff_t>(j - i)}, cands, beam, reps);
        }
        i = j;
    }
}

/// Truncate: keeps the `width` most probable representatives (ties: earlier candidate), most
/// probable first.
void keepMostProbable(const std::vector<Candidate>& cands, int width, std::vector<size_t>& reps) {
    const size_t keep = std::min(reps.size(), static_cast<size_t>(width));
    std::partial_sort(reps.begin(), reps.begin() + static_cast<std::ptrdiff_t>(keep), reps.end(),
                      [&](size_t a, size_t b) {
                          return cands[a].logp != cands[b].logp ? cands[a].logp > cands[b].logp : a < b;
                      });
    reps.resize(keep);
}

/// The beam entry a kept candidate becomes: its parent's prefix plus its op. Takes the
/// candidate's step clock.
BeamEntry extend(const Graph& g, const std::vector<BeamEntry>& beam, Candidate& c) {
    materialise(c, beam);
    const BeamEntry& p = beam[static_cast<size_t>(c.parent)];
    BeamEntry e;
    e.bits = p.bits;
    e.bits[static_cast<size_t>(c.op) / 64] |= std::uint64_t{1} << (c.op % 64);
    e.deg = p.deg;
    e.ready.reserve(p.ready.size() + 4);
    for (OpId v : p.ready)
        if (v != c.op) e.ready.push_back(v);
    for (OpId s : g.successors(c.op))
        if (--e.deg[static_cast<size_t>(s)] == 0) e.ready.push_back(s);
    e.order.reserve(static_cast<size_t>(g.opCount()));
    e.order = p.order;
    e.order.push_back(c.op);
    e.mem = std::move(c.mem);
    e.logp = c.logp;
    e.hash = c.hash;
    return e;
}

/// The complete order to return: the lowest peak, then the higher log-prob, then the earlier entry.
const BeamEntry& lowestPeak(const std::vector<BeamEntry>& beam) {
    const BeamEntry* best = &beam[0];
    for (const BeamEntry& e : beam) {
        const double pe = e.mem->peakSoFar(), pb = best->mem->peakSoFar();
        if (pe < pb || (pe == pb && e.logp > best->logp)) best = &e;
    }
    return *best;
}

} // namespace

DecodeResult beamSearch(const Graph& g, std::span<const double> priority, int width, bool keepOutputs) {
    checkSizes(g, priority);
    const int n = g.opCount();
    width = std::max(1, width);
    DecodeResult result;
    if (n == 0) return result;
    const std::vector<std::uint64_t> zobrist = zobristKeys(n);
    std::vector<BeamEntry> beam;
    beam.push_back(rootEntry(g, keepOutputs));
    std::vector<Candidate> cands;
    std::vector<size_t> byHash, reps;   // reused across steps
    for (int t = 0; t < n; ++t) {
        expand(beam, priority, zobrist, cands);
        result.evaluated += static_cast<std::int64_t>(cands.size());
        collapse(cands, beam, byHash, reps);
        keepMostProbable(cands, width, reps);
        std::vector<BeamEntry> next;
        next.reserve(reps.size());
        for (size_t r : reps) next.push_back(extend(g, beam, cands[r]));
        beam = std::move(next);
    }
    const BeamEntry& best = lowestPeak(beam);
    result.order = best.order;
    result.peak = best.mem->peakSoFar();
    return result;
}

} // namespace sl::models
