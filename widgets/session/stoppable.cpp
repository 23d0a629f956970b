// SPDX-License-Identifier: MIT
#include "widgets/session/stoppable.h"

#include <utility>

namespace sl::gui {

QThreadPool& stoppablePool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(4);   // a sweep, a sampling and a stale one winding down
        return p;
    }();
    return *pool;
}

std::optional<std::any> StoppableControl::takePartial() {
    const std::lock_guard lock(m_mutex);
    return std::exchange(m_partial, std::nullopt);
}

void StoppableControl::sharePartial(std::any partial) {
    const std::lock_guard lock(m_mutex);
    m_partial = std::move(partial);
}

}   // namespace sl::gui
