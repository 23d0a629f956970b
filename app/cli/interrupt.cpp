// SPDX-License-Identifier: MIT
#include "interrupt.h"

#include <chrono>

namespace sl::cli {
namespace {

// A lock-free atomic, not a volatile sig_atomic_t: the handler may run on any thread (OpenBLAS's,
// say) while the watcher thread reads the flag, and only an atomic orders that (TSan saw the race).
std::atomic<int> g_interrupted{0};
static_assert(std::atomic<int>::is_always_lock_free, "async-signal-safe only when lock-free");
extern "C" void onInterrupt(int) { g_interrupted.store(1); }

} // namespace

InterruptStop::InterruptStop(std::initializer_list<int> signals) {
    g_interrupted.store(0);
    for (int s : signals) m_previous.push_back({s, std::signal(s, onInterrupt)});
    m_watcher = std::jthread([this] {
        while (!m_done.load()) {
            if (g_interrupted.load()) {
                m_source.request_stop();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

InterruptStop::~InterruptStop() {
    m_done.store(true);
    m_watcher.join();
    for (const auto& [s, handler] : m_previous) std::signal(s, handler);
}

} // namespace sl::cli
