// SPDX-License-Identifier: MIT
// Training steps in the explorer: the "?training=" source suffix, File ▸ Training Step, the
// window title, recent files and a run on the training graph.
#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/optimizer/optimizer.h"
#include "widgets/graphloader.h"
#include "widgets/mainwindow.h"
#include "widgets/resultsmodel.h"
#include "widgets/runjob.h"
#include "widgets/runpanel.h"
#include "widgets/trainingmenu.h"

#include <QAction>
#include <QApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::gui;

class TestTraining : public QObject {
    Q_OBJECT

private:
    static int trainingOps(const char* family, int nodes, std::uint64_t seed) {
        return makeTrainingGraph(*generateInstance(family, nodes, seed).graph).opCount();
    }
    static QAction* menuAction(MainWindow& w, const QString& data) {
        for (QAction* a : w.trainingMenu()->actions())
            if (a->data().toString() == data) return a;
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SchedLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_training"));
        QSettings().clear();
        registerCoreOptimizers();
    }

    // Catches a suffix that is not stripped (the loader would look for "x.onnx?training=adam"),
    // an unknown rule taken for a mode, a suffix written for "none".
    void sourceSuffix() {
        const DocumentSource a = parseDocumentSource(QStringLiteral("/m/x.onnx?training=adam"));
        QCOMPARE(a.path, QStringLiteral("/m/x.onnx"));
        QCOMPARE(a.training, std::optional<UpdateRule>(UpdateRule::Adam));
        QCOMPARE(parseDocumentSource(QStringLiteral("generated:nn:40:1?training=SGD")).training,
                 std::optional<UpdateRule>(UpdateRule::Sgd));
        QCOMPARE(parseDocumentSource(QStringLiteral("x.onnx?training=rmsprop")).path,
                 QStringLiteral("x.onnx?training=rmsprop"));
        QCOMPARE(parseDocumentSource(QStringLiteral("x.onnx")).training, std::nullopt);
        QCOMPARE(documentSource(QStringLiteral("x.onnx"), UpdateRule::Sgd), QStringLiteral("x.onnx?training=sgd"));
        QCOMPARE(documentSource(QStringLiteral("x.onnx"), std::nullopt), QStringLiteral("x.onnx"));
    }

    // A training source opens the training step, says so in the title, sets the menu and goes to
    // the recent files with its suffix; a list schedule covers every op of it.
    void opensATrainingStep() {
        MainWindow w;
        QVERIFY2(w.openFile(QStringLiteral("generated:nn:30:2?training=adam")), qPrintable(w.lastError()));
        QCOMPARE(w.document()->graph->opCount(), trainingOps("nn", 30, 2));
        QCOMPARE(w.document()->training, std::optional<UpdateRule>(UpdateRule::Adam));
        QCOMPARE(w.document()->source, QStringLiteral("generated:nn:30:2"));
        QVERIFY2(w.windowTitle().contains(QStringLiteral("training step, Adam")), qPrintable(w.windowTitle()));
        QCOMPARE(w.trainingMenu()->mode(), std::optional<UpdateRule>(UpdateRule::Adam));
        QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().value(0),
                 QStringLiteral("generated:nn:30:2?training=adam"));
        w.runPanel()->setMethod(QStringLiteral("list-cp"));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun());
        QVERIFY(finished.wait(60000));
        QCOMPARE(static_cast<int>(finished.takeFirst().at(0).value<RunRecord>().schedule().ops.size()),
                 w.document()->graph->opCount());
    }

    // Choosing another mode reopens the shown graph in it and is remembered for the next open.
    // Catches a menu that only changes the setting, or reopens the training graph's training graph.
    void menuReopensTheGraph() {
        MainWindow w;
        QVERIFY(w.openFile(QStringLiteral("generated:layered:25:3?training=sgd")));
        QSignalSpy loaded(&w, &MainWindow::documentLoaded);
        menuAction(w, QString())->trigger();
        QVERIFY(loaded.count() == 1 || loaded.wait(10000));
        QCOMPARE(w.document()->graph->opCount(), 25);
        QVERIFY(!w.document()->training);
        QVERIFY(!w.windowTitle().contains(QStringLiteral("training")));
        menuAction(w, QStringLiteral("adam"))->trigger();
        QVERIFY(loaded.count() == 2 || loaded.wait(10000));
        QCOMPARE(w.document()->graph->opCount(), trainingOps("layered", 25, 3));
        QCOMPARE(QSettings().value(QStringLiteral("trainingStep")).toString(), QStringLiteral("adam"));
        // the mode applies to what is opened next, whatever suffix it had
        QCOMPARE(w.trainingMenu()->apply(QStringLiteral("g.onnx?training=sgd")),
                 QStringLiteral("g.onnx?training=adam"));
        MainWindow again;   // a new window starts in the remembered mode
        QCOMPARE(again.trainingMenu()->mode(), std::optional<UpdateRule>(UpdateRule::Adam));
    }
};

QTEST_MAIN(TestTraining)
#include "tst_training.moc"
