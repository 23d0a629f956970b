// SPDX-License-Identifier: MIT
#include "core/exact/approxmemory.h"

#include "core/exact/setmemory.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <iomanip>
#include <numeric>
#include <sstream>

namespace sl {

namespace {

bool has(const std::uint64_t* set, OpId v) { return (set[static_cast<size_t>(v) >> 6] >> (v & 63)) & 1u; }
std::uint64_t bitOf(OpId v) { return std::uint64_t{1} << (v & 63); }

/// Adds `v` to a ready bitset and its summary of non-zero words.
void markReady(std::uint64_t* ready, std::uint64_t* summary, OpId v) {
    const auto word = static_cast<size_t>(v) >> 6;
    ready[word] |= bitOf(v);
    summary[word >> 6] |= std::uint64_t{1} << (word & 63);
}

/// Zobrist key of an op: a set's hash is the XOR of its ops' keys, so a successor's costs O(1).
std::uint64_t zobristKey(OpId v) {
    std::uint64_t z = static_cast<std::uint64_t>(v) * std::uint64_t{0x9E3779B97F4A7C15} +
        std::uint64_t{0x632BE59BD9B4E019};   // splitmix64
    z = (z ^ (z >> 30)) * std::uint64_t{0xBF58476D1CE4E5B9};
    z = (z ^ (z >> 27)) * std::uint64_t{0x94D049BB133111EB};
    return z ^ (z >> 31);
}

/// The kept sets of one level, with what expanding them needs. Ready ops are a bitset too (a list
/// per set would cost K x width ints on wide graphs), with a summary of its non-zero words so that
/// a scan costs n / 4096 words plus the words holding ready ops, not n / 64.
struct Level {
    size_t words = 0, summaryWords = 0;
    std::vector<std::uint64_t> bits;      ///< words per set
    std::vector<std::uint64_t> ready;     ///< words per set: its ready ops
    std::vector<std::uint64_t> summary;   ///< summaryWords per set: bit w set when ready word w is not 0
    std::vector<double> cost, live;       ///< partial peak, bytes live after the set
    std::vector<std::uint64_t> hash;
    std::vector<std::int32_t> node;   ///< back-pointer node of the step that reached it; -1 for the empty set
    std::vector<int> readyCount;      ///< ready ops per set
    size_t successors = 0;            ///< ready ops summed over the sets: the level's successors before merging

    size_t size() const { return cost.size(); }
    const std::uint64_t* set(size_t i) const { return bits.data() + i * words; }
    const std::uint64_t* readyOf(size_t i) const { return ready.data() + i * words; }
    const std::uint64_t* summaryOf(size_t i) const { return summary.data() + i * summaryWords; }
    void resize(size_t sets) {
        bits.resize(sets * words);
        ready.resize(sets * words);
        summary.resize(sets * summaryWords);
        cost.resize(sets);
        live.resize(sets);
        hash.resize(sets);
        node.resize(sets);
        readyCount.resize(sets);
        successors = 0;
    }
};

/// A successor: set `parent` of the current level plus op `action`.
struct Candidate {
    double cost, live;
    std::uint64_t hash;
    std::int32_t parent;
    OpId action;
};

/// The beam's order: lower partial peak, then fewer live bytes, then generated first.
bool better(const std::vector<Candidate>& c, std::int32_t a, std::int32_t b) {
    const Candidate &x = c[static_cast<size_t>(a)], &y = c[static_cast<size_t>(b)];
    if (x.cost != y.cost) return x.cost < y.cost;
    if (x.live != y.live) return x.live < y.live;
    return a < b;
}

/// Back-pointers of every level as one tree of (parent node, action); only the current level's
/// ancestors are needed, so the others are swept when the tree has doubled.
class BackPointers {
public:
    std::int32_t add(std::int32_t parent, OpId action) {
        m_parent.push_back(parent);
        m_action.push_back(action);
        return static_cast<std::int32_t>(m_parent.size() - 1);
    }
    bool wantsSweep() const { return m_parent.size() >= m_nextSweep; }
    std::vector<OpId> orderTo(std::int32_t node) const {
        std::vector<OpId> order;
        for (std::int32_t x = node; x >= 0; x = m_parent[static_cast<size_t>(x)])
            order.push_back(m_action[static_cast<size_t>(x)]);
        std::reverse(order.begin(), order.end());
        return order;
    }
    /// Keeps the ancestors of `live` (renumbered in place). Parents precede children, so one
    /// forward pass renumbers both.
    void sweep(std::vector<std::int32_t>& live) {
        std::vector<std::int32_t> index(m_parent.size(), -1);
        for (std::int32_t x : live)
            for (; x >= 0 && index[static_cast<size_t>(x)] < 0; x = m_parent[static_cast<size_t>(x)])
                index[static_cast<size_t>(x)] = 0;
        std::int32_t kept = 0;
        for (size_t i = 0; i < m_parent.size(); ++i) {
            if (index[i] < 0) continue;
            const std::int32_t p = m_parent[i];
            m_parent[static_cast<size_t>(kept)] = p < 0 ? -1 : index[static_cast<size_t>(p)];
            m_action[static_cast<size_t>(kept)] = m_action[i];
            index[i] = kept++;
        }
        m_parent.resize(static_cast<size_t>(kept));
        m_action.resize(static_cast<size_t>(kept));
        for (std::int32_t& x : live) x = x < 0 ? -1 : index[static_cast<size_t>(x)];
        m_nextSweep = std::max<size_t>(2 * static_cast<size_t>(kept), kMinSweep);
    }

private:
    static constexpr size_t kMinSweep = size_t{1} << 20;   // 8 MB of nodes
    std::vector<std::int32_t> m_parent;
    std::vector<OpId> m_action;
    size_t m_nextSweep = kMinSweep;
};

/// K, lowered when two levels of sets and ready ops (4 bitsets of n bits per set) would pass 1 GiB.
size_t beamWidth(const ApproxMemoryOptions& options, int ops) {
    constexpr size_t kBudget = size_t{1} << 30;
    const size_t perSet = 4 * 8 * ((static_cast<size_t>(ops) + 63) / 64);
    return std::clamp(static_cast<size_t>(std::max(options.beamWidth, 1)), size_t{1},
                      std::max<size_t>(kBudget / perSet, 1));
}

std::string peakText(double peak) {
    std::ostringstream s;
    s << std::setprecision(12) << peak;
    return s.str();
}

class BeamDp {
public:
    BeamDp(const Graph& g, const ApproxMemoryOptions& options, std::stop_token stop,
           const std::function<void(std::int64_t, double)>& progress, ApproxMemoryResult& result,
           std::chrono::steady_clock::time_point begin)
        : m_g(g), m_n(g.opCount()), m_asked(std::max(options.beamWidth, 1)), m_k(beamWidth(options, m_n)),
          m_cap(std::max<size_t>(4 * m_k, 4096)), m_timeLimit(options.timeLimit), m_stop(std::move(stop)),
          m_progress(progress), m_result(result), m_begin(begin), m_memory(g) {
        m_keys.resize(static_cast<size_t>(m_n));
        for (OpId v = 0; v < m_n; ++v) m_keys[static_cast<size_t>(v)] = zobristKey(v);
        startLevel();
    }

    void run() {
        for (; m_result.levels < m_n; ++m_result.levels) {
            if (stopped() || !expandLevel()) return;
            if (m_cands.empty()) return finishWithIncumbent();   // every successor reached the incumbent's peak
            if (m_cands.size() > m_k) trim();
            m_fullLevels += m_trimmedThisLevel;
            buildNextLevel();
            if (m_progress) m_progress(m_result.levels + 1, m_result.incumbentPeak);
        }
        finishWithDp();
    }

private:
    /// Level 0: the empty set, whose ready ops are the sources.
    void startLevel() {
        m_level.words = m_next.words = (static_cast<size_t>(m_n) + 63) / 64;
        m_level.summaryWords = m_next.summaryWords = (m_level.words + 63) / 64;
        m_level.resize(1);
        m_level.node[0] = -1;
        m_level.readyCount[0] = 0;
        for (OpId v = 0; v < m_n; ++v)
            if (m_g.predecessors(v).empty()) {
                markReady(m_level.ready.data(), m_level.summary.data(), v);
                ++m_level.successors;
                ++m_level.readyCount[0];
            }
    }

    /// Every ready op of every kept set; false when stopped midway.
    bool expandLevel() {
        m_trimmedThisLevel = false;
        resetTable(std::min(m_cap, m_level.successors));
        for (size_t s = 0; s < m_level.size(); ++s) {
            if ((s & 255) == 255 && stopped()) return false;
            const std::uint64_t *ready = m_level.readyOf(s), *summary = m_level.summaryOf(s);
            for (size_t sw = 0; sw < m_level.summaryWords; ++sw)
                for (std::uint64_t nonzero = summary[sw]; nonzero != 0; nonzero &= nonzero - 1) {
                    const size_t w = sw * 64 + static_cast<size_t>(std::countr_zero(nonzero));
                    for (std::uint64_t r = ready[w]; r != 0; r &= r - 1)
                        consider(s, static_cast<OpId>(w * 64 + static_cast<size_t>(std::countr_zero(r))));
                }
        }
        m_result.expanded += static_cast<std::int64_t>(m_level.size());
        return true;
    }

    void consider(size_t s, OpId v) {
        const double next = std::max(m_level.cost[s], m_memory.stepBytes(m_level.live[s], v));
        if (next >= m_result.incumbentPeak) return;             // cannot beat the incumbent
        if (m_trimmedThisLevel && next > m_worstCost) return;   // cannot enter the beam
        const std::uint64_t* set = m_level.set(s);
        const double after = m_memory.liveAfter(v, m_level.live[s], [set, v](OpId c) { return c == v || has(set, c); });
        if (m_trimmedThisLevel && next == m_worstCost && after >= m_worstLive) return;
        insertOrMerge({next, after, m_level.hash[s] ^ m_keys[static_cast<size_t>(v)], static_cast<std::int32_t>(s), v});
        if (m_cands.size() >= m_cap) trim();
    }

    /// Open addressing over m_cands, sized for `expected` successors (at most m_cap).
    void resetTable(size_t expected) { m_table.assign(std::bit_ceil(2 * expected + 2), -1); }

    /// A new set joins the candidates; a set already there keeps the lower partial peak.
    void insertOrMerge(const Candidate& c) {
        const size_t mask = m_table.size() - 1;
        for (size_t h = c.hash & mask;; h = (h + 1) & mask) {
            const std::int32_t i = m_table[h];
            if (i < 0) {
                m_table[h] = static_cast<std::int32_t>(m_cands.size());
                m_cands.push_back(c);
                return;
            }
            Candidate& old = m_cands[static_cast<size_t>(i)];
            if (old.hash != c.hash || !sameSet(old, c)) continue;
            if (c.cost < old.cost) {
                old.cost = c.cost;
                old.parent = c.parent;
                old.action = c.action;
            }
            return;
        }
    }

    /// Whether two successors are the same op set (a hash match is not proof).
    bool sameSet(const Candidate& a, const Candidate& b) const {
        if (a.parent == b.parent) return a.action == b.action;
        const std::uint64_t *x = m_level.set(static_cast<size_t>(a.parent)),
                            *y = m_level.set(static_cast<size_t>(b.parent));
        if (a.action == b.action) return std::equal(x, x + m_level.words, y);
        // x + a = y + b: x holds b, y holds a, and they agree on every other bit.
        if (!has(x, b.action) || !has(y, a.action)) return false;
        const size_t wa = static_cast<size_t>(a.action) >> 6, wb = static_cast<size_t>(b.action) >> 6;
        const size_t lo = std::min(wa, wb), hi = std::max(wa, wb);
        auto same = [x, y](size_t from, size_t to) { return from >= to || std::equal(x + from, x + to, y + from); };
        auto sameBut = [&](size_t w) {
            const std::uint64_t both = (w == wa ? bitOf(a.action) : 0) | (w == wb ? bitOf(b.action) : 0);
            return (x[w] | both) == (y[w] | both);
        };
        return same(0, lo) && same(lo + 1, hi) && same(hi + 1, m_level.words) && sameBut(lo) && sameBut(hi);
    }

    /// Keeps the K best candidates in their generated order; later ones must beat the worst kept.
    void trim() {
        std::vector<std::int32_t> index(m_cands.size());
        std::iota(index.begin(), index.end(), 0);
        const auto k = static_cast<std::ptrdiff_t>(m_k);
        std::nth_element(index.begin(), index.begin() + k - 1, index.end(),
                         [this](std::int32_t a, std::int32_t b) { return better(m_cands, a, b); });
        const Candidate worst = m_cands[static_cast<size_t>(index[static_cast<size_t>(k - 1)])];
        m_keep.assign(m_cands.size(), 0);
        for (size_t i = 0; i < m_k; ++i) m_keep[static_cast<size_t>(index[i])] = 1;
        size_t kept = 0;   // compacted in generated order, which breaks later ties
        for (size_t i = 0; i < m_cands.size(); ++i)
            if (m_keep[i]) m_cands[kept++] = m_cands[i];
        m_cands.resize(kept);
        m_worstCost = worst.cost;
        m_worstLive = worst.live;
        m_trimmedThisLevel = true;
        std::fill(m_table.begin(), m_table.end(), -1);
        const size_t mask = m_table.size() - 1;
        for (size_t i = 0; i < m_cands.size(); ++i) {
            size_t h = m_cands[i].hash & mask;
            while (m_table[h] >= 0) h = (h + 1) & mask;
            m_table[h] = static_cast<std::int32_t>(i);
        }
    }

    /// The candidates become the next level: their sets, back-pointers and ready ops.
    void buildNextLevel() {
        m_next.resize(m_cands.size());
        const size_t words = m_level.words, summaryWords = m_level.summaryWords;
        for (size_t i = 0; i < m_cands.size(); ++i) {
            const Candidate& c = m_cands[i];
            const auto p = static_cast<size_t>(c.parent);
            const size_t word = static_cast<size_t>(c.action) >> 6;
            std::uint64_t* set = m_next.bits.data() + i * words;
            std::uint64_t* ready = m_next.ready.data() + i * words;
            std::uint64_t* summary = m_next.summary.data() + i * summaryWords;
            std::copy(m_level.set(p), m_level.set(p) + words, set);
            std::copy(m_level.readyOf(p), m_level.readyOf(p) + words, ready);
            std::copy(m_level.summaryOf(p), m_level.summaryOf(p) + summaryWords, summary);
            set[word] |= bitOf(c.action);
            ready[word] &= ~bitOf(c.action);
            if (ready[word] == 0) summary[word >> 6] &= ~(std::uint64_t{1} << (word & 63));
            m_next.readyCount[i] = m_level.readyCount[p] - 1 + addEnabled(c.action, set, ready, summary);
            m_next.successors += static_cast<size_t>(m_next.readyCount[i]);
            m_next.cost[i] = c.cost;
            m_next.live[i] = c.live;
            m_next.hash[i] = c.hash;
            m_next.node[i] = m_tree.add(m_level.node[p], c.action);
        }
        std::swap(m_level, m_next);
        m_cands.clear();
        if (m_tree.wantsSweep()) m_tree.sweep(m_level.node);
    }

    /// The successors of `action` whose predecessors are now all in `set` become ready; returns how many.
    int addEnabled(OpId action, const std::uint64_t* set, std::uint64_t* ready, std::uint64_t* summary) const {
        int enabled = 0;
        for (OpId s : m_g.successors(action)) {
            const auto preds = m_g.predecessors(s);
            if (std::all_of(preds.begin(), preds.end(), [set](OpId q) { return has(set, q); })) {
                markReady(ready, summary, s);
                ++enabled;
            }
        }
        return enabled;
    }

    bool stopped() {
        if (m_stop.stop_requested()) {
            m_result.cancelled = true;
            giveUp("cancelled");
            return true;
        }
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_begin).count();
        if (m_timeLimit > 0 && secs >= m_timeLimit) {
            m_result.timedOut = true;
            giveUp("time limit reached");
            return true;
        }
        return false;
    }

    std::string beamText() const {
        std::ostringstream s;
        if (m_fullLevels == 0)
            s << "optimal (beam never full); K = " << m_k;
        else
            s << "K = " << m_k << ", beam full at " << m_fullLevels << " of " << m_n << " levels";
        if (m_k < static_cast<size_t>(m_asked)) s << " (lowered from " << m_asked << " to keep the beam under 1 GiB)";
        return s.str();
    }

    void giveUp(const std::string& why) {
        m_result.note = why + " at level " + std::to_string(m_result.levels) + " of " + std::to_string(m_n) +
            " (K = " + std::to_string(m_k) + "); returning the best classic order (peak " +
            peakText(m_result.incumbentPeak) + ")";
    }

    /// No kept set can beat the incumbent: it stays (proven optimal when the beam never filled).
    void finishWithIncumbent() {
        m_result.beamFull = m_fullLevels > 0;
        m_result.optimal = !m_result.beamFull;
        m_result.note = beamText() + "; the best classic order (peak " + peakText(m_result.incumbentPeak) +
            ") is returned: no set the DP kept could beat it";
    }

    /// The last level holds the full set, strictly below the incumbent's peak.
    void finishWithDp() {
        m_result.beamFull = m_fullLevels > 0;
        m_result.optimal = !m_result.beamFull;
        m_result.fromDp = true;
        m_result.order = m_tree.orderTo(m_level.node[0]);
        m_result.peak = m_level.cost[0];
        m_result.note = beamText() + "; the DP's order (peak " + peakText(m_result.peak) +
            ") beats the best classic order (peak " + peakText(m_result.incumbentPeak) + ")";
    }

    const Graph& m_g;
    const int m_n;
    const int m_asked;    ///< K as given
    const size_t m_k;     ///< beam width: K unless memory lowered it
    const size_t m_cap;   ///< candidates held before a trim
    const double m_timeLimit;
    const std::stop_token m_stop;
    const std::function<void(std::int64_t, double)>& m_progress;
    ApproxMemoryResult& m_result;
    const std::chrono::steady_clock::time_point m_begin;
    const SetStepMemory m_memory;
    std::vector<std::uint64_t> m_keys;   ///< Zobrist key per op
    Level m_level, m_next;
    std::vector<Candidate> m_cands;
    std::vector<std::int32_t> m_table;
    std::vector<char> m_keep;   ///< trim(): kept candidates
    BackPointers m_tree;
    bool m_trimmedThisLevel = false;
    double m_worstCost = 0, m_worstLive = 0;   ///< the worst kept candidate after a trim
    int m_fullLevels = 0;
};

}   // namespace

ApproxMemoryResult approximateMinimumMemory(const Graph& g, const ApproxMemoryOptions& options, std::stop_token stop,
                                            const std::function<void(std::int64_t, double)>& progress) {
    const auto begin = std::chrono::steady_clock::now();
    MemoryOrder incumbent = bestClassicMemoryOrder(g);
    ApproxMemoryResult result;
    result.order = std::move(incumbent.order);
    result.peak = result.incumbentPeak = incumbent.peak;
    if (g.opCount() == 0) {
        result.optimal = true;
        result.note = "optimal (no ops)";
        return result;
    }
    BeamDp dp(g, options, std::move(stop), progress, result, begin);
    dp.run();
    return result;
}

}   // namespace sl
