// SPDX-License-Identifier: MIT
// MainWindow's hand edits of a schedule: the Edit menu (undo, redo, the keyboard's moves of the
// selected op) and the edited results it adds and updates (widgets/session/scheduleedits.h).
#include "widgets/mainwindow/mainwindow.h"

#include "widgets/panels/runpanel.h"
#include "widgets/session/document.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/scheduleedits.h"
#include "widgets/views/ganttview.h"
#include "widgets/views/memoryview.h"
#include "widgets/views/opselection.h"

#include "core/optimizer/optimizer.h"

#include <QMenuBar>
#include <QStatusBar>

#include <algorithm>

namespace sl::gui {

void MainWindow::buildEditMenu() {
    m_edits = new ScheduleEdits(m_document, this);
    m_gantt->setEdits(m_edits);
    m_memory->setEdits(m_edits);
    // An edit, an undo or a redo, to the unit in the status bar; the document still shows the schedule before it
    const auto reportEdit = [this](const RunRecord& r) {
        const std::optional<RunRecord>& before = m_document->shown();
        if (!before || !before->result || !r.problem) return;
        const QString change = editChangeText(before->schedule(), r.schedule(), r.problem->g().timeUnit());
        statusBar()->showMessage(tr("%1: %2").arg(r.name, change), 10000);
    };
    connect(m_edits, &ScheduleEdits::resultAdded, this, [this, reportEdit](const RunRecord& r) {
        reportEdit(r);
        addResult(r);
    });
    connect(m_edits, &ScheduleEdits::resultReplaced, this, [this, reportEdit](const RunRecord& r) {
        reportEdit(r);
        m_document->results()->replace(r);
        m_document->show(r);
    });
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    m_undoAction = edit->addAction(tr("&Undo Edit"), QKeySequence::Undo, this, [this] { m_edits->undo(); });
    m_redoAction =
        edit->addAction(tr("&Redo Edit"), QKeySequence(tr("Ctrl+Shift+Z")), this, [this] { m_edits->redo(); });
    edit->addSeparator();
    using Place = std::function<std::optional<OpPlace>(const ScheduleEditor&, OpId)>;
    const std::pair<QString, QPair<QKeySequence, Place>> moves[] = {
        {tr("Move Op &Earlier"),
         {QKeySequence(tr("Alt+Left")), [](const ScheduleEditor& e, OpId v) { return e.earlier(v); }}},
        {tr("Move Op &Later"),
         {QKeySequence(tr("Alt+Right")), [](const ScheduleEditor& e, OpId v) { return e.later(v); }}},
        {tr("Move Op to the &Previous Device"),
         {QKeySequence(tr("Alt+Up")), [](const ScheduleEditor& e, OpId v) { return e.onDevice(v, -1); }}},
        {tr("Move Op to the &Next Device"),
         {QKeySequence(tr("Alt+Down")), [](const ScheduleEditor& e, OpId v) { return e.onDevice(v, +1); }}},
    };
    for (const auto& [text, keyAndPlace] : moves) {
        QAction* a = edit->addAction(text, keyAndPlace.first, this,
                                     [this, place = keyAndPlace.second] { moveSelectedOp(place); });
        a->setStatusTip(
            tr("The selected op, one step this way in the schedule on show (a new result on the first edit)"));
        m_moveActions << a;
    }
    edit->addSeparator();
    for (const OptimizerInfo& info : OptimizerRegistry::instance().list()) {
        if (!info.acceptsStart) continue;
        const QString name = QString::fromStdString(info.name);
        QAction* a =
            edit->addAction(tr("Improve from Here with %1").arg(name), this, [this, name] { improveFromHere(name); });
        a->setStatusTip(tr("Run %1 starting from the schedule on show (never returns a costlier one)").arg(name));
        a->setData(name);
        m_improveActions << a;
    }
    connect(m_document, &Document::shownChanged, this, &MainWindow::updateEditActions);
    connect(m_selection, &OpSelection::currentChanged, this, &MainWindow::updateEditActions);
    updateEditActions();
}

void MainWindow::moveSelectedOp(const std::function<std::optional<OpPlace>(const ScheduleEditor&, OpId)>& place) {
    const OpId v = m_selection->current();
    const ScheduleEditor* editor = m_edits->editor();
    if (!editor || v < 0 || v >= editor->problem().g().opCount()) {
        statusBar()->showMessage(
            editor ? tr("Select an op first (click its bar)") : tr("Not editable: %1").arg(m_edits->refusal()), 6000);
        return;
    }
    const std::optional<OpPlace> to = place(*editor, v);
    if (!to) {
        statusBar()->showMessage(
            tr("%1 cannot move further that way").arg(QString::fromStdString(editor->problem().g().op(v).name)), 6000);
        return;
    }
    const EditOutcome o = m_edits->commit(v, *to);
    if (!o.allowed()) statusBar()->showMessage(tr("Not moved: %1").arg(QString::fromStdString(o.refusal)), 8000);
}

void MainWindow::improveFromHere(const QString& method) {
    const std::optional<RunRecord>& shown = m_document->shown();
    const OptimizerInfo* info = OptimizerRegistry::instance().find(method.toStdString());
    if (!shown || !shown->result || !info) return;
    const auto& objectives = info->objectives;
    if (std::find(objectives.begin(), objectives.end(), shown->problem->objective.kind) == objectives.end()) {
        statusBar()->showMessage(
            tr("%1 does not optimise %2").arg(method, QString::fromStdString(toString(shown->problem->objective.kind))),
            8000);
        return;
    }
    RunOptions options = m_runPanel->method() == method ? m_runPanel->options() : RunOptions{};
    options.start = std::make_shared<Schedule>(shown->schedule());
    auto problem = std::make_shared<Problem>(*shown->problem);
    problem->pins = m_document->pins();   // the pins set since the schedule was made hold too
    if (!pinViolation(problem->g(), problem->pins, *options.start).empty()) {
        statusBar()->showMessage(
            tr("The schedule on show breaks a pin: %1")
                .arg(QString::fromStdString(pinViolation(problem->g(), problem->pins, *options.start))),
            10000);
        return;
    }
    startRunOf(problem, method, std::move(options));
}

void MainWindow::updateEditActions() {
    if (!m_edits) return;
    m_undoAction->setEnabled(m_edits->canUndo());
    m_redoAction->setEnabled(m_edits->canRedo());
    const bool editable = m_document->shown() && m_document->shown()->result && m_selection->current() >= 0;
    for (QAction* a : m_moveActions) a->setEnabled(editable);
    const std::optional<RunRecord>& shown = m_document->shown();
    for (QAction* a : m_improveActions) {
        const OptimizerInfo* info = OptimizerRegistry::instance().find(a->data().toString().toStdString());
        const auto& o = info ? info->objectives : std::vector<Objective>{};
        a->setEnabled(shown && shown->result &&
                      std::find(o.begin(), o.end(), shown->problem->objective.kind) != o.end());
    }
}

}   // namespace sl::gui
