// SPDX-License-Identifier: MIT
// The Memory view's hand edits: on the step clock of a one-device schedule, press on a step of the
// curve and release on another to move that step's op there; while dragging, the curve after the
// move is drawn dashed and the read-out gives the peak before and after, or why the move cannot be
// made (it would run an op before one of its inputs). The edits are ScheduleEdits'.
#include "widgets/views/memoryview.h"

#include "widgets/session/resultsmodel.h"
#include "widgets/session/scheduleedits.h"
#include "widgets/session/units.h"
#include "widgets/views/chartutil.h"
#include "widgets/views/opselection.h"
#include "widgets/views/timechartview.h"

#include "core/costmodel/stepmemory.h"

#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>

#include <algorithm>
#include <cmath>

namespace sl::gui {

void MemoryView::setEdits(ScheduleEdits* edits) {
    m_edits = edits;
    m_chartView->viewport()->installEventFilter(this);
}

bool MemoryView::stepDragAllowed() const {
    return m_edits && m_record && m_record->result && m_clock->currentIndex() == 1 &&
        m_record->problem->platform.deviceCount() == 1 && !m_record->schedule().order.empty();
}

int MemoryView::stepAt(QPoint viewportPos) const {
    if (!m_record || m_record->schedule().order.empty()) return -1;
    const QPointF value = m_chart->mapToValue(m_chart->mapFromScene(m_chartView->mapToScene(viewportPos)));
    const int last = static_cast<int>(m_record->schedule().order.size()) - 1;
    return std::clamp(static_cast<int>(std::floor(value.x())), 0, last);   // step i spans [i, i + 1)
}

QPoint MemoryView::stepPoint(int step) const {
    const QPointF chartPos = m_chart->mapToPosition(QPointF(step + 0.5, 0));
    return m_chartView->mapFromScene(m_chart->mapToScene(chartPos)) - QPoint(0, 10);
}

int MemoryView::previewPointCount() const { return m_stepPreview ? static_cast<int>(m_stepPreview->count()) : 0; }

QList<QPointF> MemoryView::stepCurve(const std::vector<OpId>& order) const {
    StepMemory steps(m_record->problem->g(), 1);
    steps.reset();
    std::vector<MemoryPoint> curve;
    curve.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) curve.push_back({static_cast<double>(i), steps.step(order[i])});
    return stepPoints(curve, static_cast<double>(order.size()), m_divisor);
}

void MemoryView::previewStep(int to) {
    m_stepDrag->to = to;
    const std::vector<OpId>& order = m_record->schedule().order;
    const OpId v = order[static_cast<std::size_t>(m_stepDrag->from)];
    const QString name = QString::fromStdString(m_record->problem->g().op(v).name);
    if (to == m_stepDrag->from) {
        m_readout->setText(tr("Moving %1 (step %2): drop it on another step").arg(name).arg(m_stepDrag->from));
        if (m_stepPreview) m_stepPreview->clear();
        return;
    }
    const EditOutcome o = m_edits->preview(v, {0, to});
    if (!o.allowed()) {
        m_readout->setText(
            tr("Cannot move %1 to step %2: %3").arg(name).arg(to).arg(QString::fromStdString(o.refusal)));
        if (m_stepPreview) m_stepPreview->clear();
        return;
    }
    const double before = m_record->schedule().stepMemory.peak, after = o.schedule.stepMemory.peak;
    m_readout->setText(tr("%1 from step %2 to %3: peak %4")
                           .arg(name)
                           .arg(m_stepDrag->from)
                           .arg(to)
                           .arg(formatBytesChange(before, after)));
    if (m_stepPreview) m_stepPreview->replace(stepCurve(o.schedule.order));
}

bool MemoryView::moveStep(int step, int to) {
    if (!stepDragAllowed() || step < 0 || to < 0) return false;
    const std::vector<OpId>& order = m_record->schedule().order;
    if (static_cast<std::size_t>(std::max(step, to)) >= order.size()) return false;
    const EditOutcome o = m_edits->commit(order[static_cast<std::size_t>(step)], {0, to});
    if (!o.allowed()) m_readout->setText(tr("Not moved: %1").arg(QString::fromStdString(o.refusal)));
    return o.allowed();
}

bool MemoryView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_chartView->viewport() || !stepDragAllowed()) return QWidget::eventFilter(watched, event);
    auto* mouse = dynamic_cast<QMouseEvent*>(event);
    if (!mouse) return QWidget::eventFilter(watched, event);
    const int step = stepAt(mouse->position().toPoint());
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        if (mouse->button() != Qt::LeftButton || step < 0) return false;
        m_stepDrag = StepDrag{step, step};
        if (m_selection) m_selection->setCurrent(m_record->schedule().order[static_cast<std::size_t>(step)]);
        m_chartView->viewport()->setCursor(Qt::SizeHorCursor);
        return true;
    case QEvent::MouseMove:
        if (!m_stepDrag || !(mouse->buttons() & Qt::LeftButton)) return false;
        if (step != m_stepDrag->to) previewStep(step);
        return true;
    case QEvent::MouseButtonRelease: {
        if (!m_stepDrag) return false;
        const StepDrag d = *m_stepDrag;
        m_stepDrag.reset();
        m_chartView->viewport()->unsetCursor();
        if (m_stepPreview) m_stepPreview->clear();
        if (step >= 0 && step != d.from) moveStep(d.from, step);
        return true;
    }
    default: return QWidget::eventFilter(watched, event);
    }
}

}   // namespace sl::gui
