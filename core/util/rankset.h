// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A set of small integers in [0, n) with O(log64 n) insert, erase, "next member >= i" and
/// "smallest member": a hierarchical bitset (one summary bit per 64-bit word, level by
/// level, all levels in one flat array). The ready queues (sl::PriorityQueue, the list scheduler's
/// general path) keep their non-empty priority buckets in one, so finding the highest-priority
/// ready op is a few count-trailing-zeros instead of a heap's unpredictable sift.

#include <bit>
#include <cstdint>
#include <vector>

namespace sl {

class RankSet {
public:
    static constexpr int npos = -1;

    /// Empties the set and sets its universe to [0, n).
    void resize(int n) {
        m_base.clear();
        size_t total = 0;
        size_t bits = static_cast<size_t>(n > 0 ? n : 1);
        do {   // at least two levels, so that a universe of up to 4,096 takes the fast paths
            const size_t words = (bits + 63) / 64;
            m_base.push_back(total);
            total += words;
            bits = words;
        } while (bits > 1 || m_base.size() < 2);
        m_words.assign(total, 0);
        m_twoLevels = m_base.size() == 2;
    }
    void clear() { std::fill(m_words.begin(), m_words.end(), 0); }
    bool empty() const { return m_words.back() == 0; }

    /// Summary bits may be set again unconditionally: a set bit only says "this word is not empty".
    void insert(int i) {
        auto u = static_cast<size_t>(i);
        if (m_twoLevels) {
            m_words[u >> 6] |= std::uint64_t(1) << (u & 63);
            m_words.back() |= std::uint64_t(1) << (u >> 6);
            return;
        }
        for (size_t base : m_base) {
            m_words[base + (u >> 6)] |= std::uint64_t(1) << (u & 63);
            u >>= 6;
        }
    }
    void erase(int i) {
        auto u = static_cast<size_t>(i);
        if (m_twoLevels) {   // branch-free: whether the word empties is data-dependent
            std::uint64_t& w = m_words[u >> 6];
            w &= ~(std::uint64_t(1) << (u & 63));
            m_words.back() &= ~(std::uint64_t(w == 0) << (u >> 6));
            return;
        }
        for (size_t base : m_base) {
            std::uint64_t& w = m_words[base + (u >> 6)];
            w &= ~(std::uint64_t(1) << (u & 63));
            if (w != 0) return;
            u >>= 6;
        }
    }

    /// The smallest member; the set must not be empty.
    int first() const {
        if (m_twoLevels) {
            const auto w = static_cast<size_t>(std::countr_zero(m_words.back()));
            return static_cast<int>((w << 6) | static_cast<size_t>(std::countr_zero(m_words[w])));
        }
        size_t u = 0;
        for (size_t level = m_base.size(); level-- > 0;)
            u = (u << 6) | static_cast<size_t>(std::countr_zero(m_words[m_base[level] + u]));
        return static_cast<int>(u);
    }

    /// Smallest member >= i, or npos.
    int next(int i) const {
        if (i < 0) i = 0;
        auto u = static_cast<size_t>(i);
        size_t level = 0;
        // Climb until a word holds a member at or after position u.
        while (true) {
            if (level == m_base.size()) return npos;
            const size_t wi = u >> 6;
            const size_t end = level + 1 < m_base.size() ? m_base[level + 1] : m_words.size();
            if (m_base[level] + wi >= end) return npos;
            const std::uint64_t w = m_words[m_base[level] + wi] & (~std::uint64_t(0) << (u & 63));
            if (w != 0) {
                u = (wi << 6) | static_cast<size_t>(std::countr_zero(w));
                break;
            }
            u = wi + 1;   // next word, one level up
            ++level;
        }
        // Descend: take the first member below each summary bit.
        while (level > 0) {
            --level;
            u = (u << 6) | static_cast<size_t>(std::countr_zero(m_words[m_base[level] + u]));
        }
        return static_cast<int>(u);
    }

private:
    std::vector<std::uint64_t> m_words;   ///< level 0 (the members) first, the one-word top last
    std::vector<size_t> m_base;           ///< where each level starts in m_words
    bool m_twoLevels = false;             ///< universe of at most 4,096: unrolled operations
};

} // namespace sl
