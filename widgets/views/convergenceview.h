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
class QLabel;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace sl::gui {

class Document;

class ConvergenceView : public QWidget {
    Q_OBJECT
public:
    explicit ConvergenceView(QWidget* parent = nullptr);
    /// Plots the run behind `doc`'s schedule on show whenever one is shown (a live run is fed
    /// by the window through setHistory).
    void observe(const Document* doc);
    void setHistory(const QString& title, const std::vector<Progress>& history);
    /// The unit the cost axis reads in: time for makespan, bytes for memory, plain for weighted.
    void setCostUnit(Objective objective, TimeUnit unit);
    /// A dashed line at the problem's lower bound on the cost (makespan or peak memory; 0: none),
    /// drawn from the next setHistory(): no cost curve can go below it. It steps up where a run
    /// proved a higher bound (Progress::bound, exact-makespan).
    void setLowerBound(double costBound);
    double lowerBound() const;   ///< the bound drawn at the end of the axis, 0 when none
    int pointCount() const;
    /// Under the chart: why there is no curve to read (one evaluation), else empty.
    QString note() const;
    QString title() const;
    /// The x axis range (tests: a one-evaluation run must not show a degenerate axis).
    QPointF xRange() const;
    QPointF yRange() const;   ///< in cost units (unscaled)
    QString yTitle() const;
    QWidget* canvas() const;

private:
    void labelCostTicks();
    /// The bound line's points for `history`: m_costBound from 0, stepping up to each higher
    /// Progress::bound; empty when there is no bound or the objective is the weighted one.
    QList<QPointF> boundSteps(const std::vector<Progress>& history, double xEnd) const;
    void labelEvaluationTicks();
    /// The marker and the note under the chart for a one-evaluation run or a history-less schedule.
    void showSingleRunNote(const std::vector<Progress>& history, const QString& title, qsizetype points);

    QChart* m_chart;
    QChartView* m_view;
    QLineSeries* m_best;
    QLineSeries* m_mean;
    QLineSeries* m_bound;
    double m_costBound = 0;
    QCategoryAxis* m_x;
    QCategoryAxis* m_y;
    QLabel* m_note;
    Objective m_objective = Objective::Weighted;
    TimeUnit m_timeUnit = TimeUnit::Abstract;
};

}   // namespace sl::gui
