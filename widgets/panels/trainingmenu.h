// SPDX-License-Identifier: MIT
#pragma once
// File ▸ Training Step: None / SGD / Adam. The mode applies to what is opened next (Open,
// examples, Generate, drops); a mode chosen from the menu is remembered in QSettings and, while a
// graph is open, reopens it in that mode. The checkmark follows the document shown.
#include "widgets/session/graphorigin.h"

#include <QMenu>

#include <optional>

class QActionGroup;

namespace sl::gui {

class TrainingMenu : public QMenu {
    Q_OBJECT
public:
    explicit TrainingMenu(QWidget* parent = nullptr);

    std::optional<UpdateRule> mode() const { return m_mode; }
    /// Shows `mode` as checked and uses it for the next opens, without emitting modeChosen().
    void setMode(std::optional<UpdateRule> mode);
    /// `origin` in the current mode (its own training step, if any, is replaced).
    GraphOrigin apply(const GraphOrigin& origin) const { return origin.withTraining(m_mode); }

Q_SIGNALS:
    /// The user picked a mode from the menu.
    void modeChosen(std::optional<UpdateRule> mode);

private:
    QActionGroup* m_group;
    std::optional<UpdateRule> m_mode;
};

}   // namespace sl::gui
