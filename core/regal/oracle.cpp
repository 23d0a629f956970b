// SPDX-License-Identifier: MIT
#include "core/regal/oracle.h"

#include "core/brkga/regaldecoder.h"
#include "core/costmodel/stepmemory.h"
#include "core/heuristics/memoryorders.h"
#include "core/regal/search.h"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace sl::regal {

Actions actionsToward(std::span<const int> placement, std::span<const OpId> order, int devices, int strength) {
    const auto n = placement.size();
    if (order.size() != n || devices < 1) throw std::invalid_argument("actionsToward: placement and order differ in size");
    if (strength < 0 || strength > kMaxShift) throw std::invalid_argument("actionsToward: strength out of range");
    Actions a = Actions::uniform(static_cast<int>(n), devices);
    std::vector<bool> seen(n, false);
    for (size_t rank = 0; rank < n; ++rank) {
        const auto v = static_cast<size_t>(order[rank]);
        if (v >= n || seen[v]) throw std::invalid_argument("actionsToward: the order is not a permutation of the ops");
        seen[v] = true;
        const int device = placement[v];
        if (device < 0 || device >= devices) throw std::invalid_argument("actionsToward: a placement outside the devices");
        a.shift[a.index(static_cast<int>(v), device)] = static_cast<std::int8_t>(strength);
        a.shift[a.index(static_cast<int>(v), devices)] = static_cast<std::int8_t>(std::lround(strength * alongOrder(rank, n)));
    }
    return a;
}

OracleGuide longRunGuide(const Problem& problem, std::int64_t guideBudget, std::uint64_t guideSeed) {
    SearchRequest guide;
    guide.budget = guideBudget;
    guide.seed = guideSeed;
    const brkga::Result guided = search(problem, guide).result;
    RegalDecoder decoder(problem);
    decoder.decode(guided.best);
    return {{decoder.placement().begin(), decoder.placement().end()}, {decoder.order().begin(), decoder.order().end()}, guided.bestCost};
}

OracleGuide classicOrderGuide(const Problem& problem) {
    const Graph& g = problem.g();
    StepMemory memory(g, 1);
    OracleGuide best;
    for (auto* order : {&dfsOrder, &bfsOrder, &postOrder, &xlaListOrder}) {
        std::vector<OpId> o = (*order)(g);
        const double peak = memory.peak(o);
        if (best.order.empty() || peak < best.cost)
            best = {std::vector<int>(static_cast<std::size_t>(g.opCount()), 0), std::move(o), peak};
    }
    return best;
}

Actions freesFirstActions(const Graph& g, int devices, int strength) {
    Actions a = Actions::uniform(g.opCount(), devices);
    for (OpId v = 0; v < g.opCount(); ++v) {
        double read = 0;
        for (const OpId u : g.predecessors(v)) read += g.outputBytes(u);
        const double written = g.outputBytes(v);
        const int sign = written < read ? 1 : written > read ? -1 : 0;
        a.shift[a.index(static_cast<int>(v), devices)] = static_cast<std::int8_t>(sign * strength);
    }
    a.check();
    return a;
}

double steeredBy(const Problem& problem, const Actions& actions, std::int64_t budget, std::uint64_t seed,
                 int steerAfter, LearnedKeys keys) {
    const brkga::Distributions toward = geneDistributions(RegalLayout::of(problem), actions, keys);
    SearchRequest steered;
    steered.budget = budget;
    steered.seed = seed;
    steered.steering = {.afterGeneration = steerAfter, .choose = [&](std::span<const brkga::Chromosome>) { return toward; }};
    return search(problem, steered).result.bestCost;
}

double steeredToward(const Problem& problem, const OracleGuide& guide, std::int64_t budget, std::uint64_t seed,
                     int steerAfter, LearnedKeys keys) {
    return steeredBy(problem, actionsToward(guide.placement, guide.order, problem.platform.deviceCount()), budget, seed,
                     steerAfter, keys);
}

OracleOutcome oracleSearch(const Problem& problem, std::int64_t guideBudget, std::uint64_t guideSeed, std::int64_t budget,
                           std::uint64_t seed, int steerAfter) {
    const OracleGuide guide = longRunGuide(problem, guideBudget, guideSeed);
    return {guide.cost, steeredToward(problem, guide, budget, seed, steerAfter)};
}

} // namespace sl::regal
