// SPDX-License-Identifier: MIT
#pragma once
// Runs a function once, right after the first paint of a widget that satisfies a condition: the
// explorer's startup timing (--quit-after-paint) and the neural module's load, which starts only
// once the window is on screen.
#include <QCoreApplication>
#include <QEvent>
#include <QObject>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <utility>

namespace sl::gui {

class AfterFirstPaint : public QObject {
public:
    /// Owned by `widget`; `ready` is asked at each paint until it holds, then `then` runs once.
    AfterFirstPaint(QWidget* widget, std::function<bool()> ready, std::function<void()> then)
        : QObject(widget), m_ready(std::move(ready)), m_then(std::move(then)) {
        widget->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (e->type() == QEvent::Paint && m_then && m_ready()) {
            watched->removeEventFilter(this);
            QTimer::singleShot(0, this, std::exchange(m_then, {}));   // after this paint is done
        }
        return false;
    }

private:
    std::function<bool()> m_ready;
    std::function<void()> m_then;
};

} // namespace sl::gui
