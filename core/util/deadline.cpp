// SPDX-License-Identifier: MIT
#include "core/util/deadline.h"

#include <chrono>

namespace sl {

DeadlineStop::DeadlineStop(std::stop_token outer, double seconds)
    : m_forward(outer, std::function<void()>([this] { m_source.request_stop(); })) {
    if (!(seconds > 0)) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                             std::chrono::duration<double>(seconds));
    m_timer = std::jthread([this, until](std::stop_token self) {
        std::unique_lock lock(m_mutex);
        // returns early only when the destructor stops this thread
        if (!m_wake.wait_until(lock, self, until, [] { return false; })) {
            if (!self.stop_requested()) m_source.request_stop();
        }
    });
}

DeadlineStop::~DeadlineStop() {
    if (m_timer.joinable()) {
        m_timer.request_stop();   // wakes the wait through its stop token
        m_timer.join();
    }
}

} // namespace sl
