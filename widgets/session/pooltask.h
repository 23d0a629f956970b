// SPDX-License-Identifier: MIT
#pragma once
// The one way the explorer moves work to a thread pool and its outcome back to the GUI thread.
//
// Why not QFuture continuations or QFutureWatcher: their hand-offs synchronise through QMutex
// inside libQt6Core, which is not built with ThreadSanitizer, so a TSan build of our tests reports
// every result they carry as a data race (docs/reliability.md). Here both hand-offs are ours and
// say so to TSan: the task is released before QThreadPool::start and acquired first thing on the
// pool thread; the outcome is released before it is posted and acquired before it is read.
// Without TSan the annotations compile to nothing.
#include <QObject>
#include <QPointer>
#include <QString>

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

class QThreadPool;

namespace sl::gui {

template <typename T>
struct Outcome {
    std::optional<T> value;   ///< empty on failure
    QString error;            ///< the exception's message on failure
};

/// Shared by a task and whoever waits for it (RunJob's destructor, SessionStore::flush).
class TaskState {
public:
    bool isRunning() const;
    void wait() const;   ///< until the work has returned (its outcome may still be on its way)
    void markDone();

private:
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_doneChanged;
    bool m_done = false;
};

namespace detail {
/// Runs `work` on `pool`, then `deliver` on the GUI thread through its event loop (skipped when
/// empty). Both are built on the calling thread, which must be the GUI thread.
std::shared_ptr<TaskState> startTask(QThreadPool& pool, std::function<void()> work, std::function<void()> deliver);
}   // namespace detail

/// Runs `work()` on `pool`, then `done(Outcome<T>)` on the GUI thread, where `context` lives (not
/// at all if `context` is gone by then). An exception from `work` becomes the outcome's error.
/// `done` always runs from the event loop, never inside this call.
template <typename Work, typename Done>
std::shared_ptr<TaskState> runOnPool(QThreadPool& pool, QObject* context, Work work, Done done) {
    using T = std::invoke_result_t<Work>;
    auto outcome = std::make_shared<Outcome<T>>();
    auto compute = [outcome, work = std::move(work)]() mutable {
        try {
            outcome->value.emplace(work());
        } catch (const std::exception& e) {
            outcome->error = QString::fromUtf8(e.what());
        }
    };
    auto deliver = [outcome, context = QPointer<QObject>(context), done = std::move(done)]() mutable {
        if (context) done(std::move(*outcome));
    };
    return detail::startTask(pool, std::move(compute), std::move(deliver));
}

/// Runs `work()` on `pool` and forgets it (SessionStore's writes); waitable through the state.
std::shared_ptr<TaskState> runDetached(QThreadPool& pool, std::function<void()> work);

}   // namespace sl::gui
