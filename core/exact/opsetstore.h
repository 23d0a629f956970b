// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Op sets (one bit per op, W words each) stored contiguously with an open-addressing index:
/// the states of the set searches over the down-sets of a DAG (exact-memory).

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sl {

/// Whether op `v` (an OpId) is in `set`: bit v of the set's words.
inline bool opInSet(const std::uint64_t* set, std::int32_t v) { return (set[static_cast<size_t>(v) >> 6] >> (v & 63)) & 1u; }

/// Op sets stored contiguously (W words each) with an open-addressing index for lookup.
class OpSetStore {
public:
    explicit OpSetStore(int words) : m_words(static_cast<size_t>(words)), m_table(1u << 12, -1) {}
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

/// Bytes one stored set of `words` words takes in the store (bits and index at its worst load).
inline double opSetStoreBytesPerSet(int words) { return 8.0 * words + 4.0 * 4; }

} // namespace sl
