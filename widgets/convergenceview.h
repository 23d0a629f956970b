// SPDX-License-Identifier: MIT
#pragma once
// Best and mean cost against evaluations (Qt Charts), live while a run goes; series are updated
// with replace(), never clear + append.
#include "core/optimizer/optimizer.h"

#include <QWidget>

#include <vector>

class QChart;
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
    QWidget* canvas() const;

private:
    QChart* m_chart;
    QChartView* m_view;
    QLineSeries* m_best;
    QLineSeries* m_mean;
    QValueAxis* m_x;
    QValueAxis* m_y;
};

} // namespace sl::gui
