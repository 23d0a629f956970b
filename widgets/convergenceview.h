// SPDX-License-Identifier: MIT
#pragma once
// Best and mean cost against evaluations (Qt Charts), live while a run goes; series are updated
// with replace(), never clear + append.
#include "core/optimizer/optimizer.h"

#include <QWidget>

#include <vector>

class QChart;
class QLabel;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace sl::gui {

class ConvergenceView : public QWidget {
    Q_OBJECT
public:
    explicit ConvergenceView(QWidget* parent = nullptr);
    void setHistory(const QString& title, const std::vector<Progress>& history);
    int pointCount() const;
    /// Under the chart: why there is no curve to read (one evaluation), else empty.
    QString note() const;
    QString title() const;
    /// The x axis range (tests: a one-evaluation run must not show a degenerate axis).
    QPointF xRange() const;
    QPointF yRange() const;   ///< in cost units (unscaled)
    QString yTitle() const;   ///< "cost", or "cost (millions)" when the axis is scaled
    QWidget* canvas() const;

private:
    QChart* m_chart;
    QChartView* m_view;
    QLineSeries* m_best;
    QLineSeries* m_mean;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLabel* m_note;
    double m_yScale = 1;   // the y axis shows cost / m_yScale
};

} // namespace sl::gui
