// SPDX-License-Identifier: MIT
#include "core/heuristics/priorities.h"

#include "core/analysis/levels.h"

namespace sl {

std::vector<double> criticalPathPriorities(const Graph& g) {
    const std::vector<double> cp = bottomLevels(g);
    return ranksToKeys(g.opCount(), [&](OpId a, OpId b) { return cp[static_cast<size_t>(a)] > cp[static_cast<size_t>(b)]; });
}

std::vector<double> mopnrPriorities(const Graph& g) {
    const std::vector<double> cp = bottomLevels(g);
    const std::vector<int> ops = remainingOpCounts(g);
    return ranksToKeys(g.opCount(), [&](OpId a, OpId b) {
        const auto ia = static_cast<size_t>(a), ib = static_cast<size_t>(b);
        if (ops[ia] != ops[ib]) return ops[ia] > ops[ib];
        return cp[ia] > cp[ib];
    });
}

std::vector<double> sptPriorities(const Graph& g) {
    const std::vector<double> cp = bottomLevels(g);
    return ranksToKeys(g.opCount(), [&](OpId a, OpId b) {
        const double da = meanDuration(g.op(a)), db = meanDuration(g.op(b));
        if (da != db) return da < db;
        return cp[static_cast<size_t>(a)] > cp[static_cast<size_t>(b)];
    });
}

} // namespace sl
