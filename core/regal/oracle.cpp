// SPDX-License-Identifier: MIT
#include "core/regal/oracle.h"

#include "core/brkga/regaldecoder.h"
#include "core/regal/search.h"

#include <stdexcept>
#include <vector>

namespace sl::regal {

Actions actionsToward(std::span<const int> placement, std::span<const OpId> order, int devices, int k) {
    const auto n = placement.size();
    if (order.size() != n || devices < 1 || k < 1) throw std::invalid_argument("actionsToward: placement and order differ in size");
    Actions a;
    a.ops = static_cast<int>(n);
    a.devices = devices;
    a.k = k;
    a.mean.assign(n * static_cast<size_t>(a.keyTypes()), 0);
    a.variance.assign(a.mean.size(), 0);
    std::vector<bool> seen(n, false);
    for (size_t rank = 0; rank < n; ++rank) {
        const auto v = static_cast<size_t>(order[rank]);
        if (v >= n || seen[v]) throw std::invalid_argument("actionsToward: the order is not a permutation of the ops");
        seen[v] = true;
        const int device = placement[v];
        if (device < 0 || device >= devices) throw std::invalid_argument("actionsToward: a placement outside the devices");
        const int quantile = static_cast<int>(rank * static_cast<size_t>(k) / n);
        a.mean[a.index(static_cast<int>(v), device)] = static_cast<std::uint8_t>(k - 1);
        a.mean[a.index(static_cast<int>(v), devices)] = static_cast<std::uint8_t>(k - 1 - quantile);
    }
    return a;
}

OracleOutcome oracleSearch(const Problem& problem, std::int64_t guideBudget, std::uint64_t guideSeed, std::int64_t budget,
                           std::uint64_t seed) {
    SearchRequest guide;
    guide.budget = guideBudget;
    guide.seed = guideSeed;
    const brkga::Result guided = search(problem, guide).result;
    RegalDecoder decoder(problem);
    decoder.decode(guided.best);
    SearchRequest steered;
    steered.budget = budget;
    steered.seed = seed;
    steered.distributions = geneDistributions(RegalLayout::of(problem),
                                              actionsToward(decoder.placement(), decoder.order(), problem.platform.deviceCount()));
    return {guided.bestCost, search(problem, steered).result.bestCost};
}

} // namespace sl::regal
