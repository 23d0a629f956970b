// SPDX-License-Identifier: MIT
#pragma once
// The exact partition function of a tiny GFlowNet problem, by enumerating every labelled terminal
// schedule (the GFlowNet tests' independent reference for log Z).
#include "core/gflownet/environment.h"

#include <cmath>
#include <set>
#include <vector>

namespace sl::gfn {

/// Every labelled terminal schedule (distinct chains), by DFS over forward actions.
inline void enumerateTerminals(const ScheduleEnv& env, PartialSchedule& s, std::set<std::vector<std::vector<OpId>>>& seen,
                        std::vector<double>& makespans) {
    if (s.complete()) {
        std::vector<std::vector<OpId>> chains;
        for (int d = 0; d < env.devices(); ++d) chains.push_back(s.chain(d));
        if (seen.insert(chains).second) makespans.push_back(s.makespan());
        return;
    }
    for (OpId v : s.readyOps())
        for (int d = 0; d < env.devices(); ++d) {
            s.add(v, d);
            enumerateTerminals(env, s, seen, makespans);
            s.remove(v);
        }
}

/// The number of labelled terminal schedules of `p` and the exact log Z = log sum_x R(x; sigma).
struct ExactPartition {
    size_t terminals = 0;
    double logZ = 0;
};
inline ExactPartition exactPartition(const Problem& p, double sigma) {
    const ScheduleEnv env(p);
    PartialSchedule s(env);
    std::set<std::vector<std::vector<OpId>>> seen;
    std::vector<double> makespans;
    enumerateTerminals(env, s, seen, makespans);
    double z = 0;
    for (double t : makespans) z += std::exp(env.logReward(t, sigma));
    return {makespans.size(), std::log(z)};
}

} // namespace sl::gfn
