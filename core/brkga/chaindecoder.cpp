// SPDX-License-Identifier: MIT
#include "core/brkga/chaindecoder.h"

#include "core/costmodel/sharedlinks.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sl {

ChainDecoder::ChainDecoder(const Problem& problem)
    : m_problem(problem), m_env(problem), m_cost(problem), m_devicesOfType(problem.platform.devicesByType()),
      m_state(m_env), m_sharedLinks(linksShared(problem.platform)), m_booked(problem) {
    if (m_sharedLinks) {
        m_taken.reserve(static_cast<size_t>(m_env.ops()));
        m_device.resize(static_cast<size_t>(m_env.ops()));
    }
}

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
    m_taken.clear();
    while (!m_ready.empty()) {
        const OpId v = m_ready.take();
        const int d = deviceOf(v, keys[static_cast<size_t>(n + v)]);
        m_state.add(v, d);
        if (m_sharedLinks) {
            m_taken.push_back(v);
            m_device[static_cast<size_t>(v)] = d;
        }
        for (OpId s : m_env.graph().successors(v))
            if (m_state.ready(s)) m_ready.push(s);
    }
}

double ChainDecoder::decode(std::span<const double> keys) {
    build(keys);
    if (!m_cost.needsMemory())
        return m_cost(m_sharedLinks ? m_booked.time(m_device, m_taken) : m_state.makespan(), 0, {});
    Schedule s = timedState();
    return scoreSchedule(m_problem, s, m_cost);
}

Schedule ChainDecoder::schedule(std::span<const double> keys) {
    build(keys);
    Schedule s = timedState();
    scoreSchedule(m_problem, s, m_cost);
    return s;
}

Schedule ChainDecoder::timedState() const {
    Schedule s = m_state.toSchedule();
    if (!m_sharedLinks) return s;
    s.order = m_taken;
    return timeOnSharedLinks(m_problem, s);
}

std::vector<double> chainKeysOf(const Problem& p, const Schedule& s) {
    const int n = p.g().opCount();
    if (static_cast<int>(s.ops.size()) != n || static_cast<int>(s.order.size()) != n)
        throw std::invalid_argument("chainKeysOf: the schedule is not of this graph");
    std::vector<int> place(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) place[static_cast<size_t>(s.order[static_cast<size_t>(i)])] = i;
    std::vector<OpId> ranked(s.order.begin(), s.order.end());
    if (!linksShared(p.platform))   // shared: the booking order is the rank
        std::stable_sort(ranked.begin(), ranked.end(), [&](OpId a, OpId b) {
            const double sa = s.ops[static_cast<size_t>(a)].start, sb = s.ops[static_cast<size_t>(b)].start;
            return sa != sb ? sa < sb : place[static_cast<size_t>(a)] < place[static_cast<size_t>(b)];
        });
    const std::vector<std::vector<int>> devicesOfType = p.platform.devicesByType();
    std::vector<double> keys(2 * static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        const OpId v = ranked[static_cast<size_t>(r)];
        // Highest priority first: rank r gets (n - r) / (n + 1), all distinct, in (0, 1).
        keys[static_cast<size_t>(v)] = static_cast<double>(n - r) / static_cast<double>(n + 1);
        const std::vector<int>& allowed = devicesOfType[static_cast<size_t>(p.g().op(v).machineType)];
        const auto slot = std::find(allowed.begin(), allowed.end(), s.ops[static_cast<size_t>(v)].device) - allowed.begin();
        keys[static_cast<size_t>(n + v)] = (static_cast<double>(slot) + 0.5) / static_cast<double>(allowed.size());
    }
    return keys;
}

} // namespace sl
