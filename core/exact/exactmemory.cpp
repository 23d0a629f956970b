// SPDX-License-Identifier: MIT
#include "core/exact/exactmemory.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/stepmemory.h"
#include "core/exact/approxmemory.h"
#include "core/exact/delayedops.h"
#include "core/exact/memorydive.h"
#include "core/exact/memorystatebound.h"
#include "core/exact/opsetstore.h"
#include "core/exact/ordersegments.h"
#include "core/exact/setmemory.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <queue>
#include <sstream>

namespace sl {

namespace {

/// An open set: `key` is a lower bound on any order through it at partial peak `cost`.
struct HeapEntry {
    double key, cost;
    int size;
    std::int32_t state;
    bool operator>(const HeapEntry& o) const {   // least bound first, then larger sets (closer to done)
        if (key != o.key) return key > o.key;
        if (size != o.size) return size < o.size;
        return state > o.state;
    }
};


/// The incumbent: the best of the memory heuristics (the first one wins ties).
ExactMemoryResult bestHeuristicOrder(const Graph& g) {
    MemoryOrder best = bestClassicMemoryOrder(g);
    ExactMemoryResult result;
    result.order = std::move(best.order);
    result.peak = best.peak;
    return result;
}

/// Keeps the DP's order when it is lower than the incumbent.
void keepIfLower(const ApproxMemoryResult& dp, ExactMemoryResult& result) {
    if (dp.peak < result.peak) {
        result.order = dp.order;
        result.peak = dp.peak;
    }
}

/// A narrow approximate DP (mem-approx-dp, K = limits.incumbentBeam, at most a tenth of the time limit)
/// as a second incumbent: where branches interleave (SSD's heads) it finds orders 3 % below every
/// classic one, and a lower incumbent prunes more. It proves the optimum when its beam never fills.
void improveByApproximateDp(const Graph& g, const ExactMemoryLimits& limits, std::stop_token stop, ExactMemoryResult& result) {
    if (limits.incumbentBeam < 1) return;
    const ApproxMemoryResult dp = approximateMinimumMemory(
        g, {.beamWidth = limits.incumbentBeam, .timeLimit = limits.timeLimit > 0 ? 0.1 * limits.timeLimit : 0}, std::move(stop));
    keepIfLower(dp, result);
    result.optimal = dp.optimal && dp.peak <= result.peak;
}

/// When the search stops without a proof: wider approximate DPs with the time left (K = 4, 16,
/// ... x limits.incumbentBeam, up to 16,384 and while K x ops stays within kWidenWork, so the
/// ladder is the same on every machine) for a better order to return. On a one-layer transformer step the search's
/// best is 15.4 MB and K = 10,000 finds 14.1 MB in a second.
void widenIncumbent(const Graph& g, const ExactMemoryLimits& limits, std::chrono::steady_clock::time_point begin,
                    std::stop_token stop, ExactMemoryResult& result) {
    constexpr double kWidenWork = 1.6e7;
    constexpr long long kMaxWidenBeam = 16384;
    for (long long k = 4LL * limits.incumbentBeam; k >= 1 && k <= kMaxWidenBeam && static_cast<double>(k) * g.opCount() <= kWidenWork; k *= 4) {
        double left = 0;
        if (limits.timeLimit > 0) {
            left = limits.timeLimit - std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            if (left <= 0) return;
        }
        if (stop.stop_requested()) return;
        keepIfLower(approximateMinimumMemory(g, {.beamWidth = static_cast<int>(k), .timeLimit = left}, stop), result);
        if (result.peak <= result.lowerBound) return;
    }
}

/// The best-first search over op sets. Each stored set has its partial peak (`cost`), the bytes
/// live after it (`live`), its bound (`setBound`, computed when first popped; -1 before) and the
/// step that reached it at that cost (`parent`, `action`).
/// Where a search starts and ends: after the ops of `prefix` (run first, in any order: only
/// their set matters), until `goal` ops have run. The whole graph: no prefix, every op.
/// `last`, when the span ends at a cut op, is that op: it runs alone at the span's end even when
/// delayed (its readers are all after the span; in every order one of them follows it at once).
struct SearchSpan {
    std::vector<OpId> prefix;
    int goal = 0;
    OpId last = kNoOp;
};

class MemorySearch {
public:
    /// `result` holds the incumbent: the span's ops after the prefix, and the peak of their steps;
    /// `bound`'s floor is a lower bound on the optimum; the time limit counts from `begin`.
    MemorySearch(const Graph& g, const MemoryStateBound& bound, const ExactMemoryLimits& limits, std::stop_token stop,
                 const ExactMemoryProgress& progress, ExactMemoryResult& result,
                 std::chrono::steady_clock::time_point begin, SearchSpan span)
        : m_g(g), m_n(g.opCount()), m_words((m_n + 63) / 64), m_limits(limits), m_stop(std::move(stop)),
          m_progress(progress), m_result(result), m_begin(begin), m_memory(g), m_bound(bound), m_dive(m_memory, g),
          m_store(m_words), m_scratch(static_cast<size_t>(m_words), 0), m_floor(bound.floor()),
          // per set: its bits and index, five fields, about two heap entries
          m_bytesPerState(2 * opSetStoreBytesPerSet(m_words) + 2 * (3 * 8 + 2 * 4) + 2 * sizeof(HeapEntry)),
          // Expansions cost O(V + E): on large graphs check the clock and the stop token every time.
          m_checkMask(m_n + g.edgeCount() > 4096 ? 0 : 255), m_span(std::move(span)) {
        double live = 0;
        for (OpId v : m_span.prefix) {
            setBit(v, true);
            live = liveAfter(v, live);
        }
        m_startLive = live;
        const int size = static_cast<int>(m_span.prefix.size());
        addState(-1, kNoOp, 0, live);
        m_heap.push({m_floor, 0, size, 0});
        tryDive(0);
    }

    void run() {
        while (!m_heap.empty()) {
            const HeapEntry top = m_heap.top();
            if (top.key >= m_result.peak) break;   // nothing cheaper than the incumbent is left
            m_heap.pop();
            const auto s = static_cast<size_t>(top.state);
            if (top.cost > m_cost[s]) continue;   // stale entry
            if (top.size == m_span.goal) {
                m_result.order = orderTo(top.state);
                m_result.peak = top.cost;
                break;
            }
            if (m_setBound[s] < 0) {   // first pop: bound the set, and reopen it if that raises its key
                m_setBound[s] = std::max(m_floor, m_bound.bound(m_store.bits(top.state), m_live[s]));
                if (m_setBound[s] > top.key) {
                    if (m_setBound[s] < m_result.peak) m_heap.push({m_setBound[s], top.cost, top.size, top.state});
                    continue;
                }
            }
            m_popped = top.key;
            if (outOfBudget(top.state)) {
                m_heap.push(top);   // still open: it counts for the bound
                break;
            }
            expand(top);
        }
        m_result.states = static_cast<std::int64_t>(m_store.size());
        m_result.lowerBound = provenBound();
    }

private:
    /// The optimum when the search closed, else the best bound proved on the way.
    double provenBound() { return !m_result.note.empty() && !m_heap.empty() ? raiseBound() : m_result.peak; }

    /// Every order passes through an open set or was pruned at the incumbent, so the least open
    /// key (the incumbent when that is lower; the set being expanded counts as open) bounds the
    /// optimum now. Keys need not rise monotonically (a set's bound may exceed its successors'),
    /// so the proof is the largest of these seen, never below the floor.
    double raiseBound() {
        const double open = m_heap.empty() ? m_result.peak : std::min(m_result.peak, m_heap.top().key);
        m_proven = std::max({m_proven, m_floor, std::min(open, m_popped)});
        return m_proven;
    }

    std::int32_t addState(std::int32_t parent, OpId action, double cost, double live) {
        const std::int32_t i = m_store.insert(m_scratch.data());
        m_cost.push_back(cost);
        m_live.push_back(live);
        m_setBound.push_back(-1);
        m_parent.push_back(parent);
        m_action.push_back(action);
        return i;
    }

    /// The order that reached `state`: each step's action, after the delayed ops it ran with
    /// (the ops its set adds besides the action, in topological order).
    std::vector<OpId> orderTo(std::int32_t state) const {
        std::vector<OpId> reversed;
        for (std::int32_t s = state; m_parent[static_cast<size_t>(s)] >= 0; s = m_parent[static_cast<size_t>(s)]) {
            const OpId action = m_action[static_cast<size_t>(s)];
            reversed.push_back(action);
            const std::vector<OpId> with =
                m_delayed.ranWith(action, m_store.bits(m_parent[static_cast<size_t>(s)]), m_store.bits(s));
            reversed.insert(reversed.end(), with.rbegin(), with.rend());
        }
        std::reverse(reversed.begin(), reversed.end());
        return reversed;
    }

    /// Completes the set `state` greedily to the span's goal; keeps the order when it beats the incumbent.
    void tryDive(std::int32_t state) {
        std::vector<OpId> order = orderTo(state);
        const std::vector<OpId> rest = m_dive.complete(m_store.bits(state));
        // the ops after the goal wait for its last op: the greedy runs the span's first
        const auto spanOps = static_cast<size_t>(m_span.goal) - m_span.prefix.size();
        order.insert(order.end(), rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(spanOps - order.size()));
        const double peak = spanPeak(order);
        if (peak < m_result.peak) {
            m_result.order = std::move(order);
            m_result.peak = peak;
        }
    }

    /// The largest step of `ops` run after the prefix (the search's cost rules).
    double spanPeak(const std::vector<OpId>& ops) {
        std::vector<std::uint64_t> saved = m_scratch;
        std::copy(m_store.bits(0), m_store.bits(0) + m_words, m_scratch.begin());
        double live = m_startLive, peak = 0;
        for (OpId v : ops) {
            peak = std::max(peak, m_memory.stepBytes(live, v));
            setBit(v, true);
            live = liveAfter(v, live);
        }
        m_scratch = std::move(saved);
        return peak;
    }

    void giveUp(const std::string& why) {
        std::ostringstream s;
        s << why << " after " << m_store.size() << " states; returning the best order found (peak " << m_result.peak << ")";
        m_result.note = s.str();
    }

    /// Counts the expansion of `state` and dives from it now and then; true (with the note set)
    /// when cancelled, out of time, states or memory.
    bool outOfBudget(std::int32_t state) {
        if ((++m_result.expanded & m_checkMask) == 0) {
            if (m_stop.stop_requested()) {
                m_result.cancelled = true;
                giveUp("cancelled");
                return true;
            }
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_begin).count();
            if (m_limits.timeLimit > 0 && secs >= m_limits.timeLimit) {
                giveUp("time limit reached");
                return true;
            }
            if (m_progress && (m_result.expanded & (m_checkMask == 0 ? 63 : 4095)) == 0)
                m_progress(m_result.expanded, m_result.peak, raiseBound());
        }
        if ((m_result.expanded & kDiveEvery) == 0) tryDive(state);
        if (static_cast<std::int64_t>(m_store.size()) >= m_limits.maxStates) {
            giveUp("state limit reached");
            return true;
        }
        if (static_cast<double>(m_store.size()) * m_bytesPerState >= m_limits.maxBytes) {
            giveUp("memory limit reached (" + std::to_string(static_cast<long long>(m_limits.maxBytes / (1 << 20))) + " MiB)");
            return true;
        }
        return false;
    }

    bool ready(OpId v) const {
        for (OpId q : m_g.predecessors(v))
            if (!opInSet(m_scratch.data(), q)) return false;
        return true;
    }

    /// Live bytes after the step of `v` (already in m_scratch) from `baseLive` before it.
    double liveAfter(OpId v, double baseLive) const {
        return m_memory.liveAfter(v, baseLive, [this](OpId c) { return opInSet(m_scratch.data(), c); });
    }

    /// Stores the set in m_scratch reached from `top` by `v` at partial peak `next`, or lowers its cost.
    void relax(const HeapEntry& top, OpId v, double next, double after, int ran) {
        std::int32_t i = m_store.find(m_scratch.data());
        if (i < 0) {
            i = addState(top.state, v, next, after);
            m_heap.push({std::max(next, m_floor), next, top.size + ran, i});
        } else if (next < m_cost[static_cast<size_t>(i)]) {
            const auto s = static_cast<size_t>(i);
            m_cost[s] = next;
            m_parent[s] = top.state;
            m_action[s] = v;
            m_heap.push({std::max({next, m_setBound[s], m_floor}), next, top.size + ran, i});
        }
    }

    /// A successor of `top` by ready op `v`: its partial peak and the bytes live after it.
    struct Step {
        OpId op;
        double peak, live;
        std::vector<OpId> ops;   ///< the delayed ops run with it, then `op`
    };

    /// Every ready op appended to `top`'s set, unless that reaches the incumbent's peak; only one
    /// when it is forced (raises neither the partial peak nor the live bytes: moving it to the front
    /// of any completion lowers or keeps every later step, so some optimal completion starts with it).
    /// A delayed op (core/exact/delayedops.h) is not a move of its own: it runs with the first of
    /// its readers, just before it.
    void expand(const HeapEntry& top) {
        const std::uint64_t* bits = m_store.bits(top.state);
        std::copy(bits, bits + m_words, m_scratch.begin());
        const double baseLive = m_live[static_cast<size_t>(top.state)];
        m_steps.clear();
        for (OpId v = 0; v < m_n; ++v) {
            if (opInSet(m_scratch.data(), v) || (m_delayed.delayed(v) && v != m_span.last) ||
                !m_delayed.readyWith(v, m_scratch.data(), m_macro))
                continue;
            double next = top.cost, live = baseLive;
            for (OpId u : m_macro) {
                next = std::max(next, m_memory.stepBytes(live, u));
                setBit(u, true);
                live = liveAfter(u, live);
            }
            for (OpId u : m_macro) setBit(u, false);
            if (next >= m_result.peak) continue;
            if (m_macro.size() == 1 && next <= top.cost && live <= baseLive) {   // forced
                m_steps.assign(1, {v, next, live, m_macro});
                ++m_result.forcedMoves;
                break;
            }
            if (m_macro.size() == 1 && next <= top.cost && forcedChain(v, top.cost, baseLive)) {
                m_steps.assign(1, m_chain);
                ++m_result.forcedMoves;
                ++m_result.forcedChains;
                break;
            }
            m_steps.push_back({v, next, live, m_macro});
        }
        for (const Step& step : m_steps) {
            for (OpId u : step.ops) setBit(u, true);
            relax(top, step.op, step.peak, step.live, static_cast<int>(step.ops.size()));
            for (OpId u : step.ops) setBit(u, false);
        }
    }

    /// A forced chain from the ready op `v` into m_chain: v, then the one reader of all v's
    /// outputs of positive size, then that op's, ... until the live bytes are back at or below
    /// `baseLive`, every step within `cost`. Running it first keeps or lowers every later step of
    /// any completion (docs/heuristics.md, "Forced chains": the live bytes after the chain are at
    /// most those after any part of it, and a completion's steps only gain from it). At most
    /// kChainLength ops; false when the chain leaves the cost, forks or does not return.
    bool forcedChain(OpId v, double cost, double baseLive) {
        m_chain.ops.clear();
        double live = baseLive, peak = 0;
        bool closed = false;
        for (OpId op = v; op != kNoOp && static_cast<int>(m_chain.ops.size()) < kChainLength;) {
            const double step = m_memory.stepBytes(live, op);
            if (step > cost) break;
            peak = std::max(peak, step);
            setBit(op, true);
            m_chain.ops.push_back(op);
            live = liveAfter(op, live);
            if (live <= baseLive) {
                closed = true;
                break;
            }
            op = soleReaderReady(op);
        }
        for (OpId u : m_chain.ops) setBit(u, false);
        if (!closed || m_chain.ops.size() < 2) return false;
        m_chain.op = m_chain.ops.back();
        m_chain.peak = std::max(peak, cost);
        m_chain.live = live;
        return true;
    }

    /// The op that reads every output of `v` of positive size, when there is one and all its
    /// predecessors are in m_scratch; else kNoOp.
    OpId soleReaderReady(OpId v) const {
        OpId reader = kNoOp;
        for (TensorId t : m_g.outputs(v)) {
            if (m_g.tensor(t).bytes <= 0) continue;
            for (OpId c : m_g.tensor(t).consumers) {
                if (reader != kNoOp && c != reader) return kNoOp;
                reader = c;
            }
        }
        if (reader == kNoOp || m_delayed.delayed(reader)) return kNoOp;
        for (OpId q : m_g.predecessors(reader))
            if (!opInSet(m_scratch.data(), q)) return kNoOp;
        return reader;
    }

    void setBit(OpId v, bool on) {
        const std::uint64_t bit = std::uint64_t{1} << (v & 63);
        std::uint64_t& word = m_scratch[static_cast<size_t>(v) >> 6];
        word = on ? (word | bit) : (word & ~bit);
    }

    static constexpr std::int64_t kDiveEvery = 4095;   ///< expansions between dives, minus one
    static constexpr int kChainLength = 16;            ///< longest forced chain tried

    const Graph& m_g;
    const int m_n;
    const int m_words;
    const ExactMemoryLimits& m_limits;
    const std::stop_token m_stop;
    const ExactMemoryProgress& m_progress;
    ExactMemoryResult& m_result;
    const std::chrono::steady_clock::time_point m_begin;
    const SetStepMemory m_memory;
    const MemoryStateBound& m_bound;
    GreedyMemoryDive m_dive;
    OpSetStore m_store;
    std::vector<double> m_cost, m_live, m_setBound;
    std::vector<std::int32_t> m_parent;
    std::vector<OpId> m_action;
    std::priority_queue<HeapEntry, std::vector<HeapEntry>, std::greater<>> m_heap;
    std::vector<std::uint64_t> m_scratch;
    std::vector<Step> m_steps;
    const DelayedOps m_delayed{m_g};
    std::vector<OpId> m_macro;   ///< scratch: a move's ops
    Step m_chain;                ///< scratch: a forced chain
    const double m_floor;
    double m_popped = 0;   ///< key of the set being expanded (off the heap while it is)
    double m_proven = 0;   ///< the best bound raiseBound() has seen
    const double m_bytesPerState;
    const std::int64_t m_checkMask;
    const SearchSpan m_span;
    double m_startLive = 0;   ///< bytes live after the prefix
};

/// The step-clock memory of each step of `order` (the search's cost rules).
std::vector<double> stepsOf(const Graph& g, const std::vector<OpId>& order) {
    const SetStepMemory memory(g);
    std::vector<std::uint64_t> done(static_cast<size_t>((g.opCount() + 63) / 64), 0);
    std::vector<double> steps;
    double live = 0;
    for (OpId v : order) {
        steps.push_back(memory.stepBytes(live, v));
        done[static_cast<size_t>(v) >> 6] |= std::uint64_t{1} << (v & 63);
        live = memory.liveAfter(v, live, [&](OpId c) { return opInSet(done.data(), c); });
    }
    return steps;
}

/// The segments of every order (core/exact/ordersegments.h), `starts` their first positions,
/// searched one by one from the incumbent's: the one with the highest peak first, since a segment
/// whose incumbent is at or below what is proved already cannot lower the optimum and is left as
/// it is. Each gets a share of the time by its ops. What a segment's search proves is a bound on
/// the whole order's peak, so the largest of them is the proof.
void searchSegments(const Graph& g, const MemoryStateBound& bound, const std::vector<int>& starts,
                    const ExactMemoryLimits& limits, std::stop_token stop, const ExactMemoryProgress& progress,
                    ExactMemoryResult& result) {
    const int count = static_cast<int>(starts.size());
    const auto end = [&](int i) { return i + 1 < count ? starts[static_cast<size_t>(i) + 1] : g.opCount(); };
    const std::vector<double> steps = stepsOf(g, result.order);
    std::vector<double> peaks(static_cast<size_t>(count));
    std::vector<int> byPeak(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        peaks[static_cast<size_t>(i)] =
            *std::max_element(steps.begin() + starts[static_cast<size_t>(i)], steps.begin() + end(i));
        byPeak[static_cast<size_t>(i)] = i;
    }
    std::stable_sort(byPeak.begin(), byPeak.end(),
                     [&](int a, int b) { return peaks[static_cast<size_t>(a)] > peaks[static_cast<size_t>(b)]; });
    double proven = bound.floor();
    int opsLeft = 0;
    for (int i = 0; i < count; ++i)
        opsLeft += peaks[static_cast<size_t>(i)] > proven ? end(i) - starts[static_cast<size_t>(i)] : 0;
    const auto begin = std::chrono::steady_clock::now();
    std::string stopped;
    for (const int i : byPeak) {
        const int first = starts[static_cast<size_t>(i)], size = end(i) - first;
        if (peaks[static_cast<size_t>(i)] <= proven) continue;
        ExactMemoryLimits share = limits;
        if (limits.timeLimit > 0) {
            const double left =
                limits.timeLimit - std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            share.timeLimit = std::max(1e-3, left * size / std::max(1, opsLeft));
        }
        opsLeft -= size;
        ExactMemoryResult part;
        part.order.assign(result.order.begin() + first, result.order.begin() + first + size);
        part.peak = peaks[static_cast<size_t>(i)];
        const ExactMemoryProgress partProgress = [&](std::int64_t expanded, double, double partBound) {
            if (progress)
                progress(result.expanded + expanded, *std::max_element(peaks.begin(), peaks.end()),
                         std::max(proven, partBound));
        };
        MemorySearch search(g, bound, share, stop, partProgress, part, std::chrono::steady_clock::now(),
                            {std::vector<OpId>(result.order.begin(), result.order.begin() + first), first + size,
                             i + 1 < count ? result.order[static_cast<size_t>(first + size - 1)] : kNoOp});
        search.run();
        std::copy(part.order.begin(), part.order.end(), result.order.begin() + first);
        peaks[static_cast<size_t>(i)] = part.peak;
        proven = std::max(proven, part.lowerBound);
        result.states += part.states;
        result.expanded += part.expanded;
        result.forcedMoves += part.forcedMoves;
        result.forcedChains += part.forcedChains;
        if (!part.note.empty() && stopped.empty())
            stopped =
                "segment of ops " + std::to_string(first) + "-" + std::to_string(first + size - 1) + ": " + part.note;
        if (part.cancelled) {
            result.cancelled = true;
            break;
        }
    }
    result.peak = *std::max_element(peaks.begin(), peaks.end());
    result.lowerBound = std::min(proven, result.peak);
    if (result.lowerBound < result.peak) result.note = stopped.empty() ? "stopped" : stopped;
}

} // namespace

ExactMemoryResult exactMinimumMemory(const Graph& g, const ExactMemoryLimits& limits, std::stop_token stop,
                                     const ExactMemoryProgress& progress) {
    const auto begin = std::chrono::steady_clock::now();
    ExactMemoryResult result = bestHeuristicOrder(g);
    const MemoryStateBound bound(g);   // the search's set bound; its floor is orderCutBound(g)
    const double floor = bound.floor();   // a heuristic order that meets it is optimal: no search
    if (g.opCount() == 0 || result.peak <= floor) {
        result.optimal = true;   // meets the lower bound
        result.lowerBound = result.peak;
        return result;
    }
    improveByApproximateDp(g, limits, stop, result);
    if (result.optimal || result.peak <= floor) {
        result.optimal = true;
        result.lowerBound = result.peak;
        return result;
    }
    // the search gets three quarters of the time; what it leaves goes to wider DPs
    ExactMemoryLimits searchLimits = limits;
    searchLimits.timeLimit = limits.timeLimit > 0 ? 0.75 * limits.timeLimit : 0;
    const std::vector<int> starts = !limits.bySegments || bound.after().empty()
        ? std::vector<int>{0}
        : orderSegmentStarts(g, bound.after(), bound.before());
    if (starts.size() > 1) {
        searchSegments(g, bound, starts, searchLimits, stop, progress, result);
    } else {
        MemorySearch search(g, bound, searchLimits, stop, progress, result, begin, {{}, g.opCount()});
        search.run();
    }
    result.optimal = result.note.empty() || result.lowerBound >= result.peak;
    if (!result.optimal && !result.cancelled && limits.incumbentBeam > 0) {
        const double searched = result.peak;
        widenIncumbent(g, limits, begin, stop, result);
        result.optimal = result.lowerBound >= result.peak;
        if (result.peak < searched) {
            std::ostringstream s;
            s << "; a wider approximate DP then found peak " << result.peak;
            result.note += s.str();
        }
    }
    return result;
}

} // namespace sl
