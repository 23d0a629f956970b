// SPDX-License-Identifier: MIT
#include "core/localsearch/tabusearch.h"

#include <limits>
#include <stdexcept>

namespace sl {

void TabuParams::check() const {
    if (tenureMin < 1 || tenureMax < tenureMin)
        throw std::invalid_argument("tabu: the tenure range needs 1 <= tenure-min <= tenure-max");
    if (restartStall < 0 || perturbation < 0)
        throw std::invalid_argument("tabu: restart-stall and perturbation must not be negative");
}

TabuSearch::TabuSearch(ChainSchedule start, const TabuParams& params, std::uint64_t seed, ChainCost cost)
    : m_current(std::move(start)), m_params(params), m_rng(seed), m_cost(std::move(cost)) {
    m_params.check();
    m_current.retime();
    m_currentCost = m_cost(m_current);
    m_best = m_current.chains();
    m_bestCost = m_currentCost;
}

bool TabuSearch::isTabu(std::uint64_t relation, std::int64_t* since) const {
    const auto it = m_tabu.find(relation);
    if (it == m_tabu.end() || it->second.until <= m_iteration) return false;
    *since = it->second.since;
    return true;
}

void TabuSearch::makeTabu(std::uint64_t relation) {
    const std::int64_t tenure = m_rng.integer(m_params.tenureMin, m_params.tenureMax);
    m_tabu[relation] = {m_iteration, m_iteration + tenure};
    // Expired entries only cost memory; drop them now and then.
    if (m_tabu.size() > static_cast<size_t>(8 * m_params.tenureMax))
        std::erase_if(m_tabu, [&](const auto& e) { return e.second.until <= m_iteration; });
}

TabuSearch::Step TabuSearch::step(const std::function<bool()>& interrupted) {
    criticalPath(m_current, m_path);
    criticalMoves(m_current, m_path, m_moves);
    if (m_moves.empty()) return Step::NoMoves;

    int chosen = -1, ties = 0, oldest = -1;
    double chosenCost = kInfinity, oldestCost = kInfinity;
    std::int64_t oldestSince = std::numeric_limits<std::int64_t>::max();
    bool aspired = false;
    for (int i = 0; i < static_cast<int>(m_moves.size()); ++i) {
        if (interrupted()) {
            m_current.retime();   // the trials left the times stale
            return Step::Interrupted;
        }
        const Move& m = m_moves[static_cast<size_t>(i)];
        std::int64_t since = 0;
        const bool tabu = isTabu(createdRelation(m_current, m), &since);
        const double c = trialCost(m_current, m, m_cost);
        ++m_evaluations;
        if (c == kInfinity) continue;
        if (tabu && !(c < m_bestCost)) {   // aspiration: a tabu move that beats the best is allowed
            if (since < oldestSince) {
                oldest = i;
                oldestSince = since;
                oldestCost = c;
            }
            continue;
        }
        aspired = aspired || tabu;
        if (c < chosenCost) {
            chosen = i;
            chosenCost = c;
            ties = 1;
        } else if (c == chosenCost && m_rng.integer(0, ties++) == 0) {   // uniform among equals
            chosen = i;
        }
    }
    m_aspirations += aspired;
    if (chosen < 0) {
        chosen = oldest;
        chosenCost = oldestCost;
    }
    if (chosen < 0) {   // every move closes a cycle
        restart();
        return Step::Restarted;
    }
    const Move& m = m_moves[static_cast<size_t>(chosen)];
    makeTabu(brokenRelation(m_current, m));
    applyMove(m_current, m);
    m_current.retime();
    m_currentCost = chosenCost;
    ++m_iteration;
    noteCurrent();
    if (m_params.restartStall > 0 && m_iteration - m_lastImprovement >= m_params.restartStall) {
        restart();
        return Step::Restarted;
    }
    return Step::Moved;
}

void TabuSearch::noteCurrent() {
    if (m_currentCost < m_bestCost) {
        m_bestCost = m_currentCost;
        m_best = m_current.chains();
        m_lastImprovement = m_iteration;
    }
}

void TabuSearch::restart() {
    ++m_restarts;
    m_current.setChains(m_best);
    m_tabu.clear();
    for (int k = 0; k < m_params.perturbation; ++k) {
        criticalPath(m_current, m_path);
        criticalMoves(m_current, m_path, m_moves);
        if (m_moves.empty()) break;
        const Move& m = m_moves[static_cast<size_t>(m_rng.integer(0, static_cast<std::int64_t>(m_moves.size()) - 1))];
        const MoveUndo undo = applyMove(m_current, m);
        ++m_evaluations;
        if (m_current.retime() == kInfinity) {
            undoMove(m_current, undo);
            m_current.retime();
        }
    }
    m_currentCost = m_cost(m_current);
    m_lastImprovement = m_iteration;
    noteCurrent();   // a perturbation can be lucky
}

} // namespace sl
