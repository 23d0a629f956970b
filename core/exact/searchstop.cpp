// SPDX-License-Identifier: MIT
#include "core/exact/searchstop.h"

namespace sl {

namespace {
constexpr auto kTickInterval = std::chrono::milliseconds(50);
}

SearchStop::SearchStop(std::stop_token token, Clock::time_point deadline, std::uint64_t failLimit, std::function<void()> tick)
    : m_token(std::move(token)), m_deadline(deadline), m_failLimit(failLimit), m_tick(std::move(tick)),
      m_nextTick(Clock::now() + kTickInterval) {}

void SearchStop::startEngine(std::uint64_t failLimit, Clock::time_point deadline) {
    m_engineFailLimit = failLimit;
    m_engineDeadline = deadline;
    m_current = Gecode::Search::Statistics();
}

void SearchStop::finishEngine(const Gecode::Search::Statistics& s) {
    m_nodes += s.node;
    m_failures += s.fail;
    m_current = Gecode::Search::Statistics();
}

bool SearchStop::stop(const Gecode::Search::Statistics& s, const Gecode::Search::Options&) {
    m_current = s;
    if (m_token.stop_requested()) m_cancelled = true;
    if (m_failLimit > 0 && failures() >= m_failLimit) m_failLimitReached = true;
    const Clock::time_point now = Clock::now();
    if (now >= m_deadline) m_timeUp = true;
    if (runStopped()) return true;
    if ((m_engineFailLimit > 0 && s.fail >= m_engineFailLimit) || now >= m_engineDeadline) return true;
    if (m_tick && now >= m_nextTick) {
        m_nextTick = now + kTickInterval;
        m_tick();
    }
    return false;
}

} // namespace sl
