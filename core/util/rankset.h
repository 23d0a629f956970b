// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A set of small integers in [0, n) with O(log64 n) insert, erase and "next member >= i": a
/// hierarchical bitset (one summary bit per 64-bit word, level by level). The list scheduler keeps
/// its ready ops in one, indexed by priority rank, so scanning them in priority order needs no heap.

#include <bit>
#include <cstdint>
#include <vector>

namespace sl {

class RankSet {
public:
    static constexpr int npos = -1;

    void resize(int n) {
        m_levels.clear();
        int bits = n;
        do {
            const int words = bits > 64 ? (bits + 63) / 64 : 1;
            m_levels.emplace_back(static_cast<size_t>(words), 0);
            bits = words;
        } while (bits > 1);
    }
    void clear() {
        for (auto& l : m_levels) std::fill(l.begin(), l.end(), 0);
    }
    bool empty() const { return m_levels.back()[0] == 0; }

    void insert(int i) {
        for (auto& level : m_levels) {
            std::uint64_t& w = level[static_cast<size_t>(i >> 6)];
            const bool wasEmpty = w == 0;
            w |= std::uint64_t(1) << (i & 63);
            if (!wasEmpty) return;
            i >>= 6;
        }
    }
    void erase(int i) {
        for (auto& level : m_levels) {
            std::uint64_t& w = level[static_cast<size_t>(i >> 6)];
            w &= ~(std::uint64_t(1) << (i & 63));
            if (w != 0) return;
            i >>= 6;
        }
    }
    /// Smallest member >= i, or npos.
    int next(int i) const {
        size_t level = 0;
        // Climb until a word holds a member at or after position i.
        while (true) {
            if (level == m_levels.size()) return npos;
            const auto& words = m_levels[level];
            const auto wi = static_cast<size_t>(i >> 6);
            if (wi >= words.size()) return npos;
            const std::uint64_t w = (i & 63) == 0 ? words[wi] : words[wi] & (~std::uint64_t(0) << (i & 63));
            if (w != 0) {
                i = static_cast<int>((wi << 6) | static_cast<size_t>(std::countr_zero(w)));
                break;
            }
            i = static_cast<int>(wi + 1);   // next word, one level up
            ++level;
        }
        // Descend: take the first member below each summary bit.
        while (level > 0) {
            --level;
            const std::uint64_t w = m_levels[level][static_cast<size_t>(i)];
            i = (i << 6) | std::countr_zero(w);
        }
        return i;
    }

private:
    std::vector<std::vector<std::uint64_t>> m_levels;   ///< [0] = the members, last = one word
};

} // namespace sl
