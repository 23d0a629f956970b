// SPDX-License-Identifier: MIT
#include "widgets/views/opselection.h"

namespace sl::gui {

void OpSelection::setCurrent(OpId op) {
    if (op == m_current) return;
    m_current = op;
    Q_EMIT currentChanged(op);
}

void OpSelection::setHovered(OpId op) {
    if (op == m_hovered) return;
    m_hovered = op;
    Q_EMIT hoveredChanged(op);
}

}   // namespace sl::gui
