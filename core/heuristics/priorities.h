// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Static priority rules for list scheduling (Jeon et al., ICLR 2023, App. D). Each returns one key
/// per op, higher = scheduled earlier when ready. The paper gives no tie rule; ours (secondary key
/// CP, larger first, then op id, smaller first: the keys are ranks n..1) is in docs/heuristics.md,
/// "Choices where the papers are silent".

#include "core/graph/graph.h"

#include <vector>

namespace sl {

/// Critical path: CP(v) = duration(v) + max over successors CP(s) (mean per-device durations).
std::vector<double> criticalPathPriorities(const Graph& g);
/// Most operations remaining: MOPNR(v) = 1 + max over successors MOPNR(s); ties by CP.
std::vector<double> mopnrPriorities(const Graph& g);
/// Shortest processing time first: the shortest (mean) duration first; ties by CP.
std::vector<double> sptPriorities(const Graph& g);

/// Keys n..1 for ops sorted by `before` (a strict weak order: true if a goes first); ties by id.
template <typename Less>
std::vector<double> ranksToKeys(int n, Less before);

} // namespace sl

#include <algorithm>
#include <numeric>

template <typename Less>
std::vector<double> sl::ranksToKeys(int n, Less before) {
    std::vector<OpId> ops(static_cast<size_t>(n));
    std::iota(ops.begin(), ops.end(), 0);
    std::stable_sort(ops.begin(), ops.end(), before);
    std::vector<double> key(static_cast<size_t>(n));
    for (size_t i = 0; i < ops.size(); ++i) key[static_cast<size_t>(ops[i])] = static_cast<double>(n - static_cast<int>(i));
    return key;
}
