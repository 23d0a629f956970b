// SPDX-License-Identifier: MIT
#include "core/exact/ordersegments.h"

#include "core/analysis/bounds.h"

#include <algorithm>
#include <bit>

namespace sl {

namespace {

int countOps(const OpBits& bits) {
    int count = 0;
    for (const std::uint64_t word : bits) count += std::popcount(word);
    return count;
}

}   // namespace

std::vector<int> orderSegmentStarts(const Graph& g, const std::vector<OpBits>& after,
                                    const std::vector<OpBits>& before) {
    const int n = g.opCount();
    std::vector<int> starts{0};
    for (OpId v = 0; v < n; ++v) {
        const int ancestors = countOps(before[static_cast<size_t>(v)]);
        if (ancestors + countOps(after[static_cast<size_t>(v)]) == n - 1 && ancestors + 1 < n)
            starts.push_back(ancestors + 1);
    }
    std::sort(starts.begin(), starts.end());
    return starts;
}

}   // namespace sl
