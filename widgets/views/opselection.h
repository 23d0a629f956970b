// SPDX-License-Identifier: MIT
#pragma once
// The one shared selection object: views publish clicks/hovers here and listen for changes, never
// talking to each other directly.
#include "core/graph/graph.h"

#include <QObject>

namespace sl::gui {

class OpSelection : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    OpId current() const { return m_current; }
    OpId hovered() const { return m_hovered; }
    void setCurrent(OpId op);
    void setHovered(OpId op);
    void clear() {
        setCurrent(kNoOp);
        setHovered(kNoOp);
    }

Q_SIGNALS:
    void currentChanged(sl::OpId op);
    void hoveredChanged(sl::OpId op);

private:
    OpId m_current = kNoOp;
    OpId m_hovered = kNoOp;
};

}   // namespace sl::gui
