// SPDX-License-Identifier: MIT
// Results belong to their graph: a second graph starts a fresh list, another graph's
// schedule is never drawn over the open one, Compare, Save and Export refuse mixes; schedules
// travel with their platform and graph fingerprint; command-line flags hold for one launch; the
// smaller faults (convergence of one evaluation, cancelled titles, disabled actions, export errors).
#include "app/gui/commandline.h"
#include "common/cutexample.h"
#include "common/testmain.h"
#include "core/generators/generators.h"
#include "core/graph/fingerprint.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/platformpanel.h"
#include "widgets/panels/runpanel.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/session/graphloader.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/runjob.h"
#include "widgets/session/schedulerecord.h"
#include "widgets/views/compareview.h"
#include "widgets/views/convergenceview.h"
#include "widgets/views/exporter.h"
#include "widgets/views/ganttview.h"

#include <QAction>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace sl;
using namespace sl::gui;

class TestResults : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_graphA, m_graphB;   // two layered graphs without a machine of their own

    static RunRecord runToEnd(MainWindow& w, const QString& method = QStringLiteral("list-cp")) {
        w.runPanel()->setMethod(method);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        if (!w.startRun() || !finished.wait(60000)) return {};
        return finished.takeFirst().at(0).value<RunRecord>();
    }
    static int shownRows(const MainWindow& w) { return w.resultsView()->model()->rowCount(); }
    static bool exportAndWait(MainWindow& w, ExportKind kind, const QString& path) {
        bool ok = false, finished = false;
        w.exportSelected(kind, path, [&](bool success) {
            ok = success;
            finished = true;
        });
        return QTest::qWaitFor([&] { return finished; }, 10000) && ok;
    }
    static bool importAndWait(MainWindow& w, const QString& path) {
        bool ok = false, finished = false;
        w.importSchedule(path, [&](bool success) {
            ok = success;
            finished = true;
        });
        return QTest::qWaitFor([&] { return finished; }, 10000) && ok;
    }
    QString writeGraph(const char* name, int ops, std::uint64_t seed) {
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        saveGraphJson(*generateLayered(ops, seed).graph, nullptr, path.toStdString());
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SchedLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_results"));
        QSettings().clear();
        registerCoreOptimizers();
        QVERIFY(m_dir.isValid());
        m_graphA = writeGraph("alpha.json", 30, 1);
        m_graphB = writeGraph("beta.json", 24, 2);
    }

    /// An exact-memory run's proof bounds every run of its problem: on the Adam step of a generated
    /// network (nn, 100 ops, seed 2: optimum 148,897,792 bytes, 2.5 % above the cut bound, and
    /// above XLA's list order) the list order's row first reads against the cut bound, then, once
    /// exact-memory has proved the optimum, against it ("proven optimum"). Catches a proved memory
    /// bound that is not attached to the exact run's record or not shared with its problem's rows.
    void anExactMemoryProofBoundsEveryRunOfItsProblem() {
        const Graph g = makeTrainingGraph(*generateNetworkLike(100, 2).graph, {.rule = UpdateRule::Adam});
        const QString path = m_dir.filePath(QStringLiteral("nn100adam.json"));
        saveGraphJson(g, nullptr, path.toStdString());
        MainWindow w;
        QVERIFY(w.openFile(path));
        w.platformPanel()->setObjective(Objective::Memory);
        w.platformPanel()->setDeviceCount(1);
        const RunRecord list = runToEnd(w, QStringLiteral("mem-xla-list"));
        QVERIFY(list.result);
        const double listPeak = list.result->schedule.peakMemory();
        const QModelIndex listCell = w.results()->index(0, ResultsModel::BoundGap);
        QVERIFY(w.results()->data(listCell, Qt::ToolTipRole).toString().contains(QStringLiteral("cut bound")));
        const RunRecord exact = runToEnd(w, QStringLiteral("exact-memory"));
        QVERIFY(exact.result);
        QCOMPARE(exact.result->schedule.peakMemory(), 148897792.0);
        QVERIFY(listPeak > 148897792.0);
        QCOMPARE(w.results()->data(w.results()->index(1, ResultsModel::BoundGap)).toString(), QStringLiteral("0 % (optimal)"));
        QVERIFY(w.results()->data(listCell, Qt::ToolTipRole).toString().contains(QStringLiteral("proven optimum")));
        QCOMPARE(w.results()->data(listCell, ResultsModel::SortRole).toDouble(), (listPeak - 148897792.0) / 148897792.0);
    }

    /// A peak-memory run reads against the memory bound (core/analysis/bounds.h), not the makespan's:
    /// on the hand-checked cut graph (tests/common/cutexample.h) every order peaks at 13 bytes on one device, the
    /// bound, so the column says optimal and the convergence line sits at 13; on two devices the
    /// bound is 6.5. Catches a column (or line) that keeps the makespan for memory runs (these ops
    /// take no time: it would show "–" and no line) or the footprint bound (5 bytes).
    void aMemoryRunReadsAgainstTheMemoryBound() {
        const Graph g = reference::cutExampleGraph();
        const QString path = m_dir.filePath(QStringLiteral("cut.json"));
        saveGraphJson(g, nullptr, path.toStdString());
        MainWindow w;
        QVERIFY(w.openFile(path));
        w.platformPanel()->setObjective(Objective::Memory);
        w.platformPanel()->setDeviceCount(1);
        const RunRecord one = runToEnd(w, QStringLiteral("mem-dfs"));
        QVERIFY(one.result);
        QCOMPARE(one.result->schedule.peakMemory(), 13.0);
        const QModelIndex cell = w.results()->index(0, ResultsModel::BoundGap);
        QCOMPARE(w.results()->data(cell).toString(), QStringLiteral("0 % (optimal)"));
        QVERIFY(w.results()->data(cell, Qt::ToolTipRole).toString().contains(QStringLiteral("tensors live across an op")));
        QCOMPARE(w.convergenceView()->lowerBound(), 13.0);
        w.platformPanel()->setDeviceCount(2);
        const RunRecord two = runToEnd(w, QStringLiteral("mem-dfs"));
        QVERIFY(two.result);
        QCOMPARE(two.memoryBound, 6.5);
        const double peak = two.result->schedule.peakMemory();
        QCOMPARE(w.results()->data(w.results()->index(1, ResultsModel::BoundGap), ResultsModel::SortRole).toDouble(), (peak - 6.5) / 6.5);
    }

    /// exact-makespan proves ft06's optimum 55, above the analytic bound 52: list-cp's row (61) then
    /// reads against 55 too. Catches a proven bound kept to its own row, or ignored altogether.
    void aProvenBoundReachesEveryRowOfItsProblem() {
        MainWindow w;
        QVERIFY(w.openFile(QStringLiteral(SCHEDLAB_TEST_DATA "/jobshop/ft06.txt")));
        QVERIFY(runToEnd(w, QStringLiteral("list-cp")).result);
        auto gap = [&](int row) { return w.results()->data(w.results()->index(row, ResultsModel::BoundGap)).toString(); };
        QCOMPARE(gap(0), QStringLiteral("+17.3 %"));   // (61 - 52) / 52
        QVERIFY(runToEnd(w, QStringLiteral("exact-makespan")).result);
        QCOMPARE(gap(1), QStringLiteral("0 % (optimal)"));
        QCOMPARE(gap(0), QStringLiteral("+10.9 %"));   // (61 - 55) / 55
        QVERIFY(w.results()->data(w.results()->index(0, ResultsModel::BoundGap), Qt::ToolTipRole).toString().contains(
            QStringLiteral("proved by exact-makespan")));
    }

    // Mutations caught: no scope filter (the second graph shows the first's row), no guard in
    // Document::show (the first graph's Gantt drawn over the second), no Graph / Devices columns.
    void secondGraphStartsAFreshResultsList() {
        MainWindow w;
        QVERIFY(w.openFile(m_graphA));
        w.platformPanel()->setDeviceCount(2);
        const RunRecord a = runToEnd(w);
        QVERIFY(a.result);
        QCOMPARE(shownRows(w), 1);
        QCOMPARE(w.ganttView()->barCount(), 30);
        QCOMPARE(w.results()->data(w.results()->index(0, ResultsModel::Devices)).toString(), QStringLiteral("2"));
        QCOMPARE(w.results()->data(w.results()->index(0, ResultsModel::Graph)).toString(), QStringLiteral("alpha.json"));
        QCOMPARE(w.results()->data(w.results()->index(0, ResultsModel::Method)).toString(), QStringLiteral("list-cp"));

        QVERIFY(w.openFile(m_graphB));
        QCOMPARE(shownRows(w), 0);                 // a fresh list for the new graph
        QCOMPARE(w.results()->rowCount(), 1);      // the first graph's result is kept
        QCOMPARE(w.ganttView()->barCount(), 0);    // and not drawn over the new graph
        Q_EMIT w.temperaturePanel()->sampled(a);   // a late sample of the old graph is not drawn either
        QCOMPARE(w.ganttView()->barCount(), 0);
        QVERIFY2(w.resultsNotice().contains(QStringLiteral("0 results of beta.json; 1 in all, from 1 graph")), qPrintable(w.resultsNotice()));
        QVERIFY(w.resultsView()->isColumnHidden(ResultsModel::Graph));
        QVERIFY(runToEnd(w).result);
        QCOMPARE(shownRows(w), 1);
        QCOMPARE(w.ganttView()->barCount(), 24);

        w.setResultsScope(MainWindow::ResultsScope::AllGraphs);
        QCOMPARE(shownRows(w), 2);
        QVERIFY(!w.resultsView()->isColumnHidden(ResultsModel::Graph));
        QVERIFY2(w.resultsNotice().startsWith(QStringLiteral("2 results from 2 graphs; 1 of the open graph, beta.json")), qPrintable(w.resultsNotice()));
        // select alpha's result while beta is open: refused with a sentence, nothing drawn
        const int alphaRow = w.resultsView()->model()->index(0, 0).data(ResultsModel::RecordIdRole).toInt() == a.id ? 0 : 1;
        w.selectResults({alphaRow});
        QCOMPARE(w.ganttView()->barCount(), 0);
        QVERIFY2(w.resultsNotice().contains(QStringLiteral("was made for alpha.json, not for the open graph (beta.json)")),
                 qPrintable(w.resultsNotice()));
        // the same file opened again is the same graph: its results come back
        w.setResultsScope(MainWindow::ResultsScope::ThisGraph);
        QVERIFY(w.openFile(m_graphA));
        QCOMPARE(shownRows(w), 1);
        QCOMPARE(w.resultsView()->model()->index(0, 0).data(ResultsModel::RecordIdRole).toInt(), a.id);
    }

    // Mutations caught: Compare fed two graphs' records; Save/Export acting on another graph's
    // result; "Open … again" not switching the graph.
    void compareSaveAndExportRefuseAcrossGraphs() {
        MainWindow w;
        QVERIFY(w.openFile(m_graphA));
        QVERIFY(runToEnd(w).result);
        QVERIFY(w.openFile(m_graphB));
        QVERIFY(runToEnd(w).result);
        w.setResultsScope(MainWindow::ResultsScope::AllGraphs);
        w.selectResults({0, 1});
        QVERIFY(!w.compareView()->comparing());
        QVERIFY2(w.compareView()->notice().contains(QStringLiteral("Compare needs two results of one graph")), qPrintable(w.compareView()->notice()));
        QCOMPARE(w.currentViewWidget(), static_cast<QWidget*>(w.compareView()));   // the sentence where the comparison was expected
        QVERIFY(w.compareView()->notice().contains(QStringLiteral("alpha.json")) && w.compareView()->notice().contains(QStringLiteral("beta.json")));

        const int alphaRow = w.resultsView()->model()->index(0, ResultsModel::Graph).data().toString() == QLatin1String("alpha.json") ? 0 : 1;
        w.selectResults({alphaRow});
        const QString out = m_dir.filePath(QStringLiteral("refused.json"));
        QVERIFY(!exportAndWait(w, ExportKind::ScheduleJson, out));
        QVERIFY(!QFile::exists(out));
        QVERIFY2(w.lastError().contains(QStringLiteral("was made for alpha.json")), qPrintable(w.lastError()));
        int saveActions = 0;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QString::fromUtf8("&Save Schedule…")) {
                ++saveActions;
                QVERIFY2(!a->isEnabled() && a->toolTip().contains(QStringLiteral("alpha.json")), qPrintable(a->toolTip()));
            }
        QCOMPARE(saveActions, 1);

        // one click brings alpha back (from memory) and draws its schedule
        auto* button = w.findChild<QPushButton*>(QStringLiteral("switchGraphButton"));
        QVERIFY(button && button->isVisibleTo(&w));
        button->click();
        QCOMPARE(w.openGraph()->displayName, QStringLiteral("alpha.json"));
        QCOMPARE(w.ganttView()->barCount(), 30);
        QVERIFY(exportAndWait(w, ExportKind::ScheduleJson, out));
    }

    // Mutations caught: the one-selected state left blank; a hint that never goes away.
    void compareHintsWithOneResult() {
        MainWindow w;
        QVERIFY(w.openFile(m_graphA));
        QVERIFY(runToEnd(w).result);
        w.selectResults({0});
        QVERIFY2(w.compareView()->notice().contains(QStringLiteral("Ctrl+click")), qPrintable(w.compareView()->notice()));
        QVERIFY(runToEnd(w).result);
        w.selectResults({0, 1});
        QVERIFY(w.compareView()->comparing());
        QVERIFY(w.compareView()->notice().isEmpty());
    }

    // Mutations caught: the schedule without platform or fingerprint; Open Schedule not adopting
    // the platform (the panel keeps 5 devices); a schedule of another graph accepted.
    void scheduleTravelsWithItsPlatform() {
        MainWindow w;
        QVERIFY(w.openFile(m_graphA));
        w.platformPanel()->setDeviceCount(2);
        const RunRecord r = runToEnd(w);
        QVERIFY(r.result);
        const QString json = m_dir.filePath(QStringLiteral("two-devices.json"));
        QVERIFY(exportAndWait(w, ExportKind::ScheduleJson, json));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(o.value(QStringLiteral("platform")).toObject().value(QStringLiteral("devices")).toArray().size(), 2);
        QCOMPARE(o.value(QStringLiteral("graph")).toObject().value(QStringLiteral("fingerprint")).toString(),
                 QString::fromStdString(fingerprintText(graphFingerprint(*w.openGraph()->graph))));

        w.platformPanel()->setDeviceCount(5);
        QVERIFY2(importAndWait(w, json), qPrintable(w.lastError()));
        QCOMPARE(w.platformPanel()->platform().deviceCount(), 2);   // the schedule's machine
        QCOMPARE(w.results()->rowCount(), 2);
        const RunRecord back = w.results()->record(1);
        QCOMPARE(back.schedule().makespan, r.schedule().makespan);
        QCOMPARE(back.problem->platform.deviceCount(), 2);

        QVERIFY(w.openFile(m_graphB));
        QVERIFY(!importAndWait(w, json));
        QVERIFY2(w.lastError().contains(QStringLiteral("was made for another graph (30 ops")) &&
                     w.lastError().contains(QStringLiteral("the open graph is beta.json (24 ops")),
                 qPrintable(w.lastError()));
        QCOMPARE(w.results()->rowCount(), 2);
    }

    // Mutation caught: the flags' device count saved into the settings for the next launch.
    void commandLineFlagsHoldForOneLaunch() {
        QSettings().clear();
        {
            MainWindow w;
            w.platformPanel()->setDeviceCount(3);
            w.close();
        }
        {
            MainWindow w;
            CommandLine cli;
            cli.devices = QStringLiteral("4");
            QVERIFY(cli.apply(w));
            QCOMPARE(w.platformPanel()->platform().deviceCount(), 4);
            w.close();
        }
        {
            MainWindow w;
            QCOMPARE(w.platformPanel()->platform().deviceCount(), 3);
            // a value changed by hand after the flags is the user's: it is kept
            CommandLine cli;
            cli.devices = QStringLiteral("4");
            QVERIFY(cli.apply(w));
            w.platformPanel()->setDeviceCount(6);
            w.close();
        }
        MainWindow w;
        QCOMPARE(w.platformPanel()->platform().deviceCount(), 6);
    }

    // Mutation caught: Run / Save / Export enabled with nothing to act on.
    void actionsWaitUntilTheyCanRun() {
        MainWindow w;
        QList<QAction*> menus;   // a menu's own action shares its title ("&Run")
        for (QMenu* m : w.findChildren<QMenu*>()) menus << m->menuAction();
        auto action = [&](const char* text) {
            for (QAction* a : w.findChildren<QAction*>())
                if (a->text() == QString::fromUtf8(text) && !menus.contains(a)) return a;
            return static_cast<QAction*>(nullptr);
        };
        auto* run = w.runPanel()->findChild<QPushButton*>(QStringLiteral("runButton"));
        QVERIFY(action("&Run") && action("&Save Schedule…") && action("Schedule &JSON…") && run);
        QVERIFY(!action("&Run")->isEnabled());
        QVERIFY(action("&Run")->toolTip().contains(QStringLiteral("Open a graph")));
        QVERIFY(!run->isEnabled());
        QVERIFY(!action("&Save Schedule…")->isEnabled());
        QVERIFY(!action("Schedule &JSON…")->isEnabled());
        QVERIFY(!action("S&weep temperatures")->isEnabled());
        QVERIFY(!action("Save S&weep…")->isEnabled() && !action("S&weep as CSV…")->isEnabled());
        QVERIFY(w.openFile(m_graphA));
        QVERIFY(action("&Run")->isEnabled() && run->isEnabled());
        QVERIFY(!action("&Save Schedule…")->isEnabled());   // no result yet
        QVERIFY(runToEnd(w).result);
        QVERIFY(action("&Save Schedule…")->isEnabled() && action("Schedule &JSON…")->isEnabled());
    }

    // Mutations caught: the old 1e-9 pad (every y tick printing the same cost), no note, a
    // cancelled run's title still "(running)".
    void convergenceOfOneEvaluationAndOfACancelledRun() {
        MainWindow w;
        QVERIFY(w.openFile(m_graphA));
        const RunRecord r = runToEnd(w);
        QVERIFY(r.result);
        QVERIFY2(w.convergenceView()->note().contains(QStringLiteral("1 evaluation")), qPrintable(w.convergenceView()->note()));
        const QPointF y = w.convergenceView()->yRange();
        QVERIFY2(y.y() - y.x() >= 1.0 && y.x() <= r.result->cost && r.result->cost <= y.y(), qPrintable(QStringLiteral("%1..%2").arg(y.x()).arg(y.y())));
        QVERIFY(w.convergenceView()->xRange().y() >= 1);
        // costs of tens of millions span the axis (tst_timeline checks their tick labels' units)
        ConvergenceView big;
        big.setHistory(QStringLiteral("big"), {Progress{.evaluations = 10, .best = 2.5e7, .mean = 3e7}, Progress{.evaluations = 500, .best = 1.985e7, .mean = 2.2e7}});
        QCOMPARE(big.yTitle(), QStringLiteral("cost"));
        QVERIFY(big.yRange().x() <= 1.985e7 && big.yRange().y() >= 3e7);

        w.runPanel()->setMethod(QStringLiteral("brkga"));
        QVERIFY(w.runPanel()->setOption(QStringLiteral("budget"), QStringLiteral("100000000")));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        RunJob* job = w.startRun();
        QVERIFY(job);
        QTRY_VERIFY_WITH_TIMEOUT(w.convergenceView()->title().contains(QStringLiteral("(running)")), 20000);
        w.cancelAll();
        QVERIFY(finished.wait(20000));
        QVERIFY2(!w.convergenceView()->title().contains(QStringLiteral("(running)")), qPrintable(w.convergenceView()->title()));
        QVERIFY(w.convergenceView()->note().isEmpty());   // many evaluations: a real curve
    }

    // Mutations caught: a vague image error; "Writing …" left in the status bar after a failure.
    void exportErrorsNameTheFileAndTheReason() {
        MainWindow w;
        w.resize(800, 600);
        QVERIFY(w.openFile(m_graphA));
        QVERIFY(runToEnd(w).result);
        const QString missing = m_dir.filePath(QStringLiteral("no-such-folder/view.png"));
        try {
            exportWidgetImage(w.currentViewWidget(), missing);
            QFAIL("an image was written into a missing folder");
        } catch (const std::exception& e) {
            const QString m = QString::fromUtf8(e.what());
            QVERIFY2(m.contains(missing) && m.contains(QStringLiteral("does not exist")), e.what());
        }
        try {
            exportWidgetImage(w.currentViewWidget(), m_dir.filePath(QStringLiteral("view.nosuchformat")));
            QFAIL("an unknown image format was accepted");
        } catch (const std::exception& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("use .png or .svg")), e.what());
        }
        QVERIFY(!exportAndWait(w, ExportKind::Csv, m_dir.filePath(QStringLiteral("no-such-folder/s.csv"))));
        QVERIFY2(!w.statusBar()->currentMessage().startsWith(QStringLiteral("Writing")), qPrintable(w.statusBar()->currentMessage()));
    }

    // Examples opened from the menu are remembered by their bundled path and listed by title; a
    // damaged entry is left out. Mutation caught: recentTitle() showing the raw ":/examples/…" path.
    // (That opening records them is checked by hand: the test binary has no bundled resources.)
    void openRecentListsExamplesByTitle() {
        const auto examples = MainWindow::bundledExamples();
        QSettings().setValue(QStringLiteral("recentGraphs"),
                             QVariantList{GraphOrigin::bundled(examples.first().second).toVariant(), QVariantMap{{QStringLiteral("kind"), 7}},
                                          GraphOrigin::file(m_graphA).toVariant()});
        MainWindow w;
        QStringList titles;
        for (QMenu* m : w.findChildren<QMenu*>())
            if (m->title() == QLatin1String("Open &Recent"))
                for (QAction* a : m->actions()) titles << a->text();
        QCOMPARE(titles, (QStringList{QStringLiteral("Example: ") + examples.first().first, m_graphA}));
    }

    // Mutation caught: About without the version; a method description pointing at spec/ or seeds/.
    void aboutAndDescriptionsSpeakToUsers() {
        QCoreApplication::setApplicationVersion(QStringLiteral("9.8.7"));
        const QString about = MainWindow::aboutText();
        QVERIFY2(about.contains(QStringLiteral("9.8.7")) && about.contains(QString::fromLatin1(qVersion())), qPrintable(about));
        QVERIFY(about.contains(QStringLiteral("build")));
        for (const OptimizerInfo& info : OptimizerRegistry::instance().list()) {
            std::string text = info.summary;
            for (const OptionSpec& o : info.options) text += " " + o.help;
            QVERIFY2(text.find("spec/") == std::string::npos && text.find("seeds/") == std::string::npos, info.name.c_str());
        }
    }

    /// A sample that lands while a result is selected (the one the Temperature dock takes of every
    /// opened graph, say) leaves the selected run in the views; choosing a temperature shows its
    /// samples. Mutation caught: the sampled handler showing every sample in the views.
    void aLateSampleKeepsTheSelectedResultInView() {
        MainWindow w;
        w.show();   // a hidden Temperature dock defers its sampling
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(m_graphA));
        const RunRecord run = runToEnd(w);
        QVERIFY(run.result);
        QTRY_VERIFY(w.ganttView()->record() && w.ganttView()->record()->name == run.name);
        QSignalSpy sampled(w.temperaturePanel(), &TemperaturePanel::sampled);
        w.temperaturePanel()->resampleNow();
        QTRY_VERIFY_WITH_TIMEOUT(sampled.count() > 0, 30000);
        QVERIFY(w.ganttView()->record() && w.ganttView()->record()->name == run.name);
        sampled.clear();
        w.temperaturePanel()->setTemperature(0.02);   // what the slider does
        QTRY_VERIFY_WITH_TIMEOUT(sampled.count() > 0, 30000);
        QTRY_VERIFY(w.ganttView()->record() && w.ganttView()->record()->name != run.name);
    }
};

SCHEDLAB_TEST_MAIN(results, TestResults)
#include "tst_results.moc"
