// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The ready queue of the list scheduler and of REGAL's decoder: items with a fixed double key
/// each, taken highest key first, ties to the smaller item, exactly as ranking every
/// item by PrioritySort would order them, without ranking them.
///
/// How: once per run, each item gets a bucket that is monotone in its key (a linear map of the
/// key range onto about 2n buckets); non-empty buckets are members of a RankSet, and the items
/// of one bucket wait in a short list sorted by exact key. With keys spread over their range (an
/// optimizer's random keys) a push or take is a few bit operations; when keys bunch up (many ties,
/// a few huge outliers) and some bucket would hold more than kMaxShared items, the buckets are the
/// exact ranks instead (PrioritySort), one item each, so no list ever grows long.
///
/// \code
///   sl::PriorityQueue q;
///   q.assign(keys);                  // O(n), per run
///   q.push(3); q.push(7);
///   int first = q.take();            // the one of 3 and 7 with the higher key
/// \endcode

#include "core/util/prioritysort.h"
#include "core/util/rankset.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace sl {

class PriorityQueue {
public:
    /// Empties the queue and sets the items' keys (higher = taken first). The keys are copied.
    void assign(std::span<const double> keys) {
        const size_t n = keys.size();
        resizeFor(n);
        if (!spreadBuckets(keys)) rankBuckets(keys);
        std::fill(m_head.begin(), m_head.end(), -1);
    }

    /// Empties the queue; item i goes before item j iff rankOf[i] < rankOf[j] (a permutation).
    void assignRanks(std::span<const int> rankOf) {
        resizeFor(rankOf.size());
        std::copy(rankOf.begin(), rankOf.end(), m_bucket.begin());
        std::fill(m_head.begin(), m_head.end(), -1);
    }

    bool empty() const { return m_nonEmpty.empty(); }

    void push(int item) {
        const int b = m_bucket[static_cast<size_t>(item)];
        int* link = &m_head[static_cast<size_t>(b)];
        if (*link < 0) {   // the usual case: the bucket was empty
            *link = item;
            m_next[static_cast<size_t>(item)] = -1;
            m_nonEmpty.insert(b);
            return;
        }
        const std::uint64_t image = m_image[static_cast<size_t>(item)];
        while (*link >= 0 && before(*link, item, image)) link = &m_next[static_cast<size_t>(*link)];
        m_next[static_cast<size_t>(item)] = *link;
        *link = item;
    }

    /// Removes and returns the highest-priority item; the queue must not be empty.
    int take() {
        const int b = m_nonEmpty.first();
        int& head = m_head[static_cast<size_t>(b)];
        const int item = head;
        head = m_next[static_cast<size_t>(item)];
        if (head < 0) m_nonEmpty.erase(b);
        return item;
    }

    /// At most this many items share a bucket before assign() falls back to exact ranks.
    static constexpr int kMaxShared = 8;

private:
    void resizeFor(size_t n) {
        if (m_bucket.size() == n) {
            m_nonEmpty.clear();
            return;
        }
        m_bucket.resize(n);
        m_image.resize(n);
        m_next.resize(n);
        m_head.resize(std::max<size_t>(2 * n, 1));
        m_count.resize(m_head.size());
        m_nonEmpty.resize(static_cast<int>(m_head.size()));
    }

    /// Item a goes before item b (whose image is given): higher key, then smaller item.
    bool before(int a, int b, std::uint64_t imageB) const {
        const std::uint64_t imageA = m_image[static_cast<size_t>(a)];
        return imageA < imageB || (imageA == imageB && a < b);
    }

    /// Buckets from the keys' range: bucket 0 holds the highest keys. Returns false when a bucket
    /// would hold more than kMaxShared items.
    bool spreadBuckets(std::span<const double> keys) {
        const size_t n = keys.size();
        double lo = kInf, hi = -kInf;
        for (double k : keys) {   // finite keys only: infinities and NaN clamp to the ends
            const bool finite = std::isfinite(k);
            lo = std::min(lo, finite ? k : lo);
            hi = std::max(hi, finite ? k : hi);
        }
        const int last = static_cast<int>(m_head.size()) - 1;
        const double scale = hi > lo ? static_cast<double>(last) / (hi - lo) : 0.0;
        if (!std::isfinite(scale)) return false;   // a range too wide for a double
        std::fill(m_count.begin(), m_count.end(), 0);
        for (size_t i = 0; i < n; ++i) {
            const double k = keys[i];
            // (hi - k) * scale is monotone in k; keys above hi go first, below lo last, and NaN
            // where descendingImage ranks it: first without its sign bit, last with it.
            const int b = std::isnan(k) ? (std::signbit(k) ? last : 0)
                          : k >= hi     ? 0
                          : k <= lo     ? last
                                        : std::min(static_cast<int>((hi - k) * scale), last);
            m_bucket[i] = b;
            m_image[i] = descendingImage(k);
            ++m_count[static_cast<size_t>(b)];
        }
        return *std::max_element(m_count.begin(), m_count.end()) <= kMaxShared;
    }

    /// Exact ranks as buckets: one item per bucket.
    void rankBuckets(std::span<const double> keys) {
        m_ranks.sort(keys);
        std::copy(m_ranks.rankOf().begin(), m_ranks.rankOf().end(), m_bucket.begin());
    }

    static constexpr double kInf = std::numeric_limits<double>::infinity();

    std::vector<int> m_bucket;             ///< per item
    std::vector<std::uint64_t> m_image;    ///< per item: descendingImage of its key
    std::vector<int> m_next;               ///< per item: the next item of its bucket, or -1
    std::vector<int> m_head;               ///< per bucket: its first item, or -1
    std::vector<int> m_count;              ///< per bucket: items (spreadBuckets' check)
    RankSet m_nonEmpty;                    ///< buckets with a waiting item
    PrioritySort m_ranks;
};

} // namespace sl
