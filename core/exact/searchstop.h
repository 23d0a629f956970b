// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The Gecode stop object of exact-makespan (internal to core/exact): the engine asks it at every
/// node, so a cancellation or the time limit ends the search within one node's propagation, and
/// it hands out a periodic tick for progress reports between solutions.

#include <gecode/search.hh>

#include <chrono>
#include <cstdint>
#include <functional>
#include <stop_token>

namespace sl {

class SearchStop : public Gecode::Search::Stop {
public:
    using Clock = std::chrono::steady_clock;
    /// `deadline` = Clock::time_point::max() for none; `failLimit` 0 for none; `tick` may be empty.
    SearchStop(std::stop_token token, Clock::time_point deadline, std::uint64_t failLimit,
               std::function<void(const Gecode::Search::Statistics&)> tick);
    bool stop(const Gecode::Search::Statistics& s, const Gecode::Search::Options& o) override;

    bool cancelled() const { return m_cancelled; }
    bool timeUp() const { return m_timeUp; }
    bool failLimitReached() const { return m_failLimitReached; }

private:
    std::stop_token m_token;
    Clock::time_point m_deadline;
    std::uint64_t m_failLimit;
    std::function<void(const Gecode::Search::Statistics&)> m_tick;
    Clock::time_point m_nextTick;
    bool m_cancelled = false, m_timeUp = false, m_failLimitReached = false;
};

} // namespace sl
