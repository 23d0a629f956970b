// SPDX-License-Identifier: MIT
#pragma once
// Short jobs of the explorer that must not block the GUI thread (opening a graph, reading a
// schedule, writing an export): the work runs on Qt's global pool, its outcome comes back to the
// context object's thread as a value; an exception becomes the outcome's error text.
#include <QFuture>
#include <QObject>
#include <QString>
#include <QtConcurrent>

#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

namespace sl::gui {

template <typename T>
struct Outcome {
    std::optional<T> value;   ///< empty on failure
    QString error;            ///< the exception's message on failure
};

/// Runs `work()` on a pool thread and then `done(Outcome<T>)` on `context`'s thread (not at all if
/// `context` is gone by then). `done` may run before this returns when the work is already over.
/// `work` must only touch data it owns or that is immutable.
template <typename Work, typename Done>
void runInBackground(QObject* context, Work work, Done done) {
    using T = std::invoke_result_t<Work>;
    QtConcurrent::run([work = std::move(work)]() -> Outcome<T> {
        try {
            return {work(), {}};
        } catch (const std::exception& e) {
            return {std::nullopt, QString::fromUtf8(e.what())};
        }
    }).then(context, [done = std::move(done)](Outcome<T> outcome) { done(std::move(outcome)); });
}

} // namespace sl::gui
