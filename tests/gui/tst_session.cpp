// SPDX-License-Identifier: MIT
// The explorer keeps the user's work: finished results are autosaved and come back
// after a crash, a graph file changed on disk is noticed, and an optimizer that throws leaves every
// earlier result in place.
#include "common/testmain.h"
#include "core/generators/generators.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/runpanel.h"
#include "widgets/session/graphloader.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/runjob.h"
#include "widgets/session/sessionstore.h"

#include <QDir>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <stdexcept>

using namespace sl;
using namespace sl::gui;

namespace {

/// An optimizer that fails the way a buggy one would: it throws mid-run.
class ThrowingOptimizer final : public Optimizer {
public:
    RunResult run(const Problem&, const RunOptions&, const ProgressFn&, std::stop_token) override {
        throw std::runtime_error("the test optimizer gave up");
    }
};

/// A pid no process can have (above Linux's largest pid_max, 2^22): a crashed explorer's folder.
constexpr int kDeadPid = 4194400;

bool copyFolder(const QString& from, const QString& to) {
    if (!QDir().mkpath(to)) return false;
    for (const QString& f : QDir(from).entryList(QDir::Files))
        if (!QFile::copy(from + QLatin1Char('/') + f, to + QLatin1Char('/') + f)) return false;
    return true;
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_sessions;

    QString writeGraph(const char* name, int ops, std::uint64_t seed) {
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        saveGraphJson(*generateLayered(ops, seed).graph, nullptr, path.toStdString());
        return path;
    }
    static RunRecord runToEnd(MainWindow& w, const QString& method) {
        w.runPanel()->setMethod(method);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        if (!w.startRun() || !finished.wait(60000)) return {};
        return finished.takeFirst().at(0).value<RunRecord>();
    }

private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SchedLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_session"));
        QSettings().clear();
        registerCoreOptimizers();
        OptimizerRegistry::instance().add({.name = "test-throws", .summary = "throws", .family = "heuristic", .objectives = {Objective::Makespan}},
                                          [] { return std::make_unique<ThrowingOptimizer>(); });
        QVERIFY(m_dir.isValid());
        m_sessions = m_dir.filePath(QStringLiteral("sessions"));
        MainWindow::setSessionRoot(m_sessions);
    }

    /// Mutations caught: no autosave in addResult; a rename or a delete not reaching the index; the
    /// restore not reopening the graph or not re-importing the schedule; a clean end leaving a
    /// folder to be offered back.
    void resultsComeBackAfterACrash() {
        const QString graph = writeGraph("crash.json", 40, 3);
        QString saved;
        double makespan = 0;
        {
            MainWindow w;
            QVERIFY(w.openFile(graph));
            const RunRecord kept = runToEnd(w, QStringLiteral("list-cp"));
            QVERIFY(kept.result);
            makespan = kept.schedule().makespan;
            w.results()->setData(w.results()->index(0, ResultsModel::Name), QStringLiteral("kept"));
            QVERIFY(runToEnd(w, QStringLiteral("list-rank")).result);
            w.results()->removeRows(1, 1);   // deleted: must not come back
            w.sessionStore().flush();
            saved = w.sessionStore().folder();
            QVERIFY(QFileInfo::exists(saved + QStringLiteral("/session.json")));
            // what a crash leaves: the folder of a process that is gone
            QVERIFY(copyFolder(saved, m_sessions + QLatin1Char('/') + QString::number(kDeadPid)));
        }
        QVERIFY2(!QFileInfo::exists(saved), "an orderly end removes its own session");
        const QList<OrphanSession> orphans = SessionStore::orphans(m_sessions);
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(orphans.front().entries.size(), 1);
        QCOMPARE(orphans.front().entries.front().name, QStringLiteral("kept"));

        MainWindow w;
        QCOMPARE(w.restoreSession(orphans.front()), 1);
        QVERIFY(w.openGraph());
        QCOMPARE(QFileInfo(w.openGraph()->path).fileName(), QStringLiteral("crash.json"));
        QCOMPARE(w.results()->rowCount(), 1);
        QCOMPARE(w.results()->record(0).name, QStringLiteral("kept"));
        QCOMPARE(w.results()->record(0).schedule().makespan, makespan);   // re-timed by the cost model
        QVERIFY(SessionStore::orphans(m_sessions).isEmpty());
    }

    /// Mutation caught: no file watcher (the user keeps working on a stale graph unawares).
    void aChangedGraphFileIsNoticed() {
        const QString graph = writeGraph("changing.json", 20, 4);
        MainWindow w;
        QVERIFY(w.openFile(graph));
        QCOMPARE(w.openGraph()->graph->opCount(), 20);
        QVERIFY(!w.fileChangedOnDisk());
        saveGraphJson(*generateLayered(25, 5).graph, nullptr, graph.toStdString());
        QTRY_VERIFY_WITH_TIMEOUT(w.fileChangedOnDisk(), 10000);
        QSignalSpy loaded(&w, &MainWindow::documentLoaded);
        auto* reload = w.findChild<QPushButton*>(QStringLiteral("reloadButton"));
        QVERIFY(reload);
        reload->click();
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0, 10000);   // a quick load may land within click()
        QCOMPARE(w.openGraph()->graph->opCount(), 25);
        QVERIFY(!w.fileChangedOnDisk());
    }

    /// Mutations caught: a failing run that drops or replaces the results, or leaves the window
    /// unable to start the next run.
    void aThrowingOptimizerKeepsEarlierResults() {
        MainWindow w;
        QVERIFY(w.openFile(writeGraph("throws.json", 20, 6)));
        QVERIFY(runToEnd(w, QStringLiteral("list-cp")).result);
        w.runPanel()->reloadMethods();
        w.runPanel()->setMethod(QStringLiteral("test-throws"));
        QSignalSpy failed(&w, &MainWindow::runFailed);
        QVERIFY(w.startRun());
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.first().at(0).toString().contains(QStringLiteral("gave up")), qPrintable(failed.first().at(0).toString()));
        QCOMPARE(w.results()->rowCount(), 1);
        QTRY_COMPARE(w.activeRuns(), 0);
        QVERIFY(runToEnd(w, QStringLiteral("list-cp")).result);
        QCOMPARE(w.results()->rowCount(), 2);
    }
};

SCHEDLAB_TEST_MAIN(session, TestSession)
#include "tst_session.moc"
