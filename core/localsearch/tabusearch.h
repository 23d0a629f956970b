// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Tabu search over the critical-path neighbourhood (core/localsearch/moves.h), in the manner of
/// Nowicki & Smutnicki's TSAB (Management Science 42(6), 1996):
///  - each iteration evaluates every move of the current schedule exactly (a full retime) and
///    makes the cheapest one that is not tabu; ties are broken by the seeded generator;
///  - a move made keeps the relation it broke from coming back for a tenure drawn uniformly
///    from [tenureMin, tenureMax] iterations;
///  - aspiration: a tabu move is allowed when it beats the best schedule found;
///  - when every move is tabu, the one made tabu longest ago is taken;
///  - after `restartStall` iterations without a new best, the search goes back to the best
///    schedule, makes `perturbation` random critical moves and forgets the tabu list.
///
/// Single-threaded and deterministic: the same start, parameters and seed give the same
/// sequence of schedules. The caller bounds the run through the `interrupted` predicate, asked
/// before every evaluation (budget, time, cancellation).
///
/// \code
///   sl::TabuSearch ts(sl::ChainSchedule(problem, chains), {}, seed);
///   while (ts.step([&] { return ts.evaluations() >= budget; }) == sl::TabuSearch::Step::Moved) {}
///   sl::Schedule best = sl::timeChains(problem, ts.best());
/// \endcode

#include "core/localsearch/chainschedule.h"
#include "core/localsearch/criticalpath.h"
#include "core/localsearch/moves.h"
#include "core/util/random.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace sl {

struct TabuParams {
    int tenureMin = 8;
    int tenureMax = 15;
    std::int64_t restartStall = 2000;   ///< iterations without a new best; 0 = never restart
    int perturbation = 3;               ///< random critical moves on a restart
    /// Throws std::invalid_argument on a bad combination (tenureMin < 1, max < min, negatives).
    void check() const;
};

class TabuSearch {
public:
    enum class Step {
        Moved,         ///< a move was made
        Restarted,     ///< the search went back to the best schedule, perturbed
        NoMoves,       ///< the critical path has no move (see moves.h: optimal for the makespan)
        Interrupted,   ///< `interrupted` said stop; the current schedule is unchanged
    };

    /// `cost` defaults to the makespan. `start` must be timed without a cycle (a checked one is).
    TabuSearch(ChainSchedule start, const TabuParams& params, std::uint64_t seed, ChainCost cost = makespanCost);

    Step step(const std::function<bool()>& interrupted);

    const ChainSchedule& current() const { return m_current; }
    double currentCost() const { return m_currentCost; }
    const DeviceChains& best() const { return m_best; }
    double bestCost() const { return m_bestCost; }
    std::int64_t evaluations() const { return m_evaluations; }
    std::int64_t iterations() const { return m_iteration; }
    std::int64_t restarts() const { return m_restarts; }
    /// Iterations in which some tabu move was allowed because it beat the best.
    std::int64_t aspirations() const { return m_aspirations; }

private:
    struct TabuEntry {
        std::int64_t since;   ///< iteration the relation was made tabu
        std::int64_t until;   ///< first iteration it is allowed again
    };
    bool isTabu(std::uint64_t relation, std::int64_t* since) const;
    void makeTabu(std::uint64_t relation);
    void restart();
    void noteCurrent();

    ChainSchedule m_current;
    TabuParams m_params;
    Rng m_rng;
    ChainCost m_cost;
    double m_currentCost;
    DeviceChains m_best;
    double m_bestCost;
    std::int64_t m_evaluations = 0, m_iteration = 0, m_lastImprovement = 0, m_restarts = 0, m_aspirations = 0;
    std::unordered_map<std::uint64_t, TabuEntry> m_tabu;
    CriticalPath m_path;
    std::vector<Move> m_moves;
};

} // namespace sl
