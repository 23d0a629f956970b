// SPDX-License-Identifier: MIT
#include "app/gui/benchstartup.h"

#include "app/gui/commandline.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/runpanel.h"
#include "widgets/panels/studyview.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/session/graphloader.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/runjob.h"
#include "widgets/session/studysession.h"
#include "widgets/session/units.h"
#include "widgets/views/dagview.h"
#include "widgets/views/ganttview.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace sl::gui {
namespace {

/// Event-loop stalls: a 5 ms precise timer; any tick later than that is the loop being busy.
class StallMeter {
public:
    StallMeter() {
        m_ticker.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_ticker, &QTimer::timeout, [this] {
            m_longest = std::max(m_longest, m_sinceTick.nsecsElapsed() / 1e6 - kPeriodMs);
            m_sinceTick.restart();
        });
    }
    void start() {
        m_longest = 0;
        m_sinceTick.start();
        m_ticker.start(static_cast<int>(kPeriodMs));
    }
    double stop() {
        m_ticker.stop();
        return std::max(0.0, m_longest);
    }

private:
    static constexpr double kPeriodMs = 5;
    QTimer m_ticker;
    QElapsedTimer m_sinceTick;
    double m_longest = 0;
};

struct StepTimes {
    double median = 0;
    double max = 0;
    QString text() const { return QStringLiteral("%1 / %2").arg(median, 0, 'f', 1).arg(max, 0, 'f', 1); }
};

/// Seconds since the benchmark started, for the stderr log.
QElapsedTimer& benchClock() {
    static QElapsedTimer clock;
    return clock;
}

/// Times `count` interaction steps: each sends its event, then repaints `canvas` synchronously and
/// lets any queued work land, which is what the user waits for before the next frame.
StepTimes timeSteps(const char* what, int count, QWidget* canvas, const std::function<void(int)>& step) {
    std::vector<double> ms;
    for (int i = 0; i < count; ++i) {
        QElapsedTimer t;
        t.start();
        step(i);
        canvas->repaint();
        QApplication::processEvents();
        ms.push_back(t.nsecsElapsed() / 1e6);
    }
    if (ms.empty()) return {};
    std::fprintf(stderr, "[%.2f s] %s (ms):", benchClock().elapsed() / 1000.0, what);   // every step, for the record
    for (double m : ms) std::fprintf(stderr, " %.1f", m);
    std::fprintf(stderr, "\n");
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.back()};
}

void sendWheel(QWidget* target, int delta, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    const QPointF centre(target->width() / 2.0, target->height() / 2.0);
    QWheelEvent e(centre, target->mapToGlobal(centre), {}, QPoint(0, delta), Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &e);
}

/// Zoom: 8 wheel steps in from the current view, then 8 back out.
StepTimes zoomSteps(const char* what, QWidget* target, QWidget* canvas) {
    return timeSteps(what, 16, canvas, [target](int i) { sendWheel(target, i < 8 ? 120 : -120); });
}

/// Peak resident memory of this process (VmHWM), in MB; 0 where /proc is missing.
double peakRssMb() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) return 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:")) return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024;
    return 0;
}

/// Starts the run panel's current method and waits for it; false if it could not start.
bool runToEnd(MainWindow& w, double* stallMs = nullptr) {
    StallMeter stalls;
    RunJob* job = w.startRun();
    if (!job) return false;
    QEventLoop loop;
    QObject::connect(&w, &MainWindow::runFinished, &loop, &QEventLoop::quit);
    QObject::connect(&w, &MainWindow::runFailed, &loop, &QEventLoop::quit);
    stalls.start();
    loop.exec();
    const double stall = stalls.stop();
    if (stallMs) *stallMs = stall;
    QApplication::processEvents();
    return true;
}

class Table {
public:
    void add(const char* measure, const QString& value, const char* target = "") { m_rows.push_back({measure, value, target}); }
    void add(const char* measure, double value, int decimals, const char* target = "") {
        add(measure, QLocale::c().toString(value, 'f', decimals), target);
    }
    void print() const {
        std::printf("| measure | value | target |\n|---|--:|---|\n");
        for (const auto& r : m_rows) std::printf("| %s | %s | %s |\n", r.measure, qPrintable(r.value), r.target);
        std::fflush(stdout);
    }

private:
    struct Row {
        const char* measure;
        QString value;
        const char* target;
    };
    std::vector<Row> m_rows;
};

/// Runs the event loop for `ms` milliseconds.
void pause(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

/// Runs the event loop until the Study tab shows a study, at most `ms`; false on a time-out.
bool waitForStudyShown(MainWindow& w, int ms) {
    QEventLoop loop;
    bool shown = false;
    QObject::connect(w.studyView(), &StudyView::studyShown, &loop, [&] { shown = true; loop.quit(); });
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
    return shown;
}

/// 5. `--open-study FILE`: the Study tab opening the study, then reading it back ten times, 0.5 s
/// apart, as it does while a study runs (StudySession::reloadDue); the loop watched all along.
void studyReloads(MainWindow& w, const QString& path, Table& table) {
    w.showTab(MainWindow::StudyTab);
    StallMeter stalls;
    stalls.start();
    QElapsedTimer clock;
    clock.start();
    w.openStudy(path);
    if (!waitForStudyShown(w, 60000)) return;
    const double firstShow = clock.elapsed() / 1000.0;
    pause(20);   // the meter's next tick sees the stall that showing it was
    const double openStall = stalls.stop();
    stalls.start();
    for (int i = 0; i < 10; ++i) {
        w.studyView()->openStudy(path);
        pause(StudySession::kReloadIntervalMs);
    }
    waitForStudyShown(w, 2000);   // the last read lands
    pause(20);
    const double reloadStall = stalls.stop();
    const StudySummary& summary = *w.studyView()->summary();
    table.add("study: graphs x methods", QStringLiteral("%1 x %2").arg(summary.graphs.size()).arg(summary.methods.size()));
    table.add("study: open -> shown (s)", firstShow, 2);
    table.add("longest stall, study open (ms)", openStall, 1, "<= 50");
    table.add("longest stall, 10 study reloads (ms)", reloadStall, 1, "<= 50");
}

} // namespace

int runStartupBenchmark(const CommandLine& cli) {
    benchClock().start();
    MainWindow w;
    w.resize(cli.size);
    w.show();
    QApplication::processEvents();
    Table table;
    // the Temperature dock samples every graph it sees and shows the best in all views: log when
    // that lands, since it may fall inside a measured step
    QObject::connect(w.temperaturePanel(), &TemperaturePanel::sampled, [] {
        std::fprintf(stderr, "[%.2f s] temperature sample shown\n", benchClock().elapsed() / 1000.0);
    });

    // 1. open -> first painted layout, with the event loop watched all along
    StallMeter openStalls;
    openStalls.start();
    QElapsedTimer clock;
    clock.start();
    if (!w.open(*cli.graph, cli.format)) {
        std::fprintf(stderr, "schedlab: %s\n", qPrintable(w.lastError()));
        return 1;
    }
    const double loadSeconds = clock.elapsed() / 1000.0;
    QEventLoop loop;
    QObject::connect(w.dagView(), &DagView::layoutReady, &loop, &QEventLoop::quit);
    QTimer::singleShot(300000, &loop, &QEventLoop::quit);
    if (!w.dagView()->hasLayout()) loop.exec();
    QWidget* dag = w.dagView()->canvas();
    dag->repaint();   // the first paint of the laid-out scene
    const double firstPaint = clock.elapsed() / 1000.0;
    const double openStall = openStalls.stop();
    const int ops = w.openGraph()->graph->opCount();
    const DagLayout* layout = w.dagView()->layout();
    table.add("ops", formatCount(ops));
    table.add("layout", layout && layout->usedGraphviz ? QStringLiteral("graphviz dot") : QStringLiteral("layered"));
    table.add("layout thread (s)", layout ? layout->seconds : 0.0, 2);
    table.add("load file (s)", loadSeconds, 2);
    table.add("open -> first painted layout (s)", firstPaint, 2, "<= 3");
    table.add("longest stall, open and layout (ms)", openStall, 1, "<= 50");

    // 2. the DAG: zoom steps from the fitted view, then pan steps 4 zoom steps in
    w.showTab(MainWindow::DagTab);
    w.dagView()->fit();
    QApplication::processEvents();
    const StepTimes dagZoom = zoomSteps("dag zoom steps", dag, dag);
    for (int i = 0; i < 4; ++i) sendWheel(dag, 120);
    auto* scroll = qobject_cast<QAbstractScrollArea*>(dag->parentWidget());
    const StepTimes dagPan = scroll ? timeSteps("dag pan steps", 16, dag, [scroll](int i) {
        QScrollBar* bar = i % 2 ? scroll->verticalScrollBar() : scroll->horizontalScrollBar();
        bar->setValue(bar->value() + (i < 8 ? 1 : -1) * std::max(1, bar->pageStep() / 4));
    }) : StepTimes{};
    table.add("dag zoom step, median / max (ms)", dagZoom.text(), "<= 50");
    table.add("dag pan step, median / max (ms)", dagPan.text(), "<= 50");

    // 3. the Gantt of a list-cp schedule: showing it, zoom steps, pan steps at full zoom-out (every bar in view)
    if (w.runPanel()->setMethod(QStringLiteral("list-cp")) && runToEnd(w) && w.results()->rowCount() > 0) {
        w.showTab(MainWindow::GanttTab);
        GanttView* g = w.ganttView();
        QApplication::processEvents();
        const RunRecord record = w.results()->record(w.results()->rowCount() - 1);
        QElapsedTimer show;
        show.start();
        g->setRecord(record);
        g->repaint();
        const double showMs = show.nsecsElapsed() / 1e6;
        const StepTimes ganttZoom = zoomSteps("gantt zoom steps", g, g);
        g->fit();
        const StepTimes ganttPan = timeSteps("gantt pan steps", 16, g, [g](int i) { sendWheel(g, i < 8 ? 120 : -120, Qt::ShiftModifier); });
        table.add("gantt bars", formatCount(g->barCount()));
        table.add("gantt: show a schedule (ms)", showMs, 1, "<= 50");
        table.add("gantt zoom step, median / max (ms)", ganttZoom.text(), "<= 50");
        table.add("gantt pan step, median / max (ms)", ganttPan.text(), "<= 50");
    }

    // 4. the longest stall during a 3 s BRKGA run with the live convergence plot
    if (w.runPanel()->setMethod(QStringLiteral("brkga"))) {
        w.runPanel()->setOption(QStringLiteral("time-limit"), QStringLiteral("3"));
        w.showTab(MainWindow::ConvergenceTab);
        double stall = 0;
        if (runToEnd(w, &stall)) table.add("longest stall, 3 s brkga run (ms)", stall, 1, "<= 50");
    }
    if (!cli.studyFile.isEmpty()) studyReloads(w, cli.studyFile, table);
    table.add("peak RSS (MB)", peakRssMb(), 0, "<= 1536");
    table.print();
    return 0;
}

} // namespace sl::gui
