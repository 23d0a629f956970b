// SPDX-License-Identifier: MIT
#pragma once
/// Signals as a stop request: while an InterruptStop lives, the given signals (Ctrl-C's SIGINT,
/// a scheduler's SIGTERM) no longer end the process but request a stop on token(), which the
/// running optimizer or trainer polls; it then finishes cleanly (keeps its best schedule, writes
/// a last checkpoint). The previous handlers come back on destruction. One at a time.
/// A distributed rank blocked in c10d when the signal comes, and still blocked 1.5 s later,
/// is ended with the interrupted status (128 + the signal) after saying what it waited for
/// (core/dist/blockingwait.h).
///
/// \code
///   const InterruptStop interrupt({SIGINT, SIGTERM});
///   run(..., interrupt.token());
/// \endcode

#include <atomic>
#include <csignal>
#include <initializer_list>
#include <optional>
#include <stop_token>
#include <thread>
#include <vector>

namespace sl::cli {

class InterruptStop {
public:
    /// `polled`: a run polls token() and stops by itself. Not polled (a sharded bench or batch,
    /// whose work takes no token): the signal ends a distributed rank at once, after it has told
    /// its peers (dist::abandonBlockedWait).
    explicit InterruptStop(std::initializer_list<int> signals, bool polled = true);
    ~InterruptStop();
    InterruptStop(const InterruptStop&) = delete;
    InterruptStop& operator=(const InterruptStop&) = delete;

    std::stop_token token() const { return m_source.get_token(); }

private:
    std::stop_source m_source;
    std::vector<std::pair<int, void (*)(int)>> m_previous;
    std::atomic<bool> m_done{false};
    std::jthread m_watcher;   ///< turns the handler's flag into request_stop() (not async-signal-safe itself)
};

} // namespace sl::cli
