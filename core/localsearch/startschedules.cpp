// SPDX-License-Identifier: MIT
#include "core/localsearch/startschedules.h"

#include "core/heuristics/evaluate.h"
#include "core/heuristics/heft.h"
#include "core/heuristics/priorities.h"

namespace sl {

std::vector<NamedSchedule> classicSchedules(const Problem& p, std::stop_token stop) {
    std::vector<NamedSchedule> out;
    PriorityEvaluator evaluator(p);
    auto add = [&](const char* method, Schedule s) {
        const double cost = evaluator.costFunction().of(s);
        out.push_back({method, std::move(s), cost});
    };
    add("list-cp", evaluator.schedule(criticalPathPriorities(p.g())));
    add("list-mopnr", evaluator.schedule(mopnrPriorities(p.g())));
    add("list-spt", evaluator.schedule(sptPriorities(p.g())));
    Schedule heft = heftSchedule(p, stop);
    scoreSchedule(p, heft, evaluator.costFunction());
    add("heft", std::move(heft));
    return out;
}

} // namespace sl
