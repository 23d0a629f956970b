// SPDX-License-Identifier: MIT
#pragma once
// Short jobs of the explorer that must not block the GUI thread (opening a graph, reading a
// schedule, writing an export): the work runs on Qt's global pool, its outcome comes back to the
// context object's thread as a value; an exception becomes the outcome's error text.
#include "widgets/session/pooltask.h"

#include <QThreadPool>

#include <utility>

namespace sl::gui {

/// Runs `work()` on a pool thread and then `done(Outcome<T>)` on `context`'s thread (not at all if
/// `context` is gone by then), always from the event loop. `work` must only touch data it owns or
/// that is immutable.
template <typename Work, typename Done>
void runInBackground(QObject* context, Work work, Done done) {
    runOnPool(*QThreadPool::globalInstance(), context, std::move(work), std::move(done));
}

}   // namespace sl::gui
