// SPDX-License-Identifier: MIT
#include "core/brkga/chaindecoder.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sl {

ChainDecoder::ChainDecoder(const Problem& problem)
    : m_problem(problem), m_env(problem), m_cost(problem), m_devicesOfType(problem.platform.devicesByType()), m_state(m_env) {}

int ChainDecoder::deviceOf(OpId v, double key) const {
    const std::vector<int>& allowed = m_devicesOfType[static_cast<size_t>(m_env.graph().op(v).machineType)];
    const int c = static_cast<int>(allowed.size());
    const int slot = std::clamp(static_cast<int>(std::floor(key * c)), 0, c - 1);   // keys are in [0, 1)
    return allowed[static_cast<size_t>(slot)];
}

void ChainDecoder::build(std::span<const double> keys) {
    if (keys.size() != size())
        throw std::invalid_argument("chain decoder: expected " + std::to_string(size()) + " keys, got " +
                                    std::to_string(keys.size()));
    const int n = m_env.ops();
    m_state.clear();
    m_ready.assign(keys.first(static_cast<size_t>(n)));
    for (OpId v = 0; v < n; ++v)
        if (m_state.ready(v)) m_ready.push(v);
    while (!m_ready.empty()) {
        const OpId v = m_ready.take();
        m_state.add(v, deviceOf(v, keys[static_cast<size_t>(n + v)]));
        for (OpId s : m_env.graph().successors(v))
            if (m_state.ready(s)) m_ready.push(s);
    }
}

double ChainDecoder::decode(std::span<const double> keys) {
    build(keys);
    if (!m_cost.needsMemory()) return m_cost(m_state.makespan(), 0, {});
    Schedule s = m_state.toSchedule();
    return scoreSchedule(m_problem, s, m_cost);
}

Schedule ChainDecoder::schedule(std::span<const double> keys) {
    build(keys);
    Schedule s = m_state.toSchedule();
    scoreSchedule(m_problem, s, m_cost);
    return s;
}

} // namespace sl
