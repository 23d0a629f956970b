// SPDX-License-Identifier: MIT
#include "core/dist/blockingwait.h"

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace sl::dist {

namespace {

struct OpenWait {
    std::string what;
    std::chrono::steady_clock::time_point since;
};

std::mutex g_mutex;
std::optional<OpenWait> g_open;
std::string g_rank;   ///< DistOptions::describe() of the last wait: an interrupt between waits names it too
std::function<void(const std::string&)> g_leaveNotice;

void writeAll(const std::string& text) {
    for (size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(STDERR_FILENO, text.data() + done, text.size() - done);
        if (n <= 0) return;
        done += static_cast<size_t>(n);
    }
}

} // namespace

BlockingWait::BlockingWait(const DistOptions& options, std::string what) {
    const std::lock_guard lock(g_mutex);
    g_rank = options.describe();
    g_open = OpenWait{std::move(what), std::chrono::steady_clock::now()};
}

BlockingWait::~BlockingWait() {
    const std::lock_guard lock(g_mutex);
    g_open.reset();
}

void BlockingWait::describe(std::string what) {
    const std::lock_guard lock(g_mutex);
    if (g_open) g_open->what = std::move(what);
}

std::optional<std::chrono::steady_clock::time_point> blockedSince() {
    const std::lock_guard lock(g_mutex);
    if (!g_open) return std::nullopt;
    return g_open->since;
}

void setLeaveNotice(std::function<void(const std::string&)> notice) {
    const std::lock_guard lock(g_mutex);
    g_leaveNotice = std::move(notice);
}

void abandonBlockedWait(const std::string& signalName, int exitCode) {
    std::string rank = "distributed";
    std::string doing = "; stopping this rank\n";
    std::function<void(const std::string&)> notice;
    {
        const std::lock_guard lock(g_mutex);
        if (!g_rank.empty()) rank = "distributed: " + g_rank;
        if (g_open) doing = " while waiting for " + g_open->what + doing;
        notice = g_leaveNotice;
    }
    writeAll(rank + ": interrupted (" + signalName + ")" + doing);
    if (notice) {   // best effort, at most a second: the store may be gone with its host
        auto noticed = std::make_shared<std::atomic<bool>>(false);
        std::thread([notice, signalName, noticed] {
            notice("interrupted (" + signalName + ")");
            noticed->store(true);
        }).detach();
        for (int i = 0; i < 50 && !noticed->load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::_Exit(exitCode);   // the threads c10d blocks are not unwound
}

} // namespace sl::dist
