// SPDX-License-Identifier: MIT
#include "widgets/panels/trainingmenu.h"

#include <QActionGroup>
#include <QSettings>

namespace sl::gui {
namespace {

const QString kSettingsKey = QStringLiteral("trainingStep");

/// The actions' data: "" (none), "sgd", "adam".
QString key(std::optional<UpdateRule> mode) { return mode ? QString::fromLatin1(updateRuleName(*mode)) : QString(); }

}   // namespace

TrainingMenu::TrainingMenu(QWidget* parent) : QMenu(tr("&Training Step"), parent), m_group(new QActionGroup(this)) {
    setObjectName(QStringLiteral("trainingMenu"));
    setToolTipsVisible(true);
    const std::optional<UpdateRule> modes[] = {std::nullopt, UpdateRule::Sgd, UpdateRule::Adam};
    for (const auto& mode : modes) {
        QAction* a =
            addAction(mode ? tr("Training step, %1").arg(updateRuleTitle(*mode)) : tr("None (the graph as it is)"));
        a->setCheckable(true);
        a->setData(key(mode));
        a->setToolTip(mode ? tr("Open graphs as their training step: forward, loss, backward, %1 updates")
                                 .arg(updateRuleTitle(*mode))
                           : tr("Open graphs as they are"));
        m_group->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode] {
            if (mode == m_mode) return;
            setMode(mode);
            QSettings().setValue(kSettingsKey, key(mode));   // only a choice made here is remembered
            Q_EMIT modeChosen(mode);
        });
    }
    setMode(parseUpdateRule(QSettings().value(kSettingsKey).toString().toStdString()));
}

void TrainingMenu::setMode(std::optional<UpdateRule> mode) {
    m_mode = mode;
    for (QAction* a : m_group->actions()) a->setChecked(a->data().toString() == key(mode));
}

}   // namespace sl::gui
