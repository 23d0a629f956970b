// SPDX-License-Identifier: MIT
#include "core/exact/searchstop.h"

namespace sl {

namespace {
constexpr auto kTickInterval = std::chrono::milliseconds(50);
}

SearchStop::SearchStop(std::stop_token token, Clock::time_point deadline, std::uint64_t failLimit,
                       std::function<void(const Gecode::Search::Statistics&)> tick)
    : m_token(std::move(token)), m_deadline(deadline), m_failLimit(failLimit), m_tick(std::move(tick)),
      m_nextTick(Clock::now() + kTickInterval) {}

bool SearchStop::stop(const Gecode::Search::Statistics& s, const Gecode::Search::Options&) {
    if (m_token.stop_requested()) m_cancelled = true;
    if (m_failLimit > 0 && s.fail >= m_failLimit) m_failLimitReached = true;
    const Clock::time_point now = Clock::now();
    if (now >= m_deadline) m_timeUp = true;
    if (m_cancelled || m_timeUp || m_failLimitReached) return true;
    if (m_tick && now >= m_nextTick) {
        m_nextTick = now + kTickInterval;
        m_tick(s);
    }
    return false;
}

} // namespace sl
