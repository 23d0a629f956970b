// SPDX-License-Identifier: MIT
#pragma once
// The sweep view (docs/sweep.md): quality and diversity against σ on a log
// axis, as three small multiples over the same σ range: proxy speedup (mean ± std band, top-1,
// top-k mean), best-of-k per target model, and diversity (GED %, distinct schedules on a second
// axis), each with its own y scale so no curve is flattened by another's range; the
// table of every number beside them. Clicking a point or a row selects that temperature;
// pointSelected() lets the window show its best schedule in the usual views.
#include "core/sweep/sweep.h"

#include <QWidget>

#include <memory>

class QAreaSeries;
class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QAbstractAxis;
class QLogValueAxis;
class QScatterSeries;
class QTableView;
class QValueAxis;

namespace sl::gui {

class SweepModel;

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);
    void setSweep(std::shared_ptr<const Sweep> s);
    std::shared_ptr<const Sweep> sweep() const { return m_sweep; }
    void selectPoint(int index);
    int selectedPoint() const { return m_selected; }
    QTableView* table() const { return m_table; }
    SweepModel* model() const { return m_model; }
    QChartView* qualityChart() const { return m_qualityView; }
    QChartView* diversityChart() const { return m_diversityView; }
    QChartView* targetChart() const { return m_targetView; }
    /// Data series of both charts (markers and the std band excluded) and their point counts.
    QList<QLineSeries*> dataSeries() const;
    /// The σ of the data point nearest `value` on the log axis.
    int nearestPoint(double sigma) const;

Q_SIGNALS:
    void pointSelected(int index);
    void pointActivated(int index);    ///< double-click / Enter: show it and jump to the Gantt
    void keepRequested(int index);     ///< add its best schedule to the results
    void exportRequested(int index);   ///< export its best schedule
    void exportCsvRequested();

private:
    QChartView* makeChart(QChart* chart, const QString& name);
    void rebuildSeries();
    void updateMarkers();
    QLineSeries* addLine(QChart* chart, const QString& name, const QColor& c, Qt::PenStyle style, QValueAxis* y);
    QLogValueAxis* addSigmaAxis(QChart* chart);
    QScatterSeries* addMarker(QChart* chart, QAbstractAxis* y);
    /// Shades the σ outside the sampler's training range on every chart (it extrapolates there).
    void shadeExtrapolation();
    void addShade(QChart* chart, QValueAxis* y, double from, double to);

    std::shared_ptr<const Sweep> m_sweep;
    QLabel* m_title;
    QChart* m_quality;
    QChart* m_diversity;
    QChart* m_targets;
    QChartView* m_qualityView;
    QChartView* m_diversityView;
    QChartView* m_targetView;
    QList<QLogValueAxis*> m_sigmaAxes;
    QValueAxis* m_qy;
    QValueAxis* m_ty;
    QValueAxis* m_gedAxis;
    QValueAxis* m_distinctAxis;
    QScatterSeries* m_qualityMarker;
    QScatterSeries* m_diversityMarker;
    QScatterSeries* m_targetMarker;
    QList<QLineSeries*> m_lines;
    QList<QAreaSeries*> m_shades;   ///< extrapolation bands, rebuilt with the series
    QTableView* m_table;
    SweepModel* m_model;
    int m_selected = -1;
};

}   // namespace sl::gui
