// SPDX-License-Identifier: MIT
#include "core/exact/memorysearch.h"

#include <algorithm>
#include <sstream>

namespace sl {

MemorySearch::MemorySearch(const Graph& g, const MemoryStateBound& bound, const ExactMemoryLimits& limits,
                           std::stop_token stop, const ExactMemoryProgress& progress, ExactMemoryResult& result,
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
    const int size = static_cast<int>(m_span.prefix.size());
    addState(-1, kNoOp, 0, live);
    m_heap.push({m_floor, 0, size, 0});
    tryDive(0);
}

void MemorySearch::run() {
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

double MemorySearch::provenBound() { return !m_result.note.empty() && !m_heap.empty() ? raiseBound() : m_result.peak; }

double MemorySearch::raiseBound() {
    const double open = m_heap.empty() ? m_result.peak : std::min(m_result.peak, m_heap.top().key);
    m_proven = std::max({m_proven, m_floor, std::min(open, m_popped)});
    return m_proven;
}

std::int32_t MemorySearch::addState(std::int32_t parent, OpId action, double cost, double live) {
    const std::int32_t i = m_store.insert(m_scratch.data());
    m_cost.push_back(cost);
    m_live.push_back(live);
    m_setBound.push_back(-1);
    m_parent.push_back(parent);
    m_action.push_back(action);
    return i;
}

std::vector<OpId> MemorySearch::orderTo(std::int32_t state) const {
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

void MemorySearch::tryDive(std::int32_t state) {
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

double MemorySearch::spanPeak(const std::vector<OpId>& ops) {
    m_stepMemory.reset();
    for (OpId v : m_span.prefix) m_stepMemory.step(v);
    double peak = 0;
    for (OpId v : ops) peak = std::max(peak, m_stepMemory.step(v));
    return peak;
}

void MemorySearch::giveUp(const std::string& why) {
    std::ostringstream s;
    s << why << " after " << m_store.size() << " states; returning the best order found (peak " << m_result.peak << ")";
    m_result.note = s.str();
}

bool MemorySearch::outOfBudget(std::int32_t state) {
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
        giveUp("memory limit reached (" + std::to_string(static_cast<long long>(m_limits.maxBytes / (1 << 20))) +
               " MiB)");
        return true;
    }
    return false;
}

double MemorySearch::liveAfter(OpId v, double baseLive) const {
    return m_memory.liveAfter(v, baseLive, [this](OpId c) { return opInSet(m_scratch.data(), c); });
}

void MemorySearch::relax(const HeapEntry& top, OpId v, double next, double after, int ran) {
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

void MemorySearch::expand(const HeapEntry& top) {
    const std::uint64_t* bits = m_store.bits(top.state);
    std::copy(bits, bits + m_words, m_scratch.begin());
    const double baseLive = m_live[static_cast<size_t>(top.state)];
    m_steps.clear();
    m_moveOps.clear();
    for (OpId v = 0; v < m_n; ++v) {
        if (opInSet(m_scratch.data(), v) || (m_delayed.delayed(v) && v != m_span.last) ||
            !m_delayed.readyWith(v, m_scratch.data(), m_macro))
            continue;
        const auto [next, live] = runOps(m_macro, top.cost, baseLive);
        if (next >= m_result.peak) continue;
        const bool alone = m_macro.size() == 1 && next <= top.cost;
        double chainLive = 0;
        if (alone && live <= baseLive) {   // forced
            m_steps.clear();
            m_moveOps.clear();
            addStep(next, live, m_macro);
            ++m_result.forcedMoves;
            break;
        }
        if (alone && forcedChain(v, top.cost, baseLive, m_span.goal - top.size, chainLive)) {
            m_steps.clear();
            m_moveOps.clear();
            addStep(top.cost, chainLive, m_chainOps);
            ++m_result.forcedMoves;
            ++m_result.forcedChains;
            break;
        }
        addStep(next, live, m_macro);
    }
    for (const Step& step : m_steps) {
        const std::span<const OpId> ops(m_moveOps.data() + step.first, static_cast<size_t>(step.count));
        for (OpId u : ops) setBit(u, true);
        relax(top, step.op, step.peak, step.live, step.count);
        for (OpId u : ops) setBit(u, false);
    }
}

std::pair<double, double> MemorySearch::runOps(std::span<const OpId> ops, double cost, double live) {
    double peak = cost;
    size_t ran = 0;
    for (; ran < ops.size() && peak < m_result.peak; ++ran) {
        peak = std::max(peak, m_memory.stepBytes(live, ops[ran]));
        setBit(ops[ran], true);
        live = liveAfter(ops[ran], live);
    }
    for (size_t i = 0; i < ran; ++i) setBit(ops[i], false);
    return {peak, live};
}

void MemorySearch::addStep(double peak, double live, std::span<const OpId> ops) {
    m_steps.push_back({ops.back(), peak, live, static_cast<int>(m_moveOps.size()), static_cast<int>(ops.size())});
    m_moveOps.insert(m_moveOps.end(), ops.begin(), ops.end());
}

bool MemorySearch::forcedChain(OpId v, double cost, double baseLive, int room, double& live) {
    m_chainOps.clear();
    live = baseLive;
    bool closed = false;
    const int longest = std::min(kChainLength, room);   // a chain does not run past the span's goal
    for (OpId op = v; op != kNoOp && static_cast<int>(m_chainOps.size()) < longest;) {
        if (m_memory.stepBytes(live, op) > cost) break;
        setBit(op, true);
        m_chainOps.push_back(op);
        live = liveAfter(op, live);
        if (live <= baseLive) {
            closed = true;
            break;
        }
        op = soleReaderReady(op);
    }
    for (OpId u : m_chainOps) setBit(u, false);
    return closed && m_chainOps.size() >= 2;
}

OpId MemorySearch::soleReaderReady(OpId v) const {
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

void MemorySearch::setBit(OpId v, bool on) {
    const std::uint64_t bit = std::uint64_t{1} << (v & 63);
    std::uint64_t& word = m_scratch[static_cast<size_t>(v) >> 6];
    word = on ? (word | bit) : (word & ~bit);
}

}   // namespace sl
