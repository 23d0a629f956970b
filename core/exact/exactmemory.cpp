// SPDX-License-Identifier: MIT
#include "core/exact/exactmemory.h"

#include "core/analysis/bounds.h"
#include "core/exact/setmemory.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <queue>
#include <sstream>

namespace sl {

namespace {

/// Op sets stored contiguously (W words each) with an open-addressing index for lookup.
class StateStore {
public:
    explicit StateStore(int words) : m_words(static_cast<size_t>(words)), m_table(1u << 12, -1) {}
    size_t size() const { return m_count; }
    const std::uint64_t* bits(std::int32_t i) const { return m_bits.data() + static_cast<size_t>(i) * m_words; }
    /// Index of `set`, or -1.
    std::int32_t find(const std::uint64_t* set) const {
        for (size_t h = hash(set) & mask();; h = (h + 1) & mask()) {
            const std::int32_t i = m_table[h];
            if (i < 0) return -1;
            if (std::equal(set, set + m_words, bits(i))) return i;
        }
    }
    std::int32_t insert(const std::uint64_t* set) {
        if (2 * (m_count + 1) > m_table.size()) grow();
        const auto index = static_cast<std::int32_t>(m_count++);
        m_bits.insert(m_bits.end(), set, set + m_words);
        place(index);
        return index;
    }

private:
    size_t mask() const { return m_table.size() - 1; }
    size_t hash(const std::uint64_t* set) const {
        std::uint64_t h = 0x9E3779B97F4A7C15ULL;
        for (size_t w = 0; w < m_words; ++w) {
            h ^= set[w] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
            h *= 0xBF58476D1CE4E5B9ULL;
        }
        return static_cast<size_t>(h ^ (h >> 31));
    }
    void place(std::int32_t index) {
        size_t h = hash(bits(index)) & mask();
        while (m_table[h] >= 0) h = (h + 1) & mask();
        m_table[h] = index;
    }
    void grow() {
        m_table.assign(m_table.size() * 2, -1);
        for (size_t i = 0; i < m_count; ++i) place(static_cast<std::int32_t>(i));
    }
    size_t m_words;
    std::vector<std::uint64_t> m_bits;
    std::vector<std::int32_t> m_table;
    size_t m_count = 0;
};

struct HeapEntry {
    double cost;
    int size;
    std::int32_t state;
    bool operator>(const HeapEntry& o) const {   // min cost first, then larger sets (closer to done)
        if (cost != o.cost) return cost > o.cost;
        if (size != o.size) return size < o.size;
        return state > o.state;
    }
};

bool has(const std::uint64_t* set, OpId v) { return (set[static_cast<size_t>(v) >> 6] >> (v & 63)) & 1u; }

/// The incumbent: the best of the memory heuristics (the first one wins ties).
ExactMemoryResult bestHeuristicOrder(const Graph& g) {
    MemoryOrder best = bestClassicMemoryOrder(g);
    ExactMemoryResult result;
    result.order = std::move(best.order);
    result.peak = best.peak;
    return result;
}

/// The best-first search over op sets. Each stored set has its partial peak (`cost`), the bytes
/// live after it (`live`) and the step that reached it at that cost (`parent`, `action`).
class MemorySearch {
public:
    /// `result` holds the incumbent; `floor` is a lower bound on the optimum; the time limit counts from `begin`.
    MemorySearch(const Graph& g, const ExactMemoryLimits& limits, std::stop_token stop,
                 const std::function<void(std::int64_t, double)>& progress, ExactMemoryResult& result, double floor,
                 std::chrono::steady_clock::time_point begin)
        : m_g(g), m_n(g.opCount()), m_words((m_n + 63) / 64), m_limits(limits), m_stop(std::move(stop)),
          m_progress(progress), m_result(result), m_begin(begin), m_memory(g), m_store(m_words),
          m_scratch(static_cast<size_t>(m_words), 0), m_lowerBound(floor),
          // Expansions cost O(V + E): on large graphs check the clock and the stop token every time.
          m_checkMask(m_n + g.edgeCount() > 4096 ? 0 : 255) {
        m_store.insert(m_scratch.data());
        m_cost.push_back(0);
        m_live.push_back(0);
        m_parent.push_back(-1);
        m_action.push_back(kNoOp);
        m_heap.push({0, 0, 0});
    }

    void run() {
        while (!m_heap.empty()) {
            const HeapEntry top = m_heap.top();
            m_heap.pop();
            if (top.cost > m_cost[static_cast<size_t>(top.state)]) continue;   // stale entry
            if (top.cost >= m_result.peak) break;   // nothing cheaper than the incumbent is left
            m_lowerBound = std::max(m_lowerBound, top.cost);
            if (top.size == m_n) {
                m_result.order = orderTo(top.state);
                m_result.peak = top.cost;
                break;
            }
            if (outOfBudget()) break;
            expand(top);
        }
        m_result.states = static_cast<std::int64_t>(m_store.size());
    }

private:
    std::vector<OpId> orderTo(std::int32_t state) const {
        std::vector<OpId> order;
        for (std::int32_t s = state; m_parent[static_cast<size_t>(s)] >= 0; s = m_parent[static_cast<size_t>(s)])
            order.push_back(m_action[static_cast<size_t>(s)]);
        std::reverse(order.begin(), order.end());
        return order;
    }

    void giveUp(const std::string& why) {
        std::ostringstream s;
        s << why << " after " << m_store.size() << " states; returning the best heuristic order (peak " << m_result.peak
          << ", lower bound " << m_lowerBound << ")";
        m_result.note = s.str();
    }

    /// Counts the expansion; true (with the note set) when cancelled, out of time or out of states.
    bool outOfBudget() {
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
                m_progress(m_result.expanded, m_result.peak);
        }
        if (static_cast<std::int64_t>(m_store.size()) >= m_limits.maxStates) {
            giveUp("state limit reached");
            return true;
        }
        return false;
    }

    bool ready(OpId v) const {
        for (OpId q : m_g.predecessors(v))
            if (!has(m_scratch.data(), q)) return false;
        return true;
    }

    /// Live bytes after the step of `v` (already in m_scratch) from `baseLive` before it.
    double liveAfter(OpId v, double baseLive) const {
        return m_memory.liveAfter(v, baseLive, [this](OpId c) { return has(m_scratch.data(), c); });
    }

    /// Stores the set in m_scratch reached from `top` by `v` at partial peak `next`, or lowers its cost.
    void relax(const HeapEntry& top, OpId v, double next, double after) {
        std::int32_t i = m_store.find(m_scratch.data());
        if (i < 0) {
            i = m_store.insert(m_scratch.data());
            m_cost.push_back(next);
            m_live.push_back(after);
            m_parent.push_back(top.state);
            m_action.push_back(v);
            m_heap.push({next, top.size + 1, i});
        } else if (next < m_cost[static_cast<size_t>(i)]) {
            m_cost[static_cast<size_t>(i)] = next;
            m_parent[static_cast<size_t>(i)] = top.state;
            m_action[static_cast<size_t>(i)] = v;
            m_heap.push({next, top.size + 1, i});
        }
    }

    /// Every ready op appended to `top`'s set, unless that reaches the incumbent's peak.
    void expand(const HeapEntry& top) {
        const std::uint64_t* bits = m_store.bits(top.state);
        std::copy(bits, bits + m_words, m_scratch.begin());
        const double baseLive = m_live[static_cast<size_t>(top.state)];
        for (OpId v = 0; v < m_n; ++v) {
            if (has(m_scratch.data(), v) || !ready(v)) continue;
            const double step = m_memory.stepBytes(baseLive, v);
            const double next = std::max(top.cost, step);
            if (next >= m_result.peak) continue;
            m_scratch[static_cast<size_t>(v) >> 6] |= std::uint64_t{1} << (v & 63);
            relax(top, v, next, liveAfter(v, baseLive));
            m_scratch[static_cast<size_t>(v) >> 6] &= ~(std::uint64_t{1} << (v & 63));
        }
    }

    const Graph& m_g;
    const int m_n;
    const int m_words;
    const ExactMemoryLimits& m_limits;
    const std::stop_token m_stop;
    const std::function<void(std::int64_t, double)>& m_progress;
    ExactMemoryResult& m_result;
    const std::chrono::steady_clock::time_point m_begin;
    const SetStepMemory m_memory;
    StateStore m_store;
    std::vector<double> m_cost, m_live;
    std::vector<std::int32_t> m_parent;
    std::vector<OpId> m_action;
    std::priority_queue<HeapEntry, std::vector<HeapEntry>, std::greater<>> m_heap;
    std::vector<std::uint64_t> m_scratch;
    double m_lowerBound;
    const std::int64_t m_checkMask;
};

} // namespace

ExactMemoryResult exactMinimumMemory(const Graph& g, const ExactMemoryLimits& limits, std::stop_token stop,
                                     const std::function<void(std::int64_t, double)>& progress) {
    const auto begin = std::chrono::steady_clock::now();
    ExactMemoryResult result = bestHeuristicOrder(g);
    const double floor = cutMemoryBound(g, 1);   // a heuristic order that meets it is optimal: no search
    if (g.opCount() == 0 || result.peak <= floor) {
        result.optimal = true;   // meets the lower bound
        return result;
    }
    MemorySearch search(g, limits, std::move(stop), progress, result, floor, begin);
    search.run();
    result.optimal = result.note.empty();
    return result;
}

} // namespace sl
