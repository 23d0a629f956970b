// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The Gecode stop object of exact-makespan (internal to core/exact). One object serves every
/// search engine of a run (the bound probes, then branch and bound): the engines ask it at every
/// node, so a cancellation, the time limit or the run's failure limit ends the run within one
/// node's propagation; an engine may also get limits of its own, which end that engine only. It
/// keeps the run's node and failure counts across engines and hands out a periodic tick for
/// progress reports.

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
    SearchStop(std::stop_token token, Clock::time_point deadline, std::uint64_t failLimit, std::function<void()> tick);

    /// Limits of the next engine alone (0 / max() = none).
    void startEngine(std::uint64_t failLimit = 0, Clock::time_point deadline = Clock::time_point::max());
    /// Adds the finished engine's nodes and failures to the run's.
    void finishEngine(const Gecode::Search::Statistics& s);

    bool stop(const Gecode::Search::Statistics& s, const Gecode::Search::Options& o) override;

    bool cancelled() const { return m_cancelled; }
    bool timeUp() const { return m_timeUp; }
    bool failLimitReached() const { return m_failLimitReached; }
    /// The run must end (cancelled, time or failure limit), as opposed to one engine's limit.
    bool runStopped() const { return m_cancelled || m_timeUp || m_failLimitReached; }
    /// Nodes and failures of the run so far, the running engine's included.
    std::uint64_t nodes() const { return m_nodes + m_current.node; }
    std::uint64_t failures() const { return m_failures + m_current.fail; }

private:
    std::stop_token m_token;
    Clock::time_point m_deadline, m_engineDeadline = Clock::time_point::max();
    std::uint64_t m_failLimit, m_engineFailLimit = 0;
    std::function<void()> m_tick;
    Clock::time_point m_nextTick;
    std::uint64_t m_nodes = 0, m_failures = 0;
    Gecode::Search::Statistics m_current;
    bool m_cancelled = false, m_timeUp = false, m_failLimitReached = false;
};

} // namespace sl
