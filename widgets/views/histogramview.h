// SPDX-License-Identifier: MIT
#pragma once
// A histogram of sampled values (Qt Charts): filled bins, the mean (dashed) and the best (solid)
// marked. Used for the proxy speedups of one temperature (the analogue of Fig. 3 in Zhang et al. 2023, "Robust Scheduling with GFlowNets"; docs/sweep.md).
#include <QWidget>

#include <vector>

class QAreaSeries;
class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace sl::gui {

class HistogramView : public QWidget {
    Q_OBJECT
public:
    explicit HistogramView(QWidget* parent = nullptr);
    void setAxisTitles(const QString& x, const QString& y);
    /// Bins `values` (empty clears); `mean` and `best` are marked as given.
    void setValues(const std::vector<double>& values, double mean, double best);
    int binCount() const { return static_cast<int>(m_counts.size()); }
    int nonEmptyBins() const;
    int total() const;   ///< values binned
    QChartView* chartView() const { return m_view; }

private:
    QChart* m_chart;
    QChartView* m_view;
    QLineSeries* m_upper;
    QAreaSeries* m_area;
    QLineSeries* m_mean;
    QLineSeries* m_best;
    QValueAxis* m_x;
    QValueAxis* m_y;
    std::vector<int> m_counts;
};

}   // namespace sl::gui
