// SPDX-License-Identifier: MIT
#include "core/localsearch/polish.h"

#include "core/costmodel/chaintiming.h"
#include "core/localsearch/chainschedule.h"
#include "core/localsearch/descent.h"
#include "core/localsearch/tabusearch.h"

namespace sl {

ChainCost chainCostFor(const Problem& p, const CostFunction& cost) {
    if (p.objective.kind == Objective::Makespan && !cost.needsMemory()) return makespanCost;
    return [&p, &cost](const ChainSchedule& s) {
        Schedule timed = timeChains(p, s.chains());
        return scoreSchedule(p, timed, cost);
    };
}

PolishResult polishSchedule(const Problem& p, Schedule schedule, std::int64_t tabuEvaluations, std::uint64_t seed,
                            const std::function<bool()>& interrupted) {
    const CostFunction cost(p);
    const ChainCost chainCost = chainCostFor(p, cost);
    PolishResult out;
    out.cost = out.startCost = scoreSchedule(p, schedule, cost);
    ChainSchedule chains(p, deviceChains(schedule, p.platform.deviceCount()));
    const DescentResult d = descend(chains, chainCost, interrupted);
    TabuSearch tabu(std::move(chains), TabuParams{}, seed, chainCost);
    auto over = [&] { return tabu.evaluations() >= tabuEvaluations || (interrupted && interrupted()); };
    while (!over()) {
        const TabuSearch::Step step = tabu.step(over);
        if (step == TabuSearch::Step::NoMoves || step == TabuSearch::Step::Interrupted) break;   // optimal, or out of time
    }
    out.evaluations = d.evaluations + tabu.evaluations();
    Schedule polished = timeChains(p, tabu.best());
    const double polishedCost = scoreSchedule(p, polished, cost);
    if (polishedCost < out.cost) {   // chains time a device's ops one at a time: not always better
        polished.method = schedule.method;
        polished.seed = schedule.seed;
        out.schedule = std::move(polished);
        out.cost = polishedCost;
        out.moves = d.moves + tabu.iterations();
    } else {
        out.schedule = std::move(schedule);
    }
    return out;
}

} // namespace sl
