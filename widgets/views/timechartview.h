// SPDX-License-Identifier: MIT
#pragma once
// A Qt Charts view whose x axis is time, browsed like the Gantt chart: wheel zooms at the mouse,
// drag or Shift+wheel pans, double-click shows the whole range again; the axis ticks read in the
// graph's unit, and the time under the mouse is reported for read-outs.
#include "core/graph/graph.h"
#include "widgets/session/timemapping.h"

#include <QChartView>

#include <optional>

class QCategoryAxis;

namespace sl::gui {

class TimeChartView : public QChartView {
    Q_OBJECT
public:
    explicit TimeChartView(QChart* chart, QWidget* parent = nullptr);

    /// The axis to drive, the whole range double-click returns to, and the unit of its labels.
    void setTimeAxis(QCategoryAxis* axis, double t0, double t1, TimeUnit unit);
    /// No axis to drive (an empty chart, or one whose x is not time): wheel and drag do nothing.
    void clearTimeAxis();
    void setVisibleRange(double t0, double t1);
    void resetZoom();
    double visibleStart() const { return m_t0; }
    double visibleEnd() const { return m_t1; }
    /// The plot's time <-> pixel mapping in view coordinates (the Gantt chart's math).
    TimeMapping mapping() const;

Q_SIGNALS:
    void visibleRangeChanged(double t0, double t1);
    /// The time under the mouse inside the plot; NaN when the mouse leaves it.
    void hoveredTime(double t);

protected:
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;

private:
    void apply(const TimeMapping& m);

    QCategoryAxis* m_axis = nullptr;
    TimeUnit m_unit = TimeUnit::Abstract;
    double m_fullT0 = 0, m_fullT1 = 1;
    double m_t0 = 0, m_t1 = 1;
    std::optional<double> m_dragX;
};

}   // namespace sl::gui
