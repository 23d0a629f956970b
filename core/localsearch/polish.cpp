// SPDX-License-Identifier: MIT
#include "core/localsearch/polish.h"

#include "core/costmodel/chaintiming.h"
#include "core/costmodel/sharedlinks.h"
#include "core/localsearch/chainschedule.h"
#include "core/localsearch/descent.h"
#include "core/localsearch/tabusearch.h"

#include <cstdio>

namespace sl {

ChainCost chainCostFor(const Problem& p, const CostFunction& cost) {
    if (p.objective.kind == Objective::Makespan && !cost.needsMemory()) return makespanCost;
    return [&p, &cost](const ChainSchedule& s) {
        Schedule timed = timeChainsOnPlatform(p, s.chains());
        return scoreSchedule(p, timed, cost);
    };
}

PolishResult polishSchedule(const Problem& p, Schedule schedule, std::int64_t tabuEvaluations, std::uint64_t seed,
                            const std::function<bool()>& interrupted) {
    const CostFunction cost(p);
    scoreSchedule(p, schedule, cost);
    return polishScored(p, cost, std::move(schedule), tabuEvaluations, seed, interrupted);
}

PolishResult polishScored(const Problem& p, const CostFunction& cost, Schedule schedule, std::int64_t tabuEvaluations,
                          std::uint64_t seed, const std::function<bool()>& interrupted) {
    const ChainCost chainCost = chainCostFor(p, cost);
    PolishResult out;
    out.cost = out.startCost = cost.of(schedule);
    ChainSchedule chains(p, deviceChains(schedule, p.platform.deviceCount()));
    const DescentResult d = descend(chains, chainCost, interrupted);
    out.evaluations = d.evaluations;
    std::int64_t tabuIterations = 0;
    if (tabuEvaluations > 0) {
        TabuSearch tabu(chains, TabuParams{}, seed, chainCost);
        auto over = [&] { return tabu.evaluations() >= tabuEvaluations || (interrupted && interrupted()); };
        while (!over()) {
            const TabuSearch::Step step = tabu.step(over);
            if (step == TabuSearch::Step::NoMoves || step == TabuSearch::Step::Interrupted) break;   // optimal, or out of time
        }
        out.evaluations += tabu.evaluations();
        tabuIterations = tabu.iterations();
        if (tabu.bestCost() < d.cost) chains = ChainSchedule(p, tabu.best());
    }
    Schedule polished = timeChainsOnPlatform(p, chains.chains());   // the search's chains, on booked links when shared
    const double polishedCost = scoreSchedule(p, polished, cost);
    if (polishedCost < out.cost) {   // chains time a device's ops one at a time: not always better
        polished.method = schedule.method;
        polished.seed = schedule.seed;
        out.schedule = std::move(polished);
        out.cost = polishedCost;
        out.moves = d.moves + tabuIterations;
    } else {
        out.schedule = std::move(schedule);
    }
    return out;
}

void polishResult(const Problem& p, RunResult& r, std::int64_t tabuEvaluations, std::uint64_t seed,
                  const std::function<bool()>& interrupted) {
    if (tabuEvaluations <= 0) return;
    PolishResult polished = polishSchedule(p, std::move(r.schedule), tabuEvaluations, seed, interrupted);
    r.evaluations += polished.evaluations;
    char note[128];
    std::snprintf(note, sizeof note, "; polished: %lld moves, cost %.10g -> %.10g", static_cast<long long>(polished.moves),
                  polished.startCost, polished.cost);
    r.note += note;
    r.schedule = std::move(polished.schedule);
}

OptionSpec polishOption() {
    return {.key = "polish", .label = "Polish (evals)", .kind = OptionSpec::Kind::Int, .defaultValue = 0, .min = 0, .max = 1e9,
            .help = "improve the best schedule: descent, then a tabu search of this many evaluations (0 = off; never worse)"};
}

} // namespace sl
