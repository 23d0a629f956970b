// SPDX-License-Identifier: MIT
#include "core/exact/exactmemory.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/stepmemory.h"
#include "core/heuristics/memoryorders.h"

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

} // namespace

ExactMemoryResult exactMinimumMemory(const Graph& g, const ExactMemoryLimits& limits, std::stop_token stop,
                                     const std::function<void(std::int64_t, double)>& progress) {
    const auto begin = std::chrono::steady_clock::now();
    const int n = g.opCount();
    ExactMemoryResult result;
    // Incumbent: the best memory heuristic.
    StepMemory mem(g, 1);
    for (auto* rule : {&xlaListOrder, &dfsOrder, &postOrder, &bfsOrder}) {
        std::vector<OpId> order = rule(g);
        const double peak = mem.peak(order);
        if (result.order.empty() || peak < result.peak) {
            result.order = std::move(order);
            result.peak = peak;
        }
    }
    const double floor = cutMemoryBound(g, 1);   // a heuristic order that meets it is optimal: no search
    if (n == 0 || result.peak <= floor) {
        result.optimal = true;   // meets the lower bound
        return result;
    }

    // Distinct consumer ops of every tensor (as StepMemory counts them: through inputs()).
    std::vector<std::vector<OpId>> readers(static_cast<size_t>(g.tensorCount()));
    for (OpId v = 0; v < n; ++v)
        for (TensorId t : g.inputs(v)) readers[static_cast<size_t>(t)].push_back(v);
    std::vector<double> deadOutputs(static_cast<size_t>(n), 0);   // outputs nobody reads, freed at once
    for (OpId v = 0; v < n; ++v)
        for (TensorId t : g.outputs(v))
            if (readers[static_cast<size_t>(t)].empty()) deadOutputs[static_cast<size_t>(v)] += g.tensor(t).bytes;

    const int words = (n + 63) / 64;
    StateStore store(words);
    std::vector<double> cost, live;
    std::vector<std::int32_t> parent;
    std::vector<OpId> action;
    std::priority_queue<HeapEntry, std::vector<HeapEntry>, std::greater<>> heap;
    std::vector<std::uint64_t> scratch(static_cast<size_t>(words), 0);
    store.insert(scratch.data());
    cost.push_back(0);
    live.push_back(0);
    parent.push_back(-1);
    action.push_back(kNoOp);
    heap.push({0, 0, 0});

    double lowerBound = floor;
    // Expansions cost O(V + E): on large graphs check the clock and the stop token every time.
    const std::int64_t checkMask = n + g.edgeCount() > 4096 ? 0 : 255;
    auto giveUp = [&](const std::string& why) {
        std::ostringstream s;
        s << why << " after " << store.size() << " states; returning the best heuristic order (peak " << result.peak
          << ", lower bound " << lowerBound << ")";
        result.note = s.str();
    };
    while (!heap.empty()) {
        const HeapEntry top = heap.top();
        heap.pop();
        if (top.cost > cost[static_cast<size_t>(top.state)]) continue;   // stale entry
        if (top.cost >= result.peak) break;   // nothing cheaper than the incumbent is left
        lowerBound = std::max(lowerBound, top.cost);
        if (top.size == n) {
            std::vector<OpId> order;
            for (std::int32_t s = top.state; parent[static_cast<size_t>(s)] >= 0; s = parent[static_cast<size_t>(s)])
                order.push_back(action[static_cast<size_t>(s)]);
            std::reverse(order.begin(), order.end());
            result.order = std::move(order);
            result.peak = top.cost;
            break;
        }
        if ((++result.expanded & checkMask) == 0) {
            if (stop.stop_requested()) {
                result.cancelled = true;
                giveUp("cancelled");
                break;
            }
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            if (limits.timeLimit > 0 && secs >= limits.timeLimit) {
                giveUp("time limit reached");
                break;
            }
            if (progress && (result.expanded & (checkMask == 0 ? 63 : 4095)) == 0) progress(result.expanded, result.peak);
        }
        if (static_cast<std::int64_t>(store.size()) >= limits.maxStates) {
            giveUp("state limit reached");
            break;
        }
        const std::uint64_t* bits = store.bits(top.state);
        std::copy(bits, bits + words, scratch.begin());
        const double baseLive = live[static_cast<size_t>(top.state)];
        for (OpId v = 0; v < n; ++v) {
            if (has(scratch.data(), v)) continue;
            bool ready = true;
            for (OpId q : g.predecessors(v))
                if (!has(scratch.data(), q)) {
                    ready = false;
                    break;
                }
            if (!ready) continue;
            const double step = baseLive + g.outputBytes(v) + g.op(v).paramBytes;
            const double next = std::max(top.cost, step);
            if (next >= result.peak) continue;
            scratch[static_cast<size_t>(v) >> 6] |= std::uint64_t{1} << (v & 63);
            double after = baseLive + g.outputBytes(v) - deadOutputs[static_cast<size_t>(v)];
            for (TensorId t : g.inputs(v)) {
                bool last = true;
                for (OpId c : readers[static_cast<size_t>(t)])
                    if (!has(scratch.data(), c)) {
                        last = false;
                        break;
                    }
                if (last) after -= g.tensor(t).bytes;
            }
            std::int32_t i = store.find(scratch.data());
            if (i < 0) {
                i = store.insert(scratch.data());
                cost.push_back(next);
                live.push_back(after);
                parent.push_back(top.state);
                action.push_back(v);
                heap.push({next, top.size + 1, i});
            } else if (next < cost[static_cast<size_t>(i)]) {
                cost[static_cast<size_t>(i)] = next;
                parent[static_cast<size_t>(i)] = top.state;
                action[static_cast<size_t>(i)] = v;
                heap.push({next, top.size + 1, i});
            }
            scratch[static_cast<size_t>(v) >> 6] &= ~(std::uint64_t{1} << (v & 63));
        }
    }
    result.states = static_cast<std::int64_t>(store.size());
    result.optimal = result.note.empty();
    return result;
}

} // namespace sl
