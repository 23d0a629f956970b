// SPDX-License-Identifier: MIT
#include "core/brkga/decoderbasics.h"

#include "core/heuristics/priorities.h"

#include <algorithm>

namespace sl::brkga {

namespace {

/// Rank keys n..1 scaled into (0, 1]: the same order, hence the same list schedule.
std::vector<double> scaled(std::vector<double> keys) {
    const double n = static_cast<double>(std::max<size_t>(keys.size(), 1));
    for (double& k : keys) k /= n;
    return keys;
}

} // namespace

std::vector<double> criticalPathKeys(const Graph& g) { return scaled(criticalPathPriorities(g)); }

std::vector<std::vector<double>> listHeuristicKeys(const Graph& g) {
    return {scaled(criticalPathPriorities(g)), scaled(mopnrPriorities(g))};
}

} // namespace sl::brkga
