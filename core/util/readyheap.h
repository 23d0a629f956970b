// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A min-heap of (key, item) pairs for the list scheduler's ready ops: smallest key first, ties to
/// the smaller item. Key and item are packed into one 128-bit word so that every comparison is a
/// single unsigned compare, and pop() descends to a leaf choosing children without a branch
/// (Floyd's bottom-up deletion), then sifts the last element up: with random priorities the
/// child choice is a coin flip that a branch predictor cannot learn.

#include <cstdint>
#include <vector>

namespace sl {

class ReadyHeap {
public:
    void reserve(size_t n) { m_heap.reserve(n); }
    void clear() { m_heap.clear(); }
    bool empty() const { return m_heap.empty(); }
    size_t size() const { return m_heap.size(); }

    void push(std::uint64_t key, std::uint32_t item) {
        m_heap.push_back(pack(key, item));
        siftUp(m_heap.size() - 1);
    }

    /// Removes and returns the item of the smallest (key, item).
    std::uint32_t pop() {
        const Word top = m_heap.front();
        const Word last = m_heap.back();
        m_heap.pop_back();
        const size_t n = m_heap.size();
        if (n > 0) {
            size_t hole = 0;
            for (size_t child = 1; child < n; child = 2 * hole + 1) {   // to a leaf, smaller child each time
                const size_t right = child + 1;
                child += right < n && m_heap[right] < m_heap[child];
                m_heap[hole] = m_heap[child];
                hole = child;
            }
            m_heap[hole] = last;
            siftUp(hole);
        }
        return static_cast<std::uint32_t>(top);
    }

private:
    using Word = unsigned __int128;
    static Word pack(std::uint64_t key, std::uint32_t item) { return (Word(key) << 32) | item; }

    void siftUp(size_t i) {
        const Word w = m_heap[i];
        while (i > 0) {
            const size_t parent = (i - 1) / 2;
            if (!(w < m_heap[parent])) break;
            m_heap[i] = m_heap[parent];
            i = parent;
        }
        m_heap[i] = w;
    }

    std::vector<Word> m_heap;
};

} // namespace sl
