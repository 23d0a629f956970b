// SPDX-License-Identifier: MIT
#pragma once
// Best and mean cost against evaluations (Qt Charts), live while a run goes; series are updated
// with replace(), never clear + append.
#include "core/costmodel/problem.h"
#include "core/optimizer/optimizer.h"

#include <QWidget>

#include <vector>

class QCategoryAxis;
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
    /// The unit the cost axis reads in: time for makespan, bytes for memory, plain for weighted.
    void setCostUnit(Objective objective, TimeUnit unit);
    int pointCount() const;
    QWidget* canvas() const;

private:
    void labelCostTicks();
    void labelEvaluationTicks();

    QChart* m_chart;
    QChartView* m_view;
    QLineSeries* m_best;
    QLineSeries* m_mean;
    QCategoryAxis* m_x;
    QCategoryAxis* m_y;
    Objective m_objective = Objective::Weighted;
    TimeUnit m_timeUnit = TimeUnit::Abstract;
};

} // namespace sl::gui
