// SPDX-License-Identifier: MIT
#include "app/gui/benchstartup.h"

#include "app/gui/commandline.h"
#include "widgets/dagview.h"
#include "widgets/ganttview.h"
#include "widgets/mainwindow.h"
#include "widgets/platformpanel.h"
#include "widgets/resultsmodel.h"
#include "widgets/runjob.h"
#include "widgets/runpanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <cstdio>

namespace sl::gui {

int runStartupBenchmark(const CommandLine& cli) {
    MainWindow w;
    w.resize(cli.size);
    w.show();
    QApplication::processEvents();

    // 1. open -> first painted layout
    QElapsedTimer clock;
    clock.start();
    if (!w.openFile(cli.file, cli.format)) {
        std::fprintf(stderr, "schedlab: %s\n", qPrintable(w.lastError()));
        return 1;
    }
    const double loadSeconds = clock.elapsed() / 1000.0;
    QEventLoop loop;
    QObject::connect(w.dagView(), &DagView::layoutReady, &loop, &QEventLoop::quit);
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    if (!w.dagView()->hasLayout()) loop.exec();
    w.dagView()->canvas()->repaint();   // the first paint of the laid-out scene
    const double firstPaint = clock.elapsed() / 1000.0;
    const int ops = w.document()->graph->opCount();
    QElapsedTimer dagClock;   // a repaint of the fitted DAG (what panning costs)
    dagClock.start();
    for (int i = 0; i < 5; ++i) w.dagView()->canvas()->repaint();
    const double dagRepaint = dagClock.nsecsElapsed() / 1e6 / 5;
    const QString layout = w.dagView()->layout() && w.dagView()->layout()->usedGraphviz ? QStringLiteral("graphviz dot") : QStringLiteral("layered");

    // 2. longest event-loop stall during a BRKGA run (a 5 ms ticker; any late tick is a stall)
    double longestStall = 0;
    double runSeconds = 0;
    int ticks = 0;
    QString method = QStringLiteral("brkga");
    if (!w.runPanel()->setMethod(method)) method.clear();
    if (!method.isEmpty()) {
        w.runPanel()->setOption(QStringLiteral("time-limit"), QStringLiteral("3"));
        w.showTab(MainWindow::ConvergenceTab);
        RunJob* job = w.startRun();
        if (job) {
            QElapsedTimer tick;
            tick.start();
            QTimer ticker;
            ticker.setTimerType(Qt::PreciseTimer);
            QObject::connect(&ticker, &QTimer::timeout, [&] {
                longestStall = std::max(longestStall, tick.nsecsElapsed() / 1e6 - 5.0);
                tick.restart();
                ++ticks;
            });
            QEventLoop runLoop;
            QObject::connect(&w, &MainWindow::runFinished, &runLoop, &QEventLoop::quit);
            QObject::connect(&w, &MainWindow::runFailed, &runLoop, &QEventLoop::quit);
            QElapsedTimer runClock;
            runClock.start();
            ticker.start(5);
            runLoop.exec();
            ticker.stop();
            runSeconds = runClock.elapsed() / 1000.0;
            QApplication::processEvents();
        }
    }

    // 3. Gantt repaint with every op as a bar: full view, then zoomed in 8x
    double ganttFull = 0, ganttZoomed = 0;
    int bars = 0;
    if (w.results()->rowCount() > 0) {
        w.showTab(MainWindow::GanttTab);
        GanttView* g = w.ganttView();
        bars = g->barCount();
        QApplication::processEvents();
        auto timeRepaints = [g] {
            QElapsedTimer t;
            t.start();
            for (int i = 0; i < 10; ++i) g->repaint();
            return t.nsecsElapsed() / 1e6 / 10;
        };
        g->fit();
        ganttFull = timeRepaints();
        const auto m = g->mapping();
        g->setTimeRange(m.t0 + (m.t1 - m.t0) * 0.4, m.t0 + (m.t1 - m.t0) * 0.525);
        ganttZoomed = timeRepaints();
    }

    std::printf("%-44s %12s\n", "measure", "value");
    std::printf("%-44s %12d\n", "ops", ops);
    std::printf("%-44s %12s\n", "layout", qPrintable(layout));
    std::printf("%-44s %12lld\n", "dot work estimate (ops + virtual nodes)", w.dagView()->layout() ? w.dagView()->layout()->dotWork : 0LL);
    std::printf("%-44s %12.3f\n", "layout thread (s)", w.dagView()->layout() ? w.dagView()->layout()->seconds : 0.0);
    std::printf("%-44s %12.3f\n", "load file (s)", loadSeconds);
    std::printf("%-44s %12.3f   (target <= 3 s)\n", "open -> first painted layout (s)", firstPaint);
    std::printf("%-44s %12.1f\n", "dag repaint, whole graph fitted (ms)", dagRepaint);
    if (!method.isEmpty()) {
        std::printf("%-44s %12.1f\n", "brkga run with live views (s)", runSeconds);
        std::printf("%-44s %12d\n", "event-loop ticks (5 ms timer)", ticks);
        std::printf("%-44s %12.1f   (target <= 50 ms)\n", "longest event-loop stall (ms)", std::max(0.0, longestStall));
    } else {
        std::printf("%-44s %12s\n", "longest event-loop stall (ms)", "n/a (brkga not registered)");
    }
    if (bars > 0) {
        std::printf("%-44s %12d\n", "gantt bars", bars);
        std::printf("%-44s %12.2f\n", "gantt repaint, whole schedule (ms)", ganttFull);
        std::printf("%-44s %12.2f\n", "gantt repaint, zoomed 8x (ms)", ganttZoomed);
    }
    return 0;
}

} // namespace sl::gui
