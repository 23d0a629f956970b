// SPDX-License-Identifier: MIT
#include "widgets/stoppable.h"

namespace sl::gui {

QThreadPool& stoppablePool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(4);   // a sweep, a sampling and a stale one winding down
        return p;
    }();
    return *pool;
}

} // namespace sl::gui
