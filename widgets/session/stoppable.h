// SPDX-License-Identifier: MIT
#pragma once
// Long, cancellable core work of the explorer that is not an optimizer run (temperature sampling,
// sweeps): the work gets a std::stop_token and a StoppableProgress that only stores the latest
// fraction in an atomic and, when the work has one, the latest partial result (what has been
// drawn so far) under a mutex; the GUI polls both (no signal flood) and stops the work with
// request_stop(). The outcome comes back to `context`'s thread as a value, an exception as its
// message.
#include "widgets/session/background.h"

#include <QThreadPool>

#include <any>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>

namespace sl::gui {

struct StoppableControl {
    std::stop_source stop;
    std::atomic<double> fraction{0};
    /// The partial result shared since the last take, if any (GUI thread).
    std::optional<std::any> takePartial();
    void sharePartial(std::any partial);   ///< the work's thread

private:
    std::mutex m_mutex;
    std::optional<std::any> m_partial;
};

/// What a stoppable work reports through.
class StoppableProgress {
public:
    explicit StoppableProgress(StoppableControl& control) : m_control(control) {}
    void operator()(double fraction) const { m_control.fraction.store(fraction, std::memory_order_relaxed); }
    /// Hands the GUI a partial result, replacing one it has not taken yet.
    void share(std::any partial) const { m_control.sharePartial(std::move(partial)); }

private:
    StoppableControl& m_control;
};

/// Its own pool: a minute-long sweep must not hold up graph loading on Qt's global pool.
QThreadPool& stoppablePool();

/// Runs `work(std::stop_token, const StoppableProgress& progress)` on a pool thread,
/// then `done(Outcome<T>)` on `context`'s thread (not at all if `context` is gone).
template <typename Work, typename Done>
std::shared_ptr<StoppableControl> runStoppable(QObject* context, Work work, Done done) {
    auto control = std::make_shared<StoppableControl>();
    auto withControl = [control, work = std::move(work)]() {
        const StoppableProgress progress(*control);
        return work(control->stop.get_token(), progress);
    };
    runOnPool(stoppablePool(), context, std::move(withControl), std::move(done));
    return control;
}

}   // namespace sl::gui
