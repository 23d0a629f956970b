// SPDX-License-Identifier: MIT
#pragma once
// Long, cancellable core work of the explorer that is not an optimizer run (temperature sampling,
// sweeps): the work gets a std::stop_token and a progress callback that only stores the latest
// fraction in an atomic; the GUI polls it (no signal flood) and stops it with request_stop().
// The outcome comes back to `context`'s thread as a value, an exception as its message.
#include "widgets/background.h"

#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <stop_token>

namespace sl::gui {

struct StoppableControl {
    std::stop_source stop;
    std::atomic<double> fraction{0};
};

/// Its own pool: a minute-long sweep must not hold up graph loading on Qt's global pool.
QThreadPool& stoppablePool();

/// Runs `work(std::stop_token, const std::function<void(double)>& progress)` on a pool thread,
/// then `done(Outcome<T>)` on `context`'s thread (not at all if `context` is gone).
template <typename Work, typename Done>
std::shared_ptr<StoppableControl> runStoppable(QObject* context, Work work, Done done) {
    auto control = std::make_shared<StoppableControl>();
    auto withControl = [control, work = std::move(work)]() {
        const std::function<void(double)> progress = [&control](double f) { control->fraction.store(f, std::memory_order_relaxed); };
        return work(control->stop.get_token(), progress);
    };
    runOnPool(stoppablePool(), context, std::move(withControl), std::move(done));
    return control;
}

} // namespace sl::gui
