// SPDX-License-Identifier: MIT
// Training steps in the explorer: the "?training=" source suffix, File ▸ Training Step, the
// window title, recent files and a run on the training graph.
#include "common/testmain.h"
#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/optimizer/optimizer.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/runpanel.h"
#include "widgets/panels/trainingmenu.h"
#include "widgets/session/graphloader.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/runjob.h"

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

    // Recent files and saved sessions keep an origin as its fields. Catches a field dropped on the
    // way (the training rule, a seed past 32 bits), and a damaged map read as some graph.
    void originRoundTrips() {
        const GraphOrigin origins[] = {GraphOrigin::file(QStringLiteral("/m/x.onnx")).withTraining(UpdateRule::Adam),
                                       GraphOrigin::bundled(QStringLiteral(":/examples/ft06.txt")),
                                       GraphOrigin::generated(QStringLiteral("nn"), 40, 0x1234567890ull).withTraining(UpdateRule::Sgd)};
        for (const GraphOrigin& o : origins) QCOMPARE(GraphOrigin::fromVariant(o.toVariant()), std::optional<GraphOrigin>(o));
        QVariantMap unknownRule = origins[0].toVariant();
        unknownRule[QStringLiteral("training")] = QStringLiteral("rmsprop");
        QCOMPARE(GraphOrigin::fromVariant(unknownRule), std::nullopt);
        QCOMPARE(GraphOrigin::fromVariant({{QStringLiteral("kind"), QStringLiteral("generated")}}), std::nullopt);
        QCOMPARE(GraphOrigin::fromVariant({}), std::nullopt);
    }

    // A training origin opens the training step, says so in the title, sets the menu and goes to
    // the recent files with its rule; a list schedule covers every op of it.
    void opensATrainingStep() {
        MainWindow w;
        const GraphOrigin origin = GraphOrigin::generated(QStringLiteral("nn"), 30, 2).withTraining(UpdateRule::Adam);
        QVERIFY2(w.open(origin), qPrintable(w.lastError()));
        QCOMPARE(w.openGraph()->graph->opCount(), trainingOps("nn", 30, 2));
        QCOMPARE(w.openGraph()->origin, origin);
        QVERIFY2(w.windowTitle().contains(QStringLiteral("training step, Adam")), qPrintable(w.windowTitle()));
        QCOMPARE(w.trainingMenu()->mode(), std::optional<UpdateRule>(UpdateRule::Adam));
        QCOMPARE(GraphOrigin::fromVariant(QSettings().value(QStringLiteral("recentGraphs")).toList().value(0).toMap()),
                 std::optional<GraphOrigin>(origin));
        w.runPanel()->setMethod(QStringLiteral("list-cp"));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun());
        QVERIFY(finished.wait(60000));
        QCOMPARE(static_cast<int>(finished.takeFirst().at(0).value<RunRecord>().schedule().ops.size()),
                 w.openGraph()->graph->opCount());
    }

    // Choosing another mode reopens the shown graph in it and is remembered for the next open.
    // Catches a menu that only changes the setting, or reopens the training graph's training graph.
    void menuReopensTheGraph() {
        MainWindow w;
        QVERIFY(w.open(GraphOrigin::generated(QStringLiteral("layered"), 25, 3).withTraining(UpdateRule::Sgd)));
        QSignalSpy loaded(&w, &MainWindow::documentLoaded);
        menuAction(w, QString())->trigger();
        QVERIFY(loaded.count() == 1 || loaded.wait(10000));
        QCOMPARE(w.openGraph()->graph->opCount(), 25);
        QVERIFY(!w.openGraph()->origin.training);
        QVERIFY(!w.windowTitle().contains(QStringLiteral("training")));
        menuAction(w, QStringLiteral("adam"))->trigger();
        QVERIFY(loaded.count() == 2 || loaded.wait(10000));
        QCOMPARE(w.openGraph()->graph->opCount(), trainingOps("layered", 25, 3));
        QCOMPARE(QSettings().value(QStringLiteral("trainingStep")).toString(), QStringLiteral("adam"));
        // the mode applies to what is opened next, whatever rule it had
        QCOMPARE(w.trainingMenu()->apply(GraphOrigin::file(QStringLiteral("g.onnx")).withTraining(UpdateRule::Sgd)),
                 GraphOrigin::file(QStringLiteral("g.onnx")).withTraining(UpdateRule::Adam));
        MainWindow again;   // a new window starts in the remembered mode
        QCOMPARE(again.trainingMenu()->mode(), std::optional<UpdateRule>(UpdateRule::Adam));
    }
};

SCHEDLAB_TEST_MAIN(training, TestTraining)
#include "tst_training.moc"
