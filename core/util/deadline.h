// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A stop token that also fires at a deadline, for work that only checks a std::stop_token (a
/// sampling loop) but must honour `--time-limit` too.
///
/// \code
///   sl::DeadlineStop limited(stop, options.timeLimit);   // 0 s: no deadline, just `stop`
///   scorer.sample(logits, n, seed, false, limited.token());
/// \endcode

#include <condition_variable>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>

namespace sl {

class DeadlineStop {
public:
    /// Requests a stop when `outer` does, or `seconds` (> 0) from now.
    DeadlineStop(std::stop_token outer, double seconds);
    ~DeadlineStop();   ///< ends the timer at once
    DeadlineStop(const DeadlineStop&) = delete;
    DeadlineStop& operator=(const DeadlineStop&) = delete;

    std::stop_token token() const { return m_source.get_token(); }

private:
    std::stop_source m_source;
    std::stop_callback<std::function<void()>> m_forward;
    std::mutex m_mutex;
    std::condition_variable_any m_wake;
    std::jthread m_timer;
};

} // namespace sl
