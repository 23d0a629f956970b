// SPDX-License-Identifier: MIT
#include "widgets/views/timechartview.h"

#include "widgets/views/chartutil.h"

#include <QCategoryAxis>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>
#include <limits>

namespace sl::gui {

TimeChartView::TimeChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
    setMouseTracking(true);
    setDragMode(QGraphicsView::NoDrag);
}

void TimeChartView::setTimeAxis(QCategoryAxis* axis, double t0, double t1, TimeUnit unit) {
    m_axis = axis;
    m_unit = unit;
    m_fullT0 = t0;
    m_fullT1 = t1 > t0 ? t1 : t0 + 1;
    m_t0 = m_fullT0;
    m_t1 = m_fullT1;
    setTimeRange(axis, m_t0, m_t1, m_unit);
}

void TimeChartView::clearTimeAxis() { m_axis = nullptr; }

TimeMapping TimeChartView::mapping() const {
    const QRectF plot = mapFromScene(chart()->mapToScene(chart()->plotArea())).boundingRect();
    return {m_t0, m_t1, plot.left(), std::max(1.0, plot.width())};
}

void TimeChartView::setVisibleRange(double t0, double t1) {
    if (!m_axis || !(t1 > t0)) return;
    // never wider than the whole range, never narrower than a millionth of it
    const double full = m_fullT1 - m_fullT0;
    const double span = std::clamp(t1 - t0, full * 1e-6, full);
    t0 = std::clamp(t0, m_fullT0 - full, m_fullT1);
    m_t0 = t0;
    m_t1 = t0 + span;
    setTimeRange(m_axis, m_t0, m_t1, m_unit);
    Q_EMIT visibleRangeChanged(m_t0, m_t1);
}

void TimeChartView::resetZoom() { setVisibleRange(m_fullT0, m_fullT1); }

void TimeChartView::apply(const TimeMapping& m) { setVisibleRange(m.t0, m.t1); }

void TimeChartView::wheelEvent(QWheelEvent* e) {
    if (!m_axis) return QChartView::wheelEvent(e);
    const double steps = e->angleDelta().y() / 120.0;
    TimeMapping m = mapping();
    if (e->modifiers() & Qt::ShiftModifier)
        m.panPixels(steps * 60);
    else
        m.zoomAt(std::clamp(e->position().x(), m.x0, m.x0 + m.width), std::pow(1.25, steps));
    apply(m);
    e->accept();
}

void TimeChartView::mousePressEvent(QMouseEvent* e) {
    if (m_axis && e->button() == Qt::LeftButton) m_dragX = e->position().x();
    QChartView::mousePressEvent(e);
}

void TimeChartView::mouseMoveEvent(QMouseEvent* e) {
    if (m_axis && m_dragX && (e->buttons() & Qt::LeftButton)) {
        TimeMapping m = mapping();
        m.panPixels(e->position().x() - *m_dragX);
        m_dragX = e->position().x();
        apply(m);
    }
    const TimeMapping m = mapping();
    const bool inside = m_axis && e->position().x() >= m.x0 && e->position().x() <= m.x0 + m.width;
    Q_EMIT hoveredTime(inside ? m.toTime(e->position().x()) : std::numeric_limits<double>::quiet_NaN());
    QChartView::mouseMoveEvent(e);
}

void TimeChartView::mouseReleaseEvent(QMouseEvent* e) {
    m_dragX.reset();
    QChartView::mouseReleaseEvent(e);
}

void TimeChartView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (m_axis) resetZoom();
    QChartView::mouseDoubleClickEvent(e);
}

void TimeChartView::leaveEvent(QEvent* e) {
    Q_EMIT hoveredTime(std::numeric_limits<double>::quiet_NaN());
    QChartView::leaveEvent(e);
}

}   // namespace sl::gui
