// SPDX-License-Identifier: MIT
#include "core/optimizer/resultbound.h"

namespace sl {

CostBound tightestBound(const Problem& p, const RunResult& r, const LowerBounds& analytic) {
    switch (p.objective.kind) {
    case Objective::Makespan:
        if (r.lowerBound > analytic.makespan) return {r.lowerBound, "proved by the run", true};
        return {analytic.makespan, analytic.makespanSource, false};
    case Objective::Memory: {
        const bool stepClockOneDevice = p.objective.memoryClock == MemoryClock::Step && p.platform.deviceCount() == 1;
        const bool closed = r.lowerBound > 0 && r.lowerBound >= r.schedule.peakMemory();
        if (stepClockOneDevice && (r.lowerBound > analytic.memory || closed)) {
            return {r.lowerBound, closed ? "proven optimum" : "search bound", true};
        }
        return {analytic.memory, std::string("cut bound: ") + analytic.memorySource, false};
    }
    case Objective::Weighted: break;
    }
    return {};
}

}   // namespace sl
