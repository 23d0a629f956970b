// SPDX-License-Identifier: MIT
#pragma once
// The Study tab (docs/studies.md): a study's summary per method (cost over the best, its 95 %
// interval, wins, ties, losses, failures, time), Dolan and Moré's performance profile on a log τ
// axis, the win/loss matrix of every pair of methods, the per-graph gaps as a strip per method,
// and the per-graph costs, where a double-click asks for that run's schedule (runRequested).
// The database is read on a worker; schedules are read only when one is asked for.
#include "widgets/session/latestrequest.h"

#include "core/study/studysummary.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include <QList>
#include <QPointF>

class QChart;
class QChartView;
class QLabel;
class QAbstractItemModel;
class QTableView;
class QTableWidget;

namespace sl::gui {

class StudyGraphsModel;

class StudyView : public QWidget {
    Q_OBJECT
public:
    explicit StudyView(QWidget* parent = nullptr);
    /// Reads the study at `path` on a worker, then shows it (studyShown(), or studyFailed()); a
    /// read that ends after a newer one began is dropped.
    void openStudy(const QString& path);
    const QString& path() const { return m_path; }
    /// The study on show; null before one is.
    const StudySummary* summary() const { return m_summary.get(); }
    const StudySpec* spec() const { return m_spec ? &*m_spec : nullptr; }
    QTableWidget* summaryTable() const { return m_table; }
    QTableWidget* winLossTable() const { return m_winLoss; }
    QTableView* graphTable() const { return m_graphs; }
    /// The Wilcoxon signed-rank test of the win/loss matrix's methods `a` and `b`, as shown below it.
    void showTest(int a, int b);
    QString testText() const;
    QChartView* profileChart() const { return m_profileView; }
    QChartView* gapChart() const { return m_gapView; }

    /// Asks to compare the two selected cells of the per-graph table (one graph, two methods);
    /// false when the selection is not that.
    bool compareSelected();
    /// The table as CSV (its headers, then its rows), for the tables' Export as CSV.
    static QString tableCsv(const QAbstractItemModel* table);

Q_SIGNALS:
    void studyShown();
    void studyFailed(const QString& message);
    /// The user asked for a run's schedule: graph file, method label, the first seed that ran.
    void runRequested(const QString& graph, const QString& method, quint64 seed);
    /// Two methods' runs on one graph, to compare (two cells of one row selected, then Compare).
    void compareRequested(const QString& graph, const QString& first, const QString& second, quint64 seed);

private:
    void show(StudySpec spec, StudySummary summary);
    void fillSummary();
    void fillWinLoss();
    void fillGraphs();
    void drawProfile();
    void drawGaps();
    /// Strip `method`'s points (m_gapGraphs[method] their graphs); raises `top` to its largest gap.
    QList<QPointF> gapPoints(std::size_t method, double& top);
    /// `chart`'s series are the summary's methods, in its order: their points can move.
    bool seriesAreMethods(const QChart* chart) const;
    /// The performance profile of `method` as a step function (share of graphs within tau of the best).
    QList<QPointF> profileSteps(std::size_t method, double tauMax) const;
    /// A click on a strip's point: that method's run on that point's graph (runRequested).
    void openGapPoint(std::size_t method, QPointF at);
    /// Right-click menus: a chart exports as PNG or SVG, a table as CSV.
    void addExportMenus();

    QString m_path;
    LatestRequest m_reads;   // openStudy()'s reads: only the newest is shown
    std::optional<StudySpec> m_spec;
    std::shared_ptr<const StudySummary> m_summary;
    QLabel* m_title;
    QTableWidget* m_table;
    QTableWidget* m_winLoss;
    QTableView* m_graphs;
    StudyGraphsModel* m_graphModel;
    QLabel* m_test;
    QChart* m_profile;
    QChartView* m_profileView;
    QChart* m_gaps;
    std::vector<std::vector<std::size_t>> m_gapGraphs;   // per method: the graph of each strip point
    std::vector<std::vector<double>> m_ratios;           // per method, per graph: cost / best (ratioToBest)
    QChartView* m_gapView;
};

}   // namespace sl::gui
