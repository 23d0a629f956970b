// SPDX-License-Identifier: MIT
// The Gantt chart's hand edits: drag a bar to another place (a lane, a place among its ops), see
// the schedule it would make before the drop, drop it or have it refused with the reason; and the
// same moves from the keyboard. The edits themselves are ScheduleEdits'.
#include "widgets/views/ganttview.h"

#include "widgets/session/resultsmodel.h"
#include "widgets/session/scheduleedits.h"
#include "widgets/session/units.h"
#include "widgets/views/palette.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace sl::gui {

namespace {

constexpr double kDragThreshold = 4;   ///< pixels before a press on a bar becomes a drag

}   // namespace

void GanttView::setEdits(ScheduleEdits* edits) { m_edits = edits; }

std::optional<OpPlace> GanttView::placeAt(OpId v, QPointF pos) const {
    if (!m_record || m_lanes.empty()) return std::nullopt;
    for (std::size_t lane = 0; lane < m_lanes.size(); ++lane) {
        const QRectF lr = laneRect(static_cast<int>(lane));
        if (pos.y() < lr.top() || pos.y() >= lr.bottom()) continue;
        const double t = m_map.toTime(pos.x());
        int before = 0;
        for (const Bar& b : m_lanes[lane].bars)
            if (b.op != v && (b.start + b.end) / 2 < t) ++before;
        return OpPlace{static_cast<int>(lane), before};
    }
    return std::nullopt;
}

QPointF GanttView::dropPoint(OpId v, OpPlace to) const {
    if (!m_record || to.device < 0 || to.device >= static_cast<int>(m_lanes.size())) return {};
    std::vector<double> middles;   // the lane's other ops, by their middle (placeAt's order)
    for (const Bar& b : m_lanes[static_cast<std::size_t>(to.device)].bars)
        if (b.op != v) middles.push_back((b.start + b.end) / 2);
    std::sort(middles.begin(), middles.end());
    const auto n = static_cast<int>(middles.size());
    const int at = std::clamp(to.position, 0, n);
    const double left = at > 0 ? middles[static_cast<std::size_t>(at - 1)] : (n ? middles.front() - 1 : 0);
    const double right = at < n ? middles[static_cast<std::size_t>(at)] : (n ? middles.back() + 1 : 1);
    const QRectF lane = laneRect(to.device);
    return {m_map.toX((left + right) / 2), lane.center().y()};
}

void GanttView::dragOpTo(QPointF pos) {
    OpDrag& d = *m_opDrag;
    d.at = pos;
    if (!d.moving && QLineF(d.from, pos).length() < kDragThreshold) return;
    const bool first = !d.moving;
    if (first) setCursor(Qt::ClosedHandCursor);
    d.moving = true;
    const std::optional<OpPlace> place = placeAt(d.op, pos);
    if (first || place != d.place) {
        d.place = place;
        d.outcome =
            place && m_edits ? m_edits->preview(d.op, *place) : EditOutcome{.refusal = "drop it on a device's lane"};
    }
    update();
}

void GanttView::dropOp() {
    const OpDrag& d = *m_opDrag;
    if (!d.place || !m_edits) return;
    const EditOutcome o = d.outcome.allowed() ? m_edits->commit(d.op, *d.place) : d.outcome;
    m_lastRefusal = o.allowed() ? QString() : QString::fromStdString(o.refusal);
    if (!o.allowed()) QToolTip::showText(mapToGlobal(d.at.toPoint()), tr("Not moved: %1").arg(m_lastRefusal), this);
}

QString GanttView::dragText() const {
    if (!m_opDrag || !m_opDrag->moving || !m_record) return {};
    const EditOutcome& o = m_opDrag->outcome;
    if (!o.allowed()) return tr("Cannot move here: %1").arg(QString::fromStdString(o.refusal));
    return editChangeText(m_record->schedule(), o.schedule, timeUnit());
}

void GanttView::paintDrop(QPainter& p) {
    if (!m_opDrag || !m_opDrag->moving) return;
    const OpDrag& d = *m_opDrag;
    const bool allowed = d.outcome.allowed();
    const auto fm0 = [this] { return QFontMetrics(font()); };
    if (d.place && allowed) {   // where the op would run: a ghost bar at its new times
        const QRectF lane = laneRect(d.place->device);
        const ScheduledOp& so = d.outcome.schedule.ops[static_cast<std::size_t>(d.op)];
        const double x0 = m_map.toX(so.start), x1 = std::max(x0 + 2, m_map.toX(so.end));
        QColor ghost = barColour(d.op);
        ghost.setAlpha(170);
        const QRectF bar(x0, lane.top() + 3, std::max(6.0, x1 - x0), lane.height() - 6);
        p.fillRect(bar, ghost);
        p.setPen(QPen(palette().color(QPalette::WindowText), 2, Qt::DashLine));
        p.drawRect(bar);
        p.setPen(QPen(palette().color(QPalette::WindowText), 1));
        p.drawText(bar.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fm0().elidedText(barText(d.op), Qt::ElideRight, static_cast<int>(std::max(0.0, bar.width() - 6))));
    }
    // the op's own bar, dimmed: it leaves from there
    const QRectF own = barRect(d.op);
    p.fillRect(own, QColor(255, 255, 255, 150));
    p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
    p.drawRect(own);
    // the read-out beside the cursor, kept inside the chart
    const QString text = dragText();
    const QFontMetrics fm(font());
    const QSizeF size(fm.horizontalAdvance(text) + 16, fm.height() + 10);
    const double x = std::clamp(d.at.x() + 14, 4.0, std::max(4.0, width() - size.width() - 4));
    const double y = d.at.y() + 18 + size.height() < height() ? d.at.y() + 18 : d.at.y() - 18 - size.height();
    const QRectF box(QPointF(x, y), size);
    p.setPen(allowed ? palette().color(QPalette::Mid) : QColor(190, 30, 30));
    p.setBrush(allowed ? palette().color(QPalette::ToolTipBase) : QColor(255, 235, 235));
    p.drawRoundedRect(box, 4, 4);
    p.setPen(allowed ? palette().color(QPalette::ToolTipText) : QColor(150, 20, 20));
    p.drawText(box.adjusted(8, 0, -8, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
}

void GanttView::contextMenuEvent(QContextMenuEvent* e) {
    const OpId v = m_edits ? opAt(e->pos()) : kNoOp;
    if (v == kNoOp) return;
    const QString name = QString::fromStdString(m_record->problem->g().op(v).name);
    const auto& devices = m_record->problem->platform.devices;
    const int d = m_record->schedule().ops[static_cast<std::size_t>(v)].device;
    const QString device = QString::fromStdString(devices[static_cast<std::size_t>(d)].name);
    QMenu menu(this);
    menu.addAction(tr("Pin %1 to %2").arg(name, device), this, [this, v] { m_edits->pin(v, false); });
    menu.addAction(tr("Pin %1 to %2 at Its Place").arg(name, device), this, [this, v] { m_edits->pin(v, true); })
        ->setStatusTip(tr("Also keep it in this order among %1's ops pinned at their place").arg(device));
    if (m_edits->pins().pinned(v)) menu.addAction(tr("Unpin %1").arg(name), this, [this, v] { m_edits->unpin(v); });
    if (!m_edits->pins().empty())
        menu.addAction(tr("Unpin All (%1)").arg(m_edits->pins().count()), this, [this] { m_edits->unpinAll(); });
    menu.exec(e->globalPos());
}

void GanttView::keyPressEvent(QKeyEvent* e) {
    if (m_opDrag && e->key() == Qt::Key_Escape) {   // a drag given up: nothing moves
        m_opDrag.reset();
        unsetCursor();
        update();
        return;
    }
    QWidget::keyPressEvent(e);
}

}   // namespace sl::gui
