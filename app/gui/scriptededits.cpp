// SPDX-License-Identifier: MIT
#include "app/gui/scriptededits.h"

#include "widgets/mainwindow/mainwindow.h"
#include "widgets/session/document.h"
#include "widgets/session/scheduleedits.h"
#include "widgets/views/ganttview.h"

#include <QApplication>
#include <QMouseEvent>

#include <cstdio>

namespace sl::gui {

namespace {

OpId opNamed(const MainWindow& w, const QString& name) {
    const std::optional<RunRecord>& shown = w.document()->shown();
    if (!shown || !shown->problem) return kNoOp;
    const Graph& g = shown->problem->g();
    for (OpId v = 0; v < g.opCount(); ++v)
        if (QString::fromStdString(g.op(v).name) == name) return v;
    return kNoOp;
}

void sendMouse(GanttView* g, QEvent::Type type, QPointF at, Qt::MouseButton button, Qt::MouseButtons buttons) {
    QMouseEvent e(type, at, g->mapToGlobal(at), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(g, &e);
}

} // namespace

bool parseEditSpec(const QString& text, QString* op, int* device, int* position, QString* error) {
    const QStringList parts = text.split(QLatin1Char(','));
    bool deviceOk = false, positionOk = false;
    if (parts.size() == 3) {
        *op = parts[0];
        *device = parts[1].toInt(&deviceOk);
        *position = parts[2].toInt(&positionOk);
    }
    if (parts.size() != 3 || op->isEmpty() || !deviceOk || !positionOk || *device < 0 || *position < 0) {
        *error = text + QStringLiteral(": expected OP,DEVICE,POSITION (an op's name, a device index, a place in its sequence)");
        return false;
    }
    return true;
}

bool applyScriptedEdits(MainWindow& w, const QStringList& moves, const QString& drag, QString* error) {
    QString name;
    int device = 0, position = 0;
    for (const QString& move : moves) {
        if (!parseEditSpec(move, &name, &device, &position, error)) return false;
        const OpId v = opNamed(w, name);
        if (v == kNoOp) return *error = QStringLiteral("--move: no op '%1' in the schedule on show").arg(name), false;
        const EditOutcome o = w.scheduleEdits()->commit(v, {device, position});
        if (!o.allowed()) return *error = QStringLiteral("--move %1: %2").arg(move, QString::fromStdString(o.refusal)), false;
    }
    if (drag.isEmpty()) return true;
    if (!parseEditSpec(drag, &name, &device, &position, error)) return false;
    const OpId v = opNamed(w, name);
    if (v == kNoOp) return *error = QStringLiteral("--drag: no op '%1' in the schedule on show").arg(name), false;
    GanttView* g = w.ganttView();
    const QPointF from = g->barRect(v).center(), to = g->dropPoint(v, {device, position});
    sendMouse(g, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    for (int i = 1; i <= 4; ++i) sendMouse(g, QEvent::MouseMove, from + (to - from) * (i / 4.0), Qt::NoButton, Qt::LeftButton);
    std::printf("drag %s: %s\n", qPrintable(drag), qPrintable(g->dragText()));
    return true;
}

} // namespace sl::gui
