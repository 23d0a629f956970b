// SPDX-License-Identifier: MIT
// The timeline views and their numbers: units in the results table, the Gantt axis and tooltips,
// the memory chart's read-out and zoom, the compare and convergence axes; the Gantt ends at the
// makespan on a 10k-op schedule; no NaN axis range reaches Qt Charts.
#include "common/testmain.h"
#include "core/graph/jobshopnames.h"
#include "core/optimizer/optimizer.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/runpanel.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/session/graphorigin.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/units.h"
#include "widgets/views/chartutil.h"
#include "widgets/views/compareview.h"
#include "widgets/views/convergenceview.h"
#include "widgets/views/ganttview.h"
#include "widgets/views/memoryview.h"
#include "widgets/views/palette.h"
#include "widgets/views/timechartview.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QXYSeries>
#include <QtTest>

#define EXAMPLES SCHEDLAB_TEST_DATA "/../../resources/examples"
#define WORKFLOW SCHEDLAB_TEST_DATA "/wfcommons/blast-chameleon-small-001.json"

using namespace sl;
using namespace sl::gui;

namespace {

QStringList chartWarnings;

void collectWarnings(QtMsgType type, const QMessageLogContext&, const QString& msg) {
    if (type == QtWarningMsg && msg.contains(QLatin1String("invalid range"))) chartWarnings << msg;
}

/// Opens `origin`, runs `method` to its end; the record, or an empty one on failure.
RunRecord openAndRun(MainWindow& w, const GraphOrigin& origin, const QString& method) {
    if (!w.open(origin) || !w.runPanel()->setMethod(method)) return {};
    QSignalSpy finished(&w, &MainWindow::runFinished);
    if (!w.startRun() || !finished.wait(60000)) return {};
    return finished.takeFirst().at(0).value<RunRecord>();
}

/// ResNet-50's list-cp schedule in the Gantt tab of `w` (shown, 1400 x 900); its record.
RunRecord ganttOfResnet(MainWindow& w) {
    w.resize(1400, 900);
    w.show();
    const RunRecord r = openAndRun(w, GraphOrigin::file(QStringLiteral(EXAMPLES "/resnet50.onnx")), QStringLiteral("list-cp"));
    w.showTab(MainWindow::GanttTab);
    return r;
}

QString cell(MainWindow& w, int row, int column) {
    return w.results()->data(w.results()->index(row, column)).toString();
}

/// The times in `text` ("makespan 6,495", "cost 1.80 h", "total work …", "best …") that do not carry
/// a unit of a graph timed in seconds.
QStringList unitlessTimes(const QString& text) {
    static const QRegularExpression time(
        QStringLiteral("(makespan|cost|total work|best) ([<>]?[0-9][0-9.,]*)( (µs|ms|s|min|h)\\b)?"));
    QStringList bare;
    for (auto it = time.globalMatch(text); it.hasNext();)
        if (const auto m = it.next(); m.captured(3).isEmpty()) bare << m.captured(0);
    return bare;
}

/// Op `job`_`step` of a job-shop graph (named j<job>_o<step>).
OpId jobOp(const Graph& g, int job, int step) {
    const std::string name = "j" + std::to_string(job) + "_o" + std::to_string(step);
    for (OpId v = 0; v < g.opCount(); ++v)
        if (g.op(v).name == name) return v;
    return kNoOp;
}

/// The labels of a chart's axis (a QCategoryAxis: what is painted at the ticks).
QStringList axisLabels(QChart* chart, Qt::Orientation o) {
    const auto axes = chart->axes(o);
    auto* axis = axes.isEmpty() ? nullptr : qobject_cast<QCategoryAxis*>(axes.first());
    return axis ? axis->categoriesLabels() : QStringList();
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// The bound line steps up to what a run proved (Progress::bound) and is not drawn for the
    /// weighted cost, which has no bound of its own. Catches a line fixed at the analytic bound, or
    /// drawn for weighted costs. (A memory run's line: tst_results, through the main window.)
    void convergenceBoundStepsUpWithTheRun() {
        ConvergenceView view;
        view.setCostUnit(Objective::Makespan, TimeUnit::Abstract);
        view.setLowerBound(10);
        std::vector<Progress> history(3);
        for (int i = 0; i < 3; ++i) history[size_t(i)] = {.evaluations = 10 * (i + 1), .best = 20.0 - i, .mean = 20.0 - i};
        history[1].bound = 12;
        history[2].bound = 15;
        view.setHistory(QStringLiteral("exact"), history);
        QCOMPARE(view.lowerBound(), 15.0);
        view.setCostUnit(Objective::Weighted, TimeUnit::Abstract);
        view.setHistory(QStringLiteral("exact"), history);
        QCOMPARE(view.lowerBound(), 0.0);
    }

    /// A memory curve's axis ends on round MiB (nice numbers in the unit it is labelled in), and a
    /// 5,000-evaluation run's x axis ends at 5,000. Catches nice numbers taken on raw bytes
    /// (50,000,000-byte steps, ticks at 47.7 and 95.4 MiB) or Qt's overshoot to 6,000.
    void convergenceAxesAreRoundInTheirUnit() {
        ConvergenceView view;
        view.setCostUnit(Objective::Memory, TimeUnit::Abstract);
        const double mib = 1024.0 * 1024.0;
        std::vector<Progress> history;
        for (int i = 1; i <= 50; ++i)
            history.push_back({.evaluations = 100 * i, .best = (84 - 0.3 * i) * mib, .mean = (97 - 0.5 * i) * mib});
        view.setLowerBound(48.7 * mib);
        view.setHistory(QStringLiteral("memory"), history);
        // data 48.7 (the bound) to 96.5 MiB, padded by 8 % of that span: 44.9 to 100.3, then out to
        // whole 10 MiB ticks
        const QPointF y = view.yRange();
        QCOMPARE(y.x(), 40 * mib);
        QCOMPARE(y.y(), 110 * mib);
        QCOMPARE(view.xRange(), QPointF(0, 5000));
    }

    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SchedLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_timeline"));
        QSettings().clear();
        registerCoreOptimizers();
    }

    /// Mutation caught: the Makespan / Cost / Evals / Seconds cells printed without units
    /// (formatNumber, QString::number) or in another scale.
    void resultsTableShowsUnits() {
        MainWindow w;
        const RunRecord r = openAndRun(w, GraphOrigin::file(QStringLiteral(EXAMPLES "/resnet50.onnx")), QStringLiteral("list-cp"));
        QVERIFY(r.result);
        QVERIFY(r.problem->g().timeUnit() == TimeUnit::Microseconds);
        const double ms = r.schedule().makespan / 1000;   // the ONNX roofline is in microseconds
        QVERIFY2(ms >= 1 && ms < 1000, "ResNet-50's makespan should read in milliseconds");
        const QString makespan = cell(w, 0, ResultsModel::Makespan);
        QVERIFY2(makespan.endsWith(QLatin1String(" ms")), qPrintable(makespan));
        QVERIFY(std::abs(makespan.chopped(3).remove(QLatin1Char(',')).toDouble() - ms) <= 0.006 * ms);
        QCOMPARE(w.results()->data(w.results()->index(0, ResultsModel::Makespan), ResultsModel::SortRole).toDouble(), r.schedule().makespan);
        QCOMPARE(w.results()->data(w.results()->index(0, ResultsModel::Makespan), Qt::ToolTipRole).toString(),
                 formatExact(r.schedule().makespan, TimeUnit::Microseconds));   // the exact value on hover
        const QString seconds = cell(w, 0, ResultsModel::Seconds);
        QVERIFY2(seconds.endsWith(QLatin1String(" s")) || seconds.endsWith(QStringLiteral(" ms")) || seconds.endsWith(QStringLiteral(" µs")),
                 qPrintable(seconds));
        QVERIFY(!cell(w, 0, ResultsModel::Cost).contains(QLatin1Char('e')));

        MainWindow jobShop;
        const RunRecord j = openAndRun(jobShop, GraphOrigin::file(QStringLiteral(EXAMPLES "/ft06.txt")), QStringLiteral("list-cp"));
        QVERIFY(j.result);
        QCOMPARE(j.schedule().makespan, 61.0);   // list-cp on ft06 (schedlab-cli optimize says the same)
        QCOMPARE(cell(jobShop, 0, ResultsModel::Makespan), QStringLiteral("61.0 units"));
        QCOMPARE(cell(jobShop, 0, ResultsModel::Cost), cell(jobShop, 0, ResultsModel::Makespan));   // the makespan objective
        // ft06's machine bound is 52 (one-machine relaxation; tst_core_bounds): (61 - 52) / 52 = 17.3 %,
        // and the convergence plot draws it. Catches a gap against the critical path (47: +29.8 %).
        QCOMPARE(cell(jobShop, 0, ResultsModel::BoundGap), QStringLiteral("+17.3 %"));
        QCOMPARE(jobShop.convergenceView()->lowerBound(), 52.0);
    }

    /// Every time the explorer prints of a workflow timed in seconds carries the unit: the status bar
    /// after a run, a sample and a sweep point, the graph's total work beside it, a run's progress
    /// row. Mutations caught: a bare number (formatPlain) for the sweep point's makespan (the issue:
    /// "makespan 6,495" where the dock says "1.80 h"), for the total work or for a run's best cost.
    void printedTimesCarryTheGraphsUnit() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QStringList printed;
        connect(w.statusBar(), &QStatusBar::messageChanged, &w, [&printed](const QString& m) { printed << m; });
        const RunRecord r = openAndRun(w, GraphOrigin::file(QStringLiteral(WORKFLOW)), QStringLiteral("list-cp"));
        QVERIFY(r.result);
        QVERIFY(r.problem->g().timeUnit() == TimeUnit::Seconds);
        for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
            if (l->text().contains(QLatin1String("total work"))) printed << l->text();
        // a run's progress row, while it goes
        QVERIFY(w.runPanel()->setMethod(QStringLiteral("brkga")));
        QVERIFY(w.runPanel()->setOption(QStringLiteral("budget"), QStringLiteral("100000000")));
        QVERIFY(w.startRun());
        auto bestShown = [&w] {
            for (QLabel* l : w.runPanel()->findChildren<QLabel*>(QStringLiteral("jobText")))
                if (l->text().contains(QLatin1String("best"))) return l->text();
            return QString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(!bestShown().isEmpty(), 20000);
        printed << bestShown();
        w.cancelAll();
        QTRY_COMPARE_WITH_TIMEOUT(w.activeRuns(), 0, 20000);
        // a sweep point shown in the views
        w.temperaturePanel()->setSampler(QStringLiteral("list-gumbel"));
        w.temperaturePanel()->setSweepSettings(2, 20, 5);
        QSignalSpy swept(&w, &MainWindow::sweepShown);
        w.startSweep();
        QTRY_VERIFY_WITH_TIMEOUT(swept.count() > 0, 30000);
        w.showSweepPoint(0);
        QTRY_VERIFY_WITH_TIMEOUT(printed.filter(QStringLiteral("Gantt and Memory tabs: makespan")).size() == 1, 10000);
        QVERIFY(printed.filter(QStringLiteral("total work")).size() == 1 &&
                printed.filter(QStringLiteral("finished: cost")).size() >= 1);
        for (const QString& m : printed) QVERIFY2(unitlessTimes(m).isEmpty(), qPrintable(m));
    }

    /// Costs and counts by hand: the memory objective in IEC bytes, the weighted one plain,
    /// evaluations with separators. Mutation caught: formatCost ignoring the objective.
    void costsAndCountsReadInTheirUnits() {
        QCOMPARE(formatCost(12345, Objective::Makespan, TimeUnit::Microseconds), QStringLiteral("12.3 ms"));
        QCOMPARE(formatCost(3.5 * 1024 * 1024, Objective::Memory, TimeUnit::Microseconds), QStringLiteral("3.5 MiB"));
        QCOMPARE(formatCost(0.734, Objective::Weighted, TimeUnit::Microseconds), QStringLiteral("0.734"));
        QCOMPARE(formatPlain(1.985e7), QStringLiteral("19.9 M"));   // never 1.985e+07
        QCOMPARE(formatCount(12000), QStringLiteral("12,000"));
    }

    /// Mutation caught: axis labels as bare numbers ("5000") or tooltips without units.
    void ganttAxisAndTooltipCarryUnits() {
        MainWindow w;
        const RunRecord r = ganttOfResnet(w);
        QVERIFY(r.result);
        GanttView* g = w.ganttView();
        QTRY_VERIFY(g->isVisible() && g->width() > 600);
        g->setTimeRange(0, 20000);   // 0..20 ms in microseconds
        QCOMPARE(g->tickLabel(0), QStringLiteral("0 ms"));
        QCOMPARE(g->tickLabel(5000), QStringLiteral("5 ms"));
        QCOMPARE(g->tickLabel(10000), QStringLiteral("10 ms"));
        g->setTimeRange(0, 2000);    // 0..2 ms: half-millisecond ticks or finer need decimals
        QVERIFY2(g->tickLabel(500).startsWith(QLatin1String("0.5")) && g->tickLabel(500).endsWith(QLatin1String(" ms")),
                 qPrintable(g->tickLabel(500) + QLatin1Char('|') + g->tickLabel(0)));
        // the op that ends last: its tooltip reads start, end and duration in the graph's unit
        const auto& ops = r.schedule().ops;
        const auto last = static_cast<OpId>(std::max_element(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.end < b.end; }) - ops.begin());
        const auto& so = ops[static_cast<size_t>(last)];
        const QString tip = g->tooltipFor(last);
        const TimeScale scale = timeScaleFor(so.end, TimeUnit::Microseconds);
        QCOMPARE(scale.suffix, QStringLiteral("ms"));
        QVERIFY2(tip.contains(QStringLiteral("end %1").arg(formatScaled(so.end, scale))), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("(duration %1)").arg(formatDuration(so.end - so.start, TimeUnit::Microseconds))), qPrintable(tip));
    }

    /// Time labels never touch, at any width and zoom; a bar says its op type, and its name when
    /// the node has one of its own. Mutations caught: ticks drawn without the overlap check
    /// ("0.0 ms0.5 ms" on a narrow Gantt), bars labelled by bare names ("n6").
    void ganttTicksNeverCollideAndBarsSayTheirType() {
        QCOMPARE(GanttView::barLabel({.name = "n6", .type = "Conv"}), QStringLiteral("Conv n6"));
        QCOMPARE(GanttView::barLabel({.name = "Conv_6", .type = "Conv"}), QStringLiteral("Conv"));   // the importer's name for an unnamed node
        QCOMPARE(GanttView::barLabel({.name = "Relu", .type = "Relu"}), QStringLiteral("Relu"));
        QCOMPARE(GanttView::barLabel({.name = "t3", .type = ""}), QStringLiteral("t3"));
        MainWindow w;
        const RunRecord r = ganttOfResnet(w);
        QVERIFY(r.result);
        GanttView* g = w.ganttView();
        int checked = 0;
        for (int width = 260; width <= 1400; width += 53)
            for (const double end : {1.0, 37.0, 2000.0, 9999.0, 123456.0}) {
                g->resize(width, 300);
                g->setTimeRange(0, end);
                g->grab();   // paints: the drawn ticks are recorded
                const auto& ticks = g->drawnTicks();
                for (size_t i = 1; i < ticks.size(); ++i)
                    QVERIFY2(ticks[i].first >= ticks[i - 1].second, qPrintable(QStringLiteral("width %1, end %2").arg(width).arg(end)));
                checked += ticks.size() >= 2;
            }
        QVERIFY(checked > 20);   // most settings show several labels
    }

    /// Job and step from the job-shop importer's op names, and only from those. Mutations caught: a
    /// prefix match ("j3_o2b", "j3_o"), a graph with one op of another name taken for a job-shop.
    void jobStepsOnlyFromJobShopNames() {
        QCOMPARE(parseJobShopOpName("j3_o2")->job, 3);
        QCOMPARE(parseJobShopOpName("j13_o10")->step, 10);
        for (const char* name : {"j3_o", "j_o2", "jx_o1", "j3_o2b", "J3_o2", "j-1_o2", "j3o2", "n3"})
            QVERIFY2(!parseJobShopOpName(name), name);
        QCOMPARE(GanttView::jobStepLabel({3, 2}), QStringLiteral("J3·2"));
        Graph g;
        g.addOp({.name = "j0_o0", .type = "M0", .duration = 1});
        g.addOp({.name = "j0_o1", .type = "M1", .duration = 1});
        QCOMPARE(jobStepsOf(g).size(), size_t(2));
        g.addOp({.name = "sink", .type = "M0", .duration = 1});
        QVERIFY(jobStepsOf(g).empty());
        QSet<QRgb> twenty;   // ta21's 20 jobs: 20 colours
        for (int j = 0; j < 20; ++j) twenty << palette::distinct(j, 20).rgb();
        QCOMPARE(twenty.size(), 20);
    }

    /// A job-shop's Gantt reads by job: the bars of a job share a colour, other jobs differ, and a
    /// bar says its job and step, not the machine its lane already names; a graph of other names
    /// keeps device colours and type labels, even when colours by job are asked for. Mutations
    /// caught: device colours on a job-shop (the issue), bars painted "M0 j3_o2", a colour keyed on
    /// the step or the machine, the job colouring or labels leaking onto another graph.
    void jobShopGanttReadsByJob() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        const RunRecord r =
            openAndRun(w, GraphOrigin::file(QStringLiteral(EXAMPLES "/ft06.txt")), QStringLiteral("list-cp"));
        QVERIFY(r.result);
        w.showTab(MainWindow::GanttTab);
        GanttView* g = w.ganttView();
        QCOMPARE(g->shownColouring(), GanttView::ColourBy::Job);
        const Graph& graph = r.problem->g();
        QSet<QRgb> jobColours;
        for (int job = 0; job < 6; ++job) {
            for (int step = 1; step < 6; ++step)
                QCOMPARE(g->barColour(jobOp(graph, job, step)), g->barColour(jobOp(graph, job, 0)));
            jobColours << g->barColour(jobOp(graph, job, 0)).rgb();
        }
        QCOMPARE(jobColours.size(), 6);
        QCOMPARE(g->barText(jobOp(graph, 3, 2)), QStringLiteral("J3·2"));
        // painted: each wide bar in its job's colour, saying its job and step
        const QImage img = g->grab().toImage();
        const double dpr = img.width() / static_cast<double>(g->width());
        int probed = 0;
        for (OpId v = 0; v < graph.opCount(); ++v) {
            const QRectF bar = g->barRect(v);
            if (bar.width() < 6) continue;
            const QPoint probe(static_cast<int>((bar.left() + 3) * dpr), static_cast<int>((bar.top() + 3) * dpr));
            QCOMPARE(img.pixelColor(probe).rgb(), g->barColour(v).rgb());
            ++probed;
        }
        QVERIFY(probed >= 30);
        QVERIFY2(g->drawnLabels().size() >= 12,
                 qPrintable(QStringLiteral("%1 labels, %2 px wide").arg(g->drawnLabels().size()).arg(g->width())));
        static const QRegularExpression jobStep(QStringLiteral("^J[0-5]·[0-5]$"));
        for (const QString& label : g->drawnLabels()) QVERIFY2(jobStep.match(label).hasMatch(), qPrintable(label));
        // by device on request: the lane's colour again
        g->setColourBy(GanttView::ColourBy::Device);
        QCOMPARE(g->barColour(jobOp(graph, 3, 2)),
                 palette::category(r.schedule().ops[static_cast<size_t>(jobOp(graph, 3, 2))].device));
        // a graph whose ops are not job steps: by device, and the op's own label
        const RunRecord layered =
            openAndRun(w, GraphOrigin::generated(QStringLiteral("layered"), 60, 1), QStringLiteral("list-cp"));
        QVERIFY(layered.result);
        g->setColourBy(GanttView::ColourBy::Auto);
        QCOMPARE(g->shownColouring(), GanttView::ColourBy::Device);
        QCOMPARE(g->barText(0), GanttView::barLabel(layered.problem->g().op(0)));
        g->setColourBy(GanttView::ColourBy::Job);   // asked for, but there are no jobs
        QCOMPARE(g->shownColouring(), GanttView::ColourBy::Device);
        QCOMPARE(g->barColour(0), palette::category(layered.schedule().ops[0].device));
    }

    /// The fault: zoomed out on a 10k-op schedule, merged sub-pixel bars crept right of
    /// the makespan. Mutation caught: a merged band or critical stripe that advances a pixel per
    /// bar (the old paintedTo logic), or fit() ranging past the makespan differently.
    void ganttEndsAtTheMakespanAt10kOps() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        const RunRecord r = openAndRun(w, GraphOrigin::generated(QStringLiteral("layered"), 10000, 1), QStringLiteral("list-cp"));
        QVERIFY(r.result);
        w.showTab(MainWindow::GanttTab);
        GanttView* g = w.ganttView();
        g->fit();
        QCOMPARE(g->barCount(), 10000);
        const QImage img = g->grab().toImage();
        const double scale = img.width() / static_cast<double>(g->width());   // device pixel ratio
        const double endX = g->mapping().toX(r.schedule().makespan);
        QVERIFY(endX < g->width() - 10);   // fit leaves a margin right of the makespan
        const QSet<QRgb> background{palette::laneBackground(0).rgb(), palette::laneBackground(1).rgb(), palette::gridLine().rgb()};
        auto isBar = [&](int x, int y) { return !background.contains(img.pixel(static_cast<int>(x * scale), static_cast<int>(y * scale))); };
        const int top = 30, bottom = g->height() - 2;   // below the axis
        int barsRightOfEnd = 0, barsAtEnd = 0;
        for (int y = top; y < bottom; ++y) {
            for (int x = static_cast<int>(std::ceil(endX)) + 2; x < g->width() - 2; ++x) barsRightOfEnd += isBar(x, y);
            barsAtEnd += isBar(static_cast<int>(endX) - 1, y);
        }
        QCOMPARE(barsRightOfEnd, 0);
        QVERIFY(barsAtEnd > 0);   // and the last bars do reach the makespan
    }

    /// Mutation caught: no read-out on hover, a read-out without units, wheel zoom not narrowing
    /// the axis, double-click not restoring it.
    void memoryChartReadsOutAndZooms() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        const RunRecord r = openAndRun(w, GraphOrigin::file(QStringLiteral(EXAMPLES "/resnet50.onnx")), QStringLiteral("list-cp"));
        QVERIFY(r.result && r.memory);
        w.showTab(MainWindow::MemoryTab);
        MemoryView* m = w.memoryView();
        TimeChartView* view = m->chartView();
        QTRY_VERIFY(view->isVisible());
        QApplication::processEvents();
        const double makespan = r.schedule().makespan;
        QCOMPARE(view->visibleStart(), 0.0);
        QCOMPARE(view->visibleEnd(), makespan);
        const QStringList labels = axisLabels(view->chart(), Qt::Horizontal);
        QVERIFY(labels.size() >= 3);
        for (const QString& l : labels) QVERIFY2(l.endsWith(QLatin1String(" ms")), qPrintable(l));
        // the dashed lower bound sits at the problem's memory bound, in the peak marker's unit
        double boundY = 0, peakY = 0;
        for (QAbstractSeries* s : view->chart()->series()) {
            if (s->name().startsWith(QLatin1String("lower bound"))) boundY = static_cast<QXYSeries*>(s)->at(0).y();
            if (s->name() == QLatin1String("peak")) peakY = static_cast<QXYSeries*>(s)->at(0).y();
        }
        QVERIFY(r.memoryBound > 0 && peakY > 0);
        QCOMPARE(boundY / peakY, r.memoryBound / r.memory->peak);

        // hover at the peak time: the read-out names the time and the peak device's bytes there
        const MemoryTimeline& tl = *r.memory;
        const double t = tl.peakTimes[static_cast<size_t>(tl.peakDevice)];
        const TimeMapping map = view->mapping();
        const QPointF at(map.toX(t) + 0.25, 200);   // a quarter pixel past the peak time, inside the plot
        QMouseEvent move(QEvent::MouseMove, at, view->viewport()->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &move);
        const QString text = m->readout();
        QVERIFY2(text.startsWith(QLatin1String("t = ")) && text.contains(QLatin1String(" ms")), qPrintable(text));
        const double tHovered = map.toTime(at.x());
        double expected = 0;   // the peak device's memory at tHovered, read off its curve by hand
        for (const MemoryPoint& p : tl.curves[static_cast<size_t>(tl.peakDevice)])
            if (p.time <= tHovered) expected = p.bytes;
        const QString device = QString::fromStdString(r.problem->platform.devices[static_cast<size_t>(tl.peakDevice)].name);
        QVERIFY2(text.contains(QStringLiteral("%1 %2").arg(device, formatBytes(expected))), qPrintable(text));

        // wheel up at the middle zooms in by 1.25 around the time under the mouse
        const QPointF mid(map.x0 + map.width / 2, 200);
        const double tMid = map.toTime(mid.x());
        QWheelEvent wheel(mid, view->viewport()->mapToGlobal(mid), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QVERIFY(std::abs((view->visibleEnd() - view->visibleStart()) - makespan / 1.25) < 1e-6 * makespan);
        QVERIFY(std::abs(view->mapping().toTime(mid.x()) - tMid) < 1e-6 * makespan);
        // a drag pans, a double-click shows everything again
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, mid.toPoint());
        QMouseEvent drag(QEvent::MouseMove, mid + QPointF(50, 0), view->viewport()->mapToGlobal(mid + QPointF(50, 0)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &drag);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, (mid + QPointF(50, 0)).toPoint());
        QVERIFY(view->visibleStart() < 0.1 * makespan && view->visibleEnd() < makespan);
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, mid.toPoint());
        QCOMPARE(view->visibleStart(), 0.0);
        QCOMPARE(view->visibleEnd(), makespan);
    }

    /// Mutation caught: compare table or axes falling back to bare numbers.
    void compareAndConvergenceAxesCarryUnits() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        const RunRecord a = openAndRun(w, GraphOrigin::file(QStringLiteral(EXAMPLES "/resnet50.onnx")), QStringLiteral("list-cp"));
        QVERIFY(a.result);
        QVERIFY(w.runPanel()->setMethod(QStringLiteral("list-spt")));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun() && finished.wait(60000));
        w.selectResults({0, 1});
        QVERIFY(w.compareView()->comparing());
        QTableWidget* t = w.compareView()->table();
        QCOMPARE(t->item(1, 0)->text(), QStringLiteral("Makespan"));
        QCOMPARE(t->item(1, 1)->text(), formatDuration(a.schedule().makespan, TimeUnit::Microseconds));
        QVERIFY(t->item(1, 1)->text().endsWith(QLatin1String(" ms")));
        const QString d = t->item(1, 3)->text();
        QVERIFY2(d == QLatin1String("same") || d.contains(QLatin1String("s (")), qPrintable(d));   // "+1.23 ms (+4.5%)"
        for (const QString& l : axisLabels(w.compareView()->findChild<QChartView*>()->chart(), Qt::Horizontal))
            QVERIFY2(l.endsWith(QLatin1String(" ms")), qPrintable(l));
        // the convergence plot of the selected result: cost ticks in milliseconds
        w.selectResults({0});
        const QStringList cost = axisLabels(w.convergenceView()->findChild<QChartView*>()->chart(), Qt::Vertical);
        QVERIFY(!cost.isEmpty());
        for (const QString& l : cost) QVERIFY2(l.endsWith(QLatin1String(" ms")), qPrintable(l));
    }

    /// Qt Charts says "invalid range for value axis [nan - nan]" when a range collapses to a
    /// point (nice numbers of a zero span): a single evaluation at a large cost did that at 100k
    /// ops. Mutation caught: a convergence padding that vanishes under the cost's rounding.
    void noInvalidAxisRange() {
        chartWarnings.clear();
        const QtMessageHandler previous = qInstallMessageHandler(collectWarnings);
        ConvergenceView v;
        v.resize(600, 400);
        v.show();
        v.setCostUnit(Objective::Makespan, TimeUnit::Microseconds);
        std::vector<Progress> one(1);
        one[0].evaluations = 1;
        one[0].best = 4.5e10;   // large enough that a 1e-9 pad rounds away
        one[0].mean = 4.5e10;
        v.setHistory(QStringLiteral("one evaluation"), one);
        QApplication::processEvents();
        qInstallMessageHandler(previous);
        QVERIFY2(chartWarnings.isEmpty(), qPrintable(chartWarnings.join(QLatin1Char('\n'))));
    }
};

SCHEDLAB_TEST_MAIN(timeline, TestTimeline)
#include "tst_timeline.moc"
