// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A rank blocked in c10d (the rendezvous, a join, a collective) cannot poll a stop token: the
/// call returns when the peers answer or the timeout passes. A BlockingWait marks such a call and
/// says what it waits for. When Ctrl-C or SIGTERM arrives (app/cli/interrupt.h), a call that
/// returns within a short grace lets the cooperative stop take over (every rank stops at the same
/// step); one that does not is abandoned: the rank prints what it was waiting for, leaves a note
/// its peers read, and ends the process with the interrupted status (docs/distributed.md).
/// Torch-free: the communicator marks its calls, the CLI's signal watcher abandons them.
///
/// \code
///   const sl::dist::BlockingWait wait(options, "an all-reduce");
///   group->allreduce(...)->wait();
/// \endcode

#include "core/dist/distoptions.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace sl::dist {

class BlockingWait {
public:
    BlockingWait(const DistOptions& options, std::string what);
    ~BlockingWait();
    BlockingWait(const BlockingWait&) = delete;
    BlockingWait& operator=(const BlockingWait&) = delete;
    /// A new description while waiting (the ranks still missing, say).
    void describe(std::string what);
};

/// When the open BlockingWait started (none open: nullopt).
std::optional<std::chrono::steady_clock::time_point> blockedSince();

/// Set by the communicator for the life of a run: tells the peers this rank leaves (`reason`).
/// Called from the signal watcher's thread while the rank's own thread is blocked, so it must use
/// a connection of its own; abandonBlockedWait() gives it at most a second.
void setLeaveNotice(std::function<void(const std::string& reason)> notice);

/// Ends the process for an interrupt that a BlockingWait outlived (or one that nothing polls):
/// writes "distributed: RANK: interrupted (SIGNAL) while waiting for WHAT; stopping this rank" to
/// standard error, calls the leave notice, and exits with `exitCode` (128 + the signal) without
/// unwinding the threads that c10d blocks.
[[noreturn]] void abandonBlockedWait(const std::string& signalName, int exitCode);

} // namespace sl::dist
