// SPDX-License-Identifier: MIT
#include "core/localsearch/descent.h"

#include "core/localsearch/criticalpath.h"

#include <vector>

namespace sl {

DescentResult descend(ChainSchedule& s, const ChainCost& cost, const std::function<bool()>& interrupted,
                      const std::function<void(const ChainSchedule&, double)>& onMove) {
    DescentResult r;
    s.retime();
    r.cost = cost(s);
    CriticalPath path;
    std::vector<Move> moves;
    while (true) {
        criticalPath(s, path);
        criticalMoves(s, path, moves);
        int chosen = -1;
        double chosenCost = r.cost;
        for (int i = 0; i < static_cast<int>(moves.size()); ++i) {
            if (interrupted && interrupted()) {
                s.retime();
                return r;
            }
            const double c = trialCost(s, moves[static_cast<size_t>(i)], cost);
            ++r.evaluations;
            if (c < chosenCost) {
                chosen = i;
                chosenCost = c;
            }
        }
        if (chosen < 0) {
            s.retime();
            r.localOptimum = true;
            return r;
        }
        applyMove(s, moves[static_cast<size_t>(chosen)]);
        s.retime();
        r.cost = chosenCost;
        ++r.moves;
        if (onMove) onMove(s, r.cost);
    }
}

} // namespace sl
