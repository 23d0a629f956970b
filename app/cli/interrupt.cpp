// SPDX-License-Identifier: MIT
#include "interrupt.h"

#include "core/dist/blockingwait.h"

#include <chrono>

namespace sl::cli {
namespace {

// A lock-free atomic, not a volatile sig_atomic_t: the handler may run on any thread (OpenBLAS's,
// say) while the watcher thread reads the flag, and only an atomic orders that (TSan saw the race).
// It holds the signal's number (0: none yet).
std::atomic<int> g_interrupted{0};
static_assert(std::atomic<int>::is_always_lock_free, "async-signal-safe only when lock-free");
extern "C" void onInterrupt(int signal) { g_interrupted.store(signal); }

/// How long a distributed wait may outlast the interrupt before the rank abandons it: a healthy
/// collective returns well within it, and the cooperative stop takes over.
constexpr auto kBlockedGrace = std::chrono::milliseconds(1500);

std::string signalName(int signal) {
    return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal " + std::to_string(signal);
}

} // namespace

InterruptStop::InterruptStop(std::initializer_list<int> signals, bool polled) {
    g_interrupted.store(0);
    for (int s : signals) m_previous.push_back({s, std::signal(s, onInterrupt)});
    m_watcher = std::jthread([this, polled] {
        std::optional<std::chrono::steady_clock::time_point> interruptedAt;
        while (!m_done.load()) {
            const int signal = g_interrupted.load();
            if (signal && !interruptedAt) {
                if (!polled) dist::abandonBlockedWait(signalName(signal), 128 + signal);
                interruptedAt = std::chrono::steady_clock::now();
                m_source.request_stop();
            }
            // A rank blocked in c10d cannot see the stop request: abandon a wait that outlives it.
            if (interruptedAt) {
                const auto since = dist::blockedSince();
                if (since && std::chrono::steady_clock::now() - std::max(*since, *interruptedAt) >= kBlockedGrace)
                    dist::abandonBlockedWait(signalName(signal), 128 + signal);
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
