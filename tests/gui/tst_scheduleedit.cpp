// SPDX-License-Identifier: MIT
// Editing a schedule by hand in the explorer: a bar dragged with the mouse moves its op to the
// intended device and place, the edited result is a new result that scores like its saved file;
// a refused drop says why and changes nothing; undo and redo walk the edits; the keyboard moves.
#include "common/bits.h"
#include "common/testmain.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/stepmemory.h"
#include "core/io/scheduleio.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/platformpanel.h"
#include "widgets/panels/runpanel.h"
#include "widgets/session/document.h"
#include "widgets/session/graphorigin.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/scheduleedits.h"
#include "widgets/session/units.h"
#include "widgets/views/ganttview.h"
#include "widgets/views/memoryview.h"
#include "widgets/views/opselection.h"
#include "widgets/views/timechartview.h"

#include <QSignalSpy>
#include <QStatusBar>
#include <QtTest>

#include <bit>

#define EXAMPLES SCHEDLAB_TEST_DATA "/../../resources/examples"

using namespace sl;
using namespace sl::gui;

namespace {

/// Opens `file` on `devices` devices and runs list-cp; the Gantt tab shows its schedule.
RunRecord listCpInGantt(MainWindow& w, const QString& file, int devices) {
    w.resize(1400, 900);
    w.show();
    if (!w.open(GraphOrigin::file(file))) return {};
    if (devices > 0) w.platformPanel()->setDeviceCount(devices);   // 0: the file's machine
    if (!w.runPanel()->setMethod(QStringLiteral("list-cp"))) return {};
    QSignalSpy finished(&w, &MainWindow::runFinished);
    if (!w.startRun() || !finished.wait(60000)) return {};
    w.showTab(MainWindow::GanttTab);
    return finished.takeFirst().at(0).value<RunRecord>();
}

/// Presses on op `v`'s bar, moves in steps to `to` and releases there.
void drag(GanttView* g, OpId v, QPointF to) {
    const QPoint from = g->barRect(v).center().toPoint();
    QTest::mousePress(g, Qt::LeftButton, {}, from);
    for (int i = 1; i <= 5; ++i) {
        const QPointF at = QPointF(from) + (to - QPointF(from)) * (i / 5.0);
        QMouseEvent move(QEvent::MouseMove, at, g->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(g, &move);
    }
    QTest::mouseRelease(g, Qt::LeftButton, {}, to.toPoint());
}


/// The op that runs `k`-th on `device`.
OpId nth(const Schedule& s, int device, int k) {
    std::vector<OpId> ops;
    for (OpId v = 0; v < static_cast<OpId>(s.ops.size()); ++v)
        if (s.ops[static_cast<size_t>(v)].device == device) ops.push_back(v);
    std::sort(ops.begin(), ops.end(), [&](OpId a, OpId b) { return s.ops[static_cast<size_t>(a)].start < s.ops[static_cast<size_t>(b)].start; });
    return ops[static_cast<size_t>(k)];
}

} // namespace

class TestScheduleEdit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("SchedLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_scheduleedit"));
        QSettings().clear();
        registerCoreOptimizers();
    }

    // A bar dragged to another lane and place: the new result "list-cp …, edited" has the op
    // there, its cost is that of its saved file to the bit, the original result is untouched,
    // and the read-out during the drag gave the makespan before and after. Mutations caught: a
    // drop that lands one place off, an edit made in place of the original, a record scored apart
    // from the cost model.
    void draggingABarMovesItsOpAndMakesAnEditedResult() {
        MainWindow w;
        const RunRecord base = listCpInGantt(w, QStringLiteral(EXAMPLES "/layered200.json"), 3);
        QVERIFY(base.result);
        GanttView* g = w.ganttView();
        const Schedule& s = base.schedule();
        const OpId v = nth(s, 0, 5);   // the sixth op of device 0 ...
        const OpPlace to{2, 3};        // ... to device 2, after its third op
        QSignalSpy added(w.scheduleEdits(), &ScheduleEdits::resultAdded);
        const QPointF target = g->dropPoint(v, to);
        QCOMPARE(*g->placeAt(v, target), to);
        // halfway: the read-out compares makespans
        const QPoint from = g->barRect(v).center().toPoint();
        QTest::mousePress(g, Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, target, g->mapToGlobal(target), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(g, &move);
        QVERIFY2(g->dragText().startsWith(QStringLiteral("makespan ")) || g->dragText().startsWith(QStringLiteral("Cannot")),
                 qPrintable(g->dragText()));
        const bool allowed = g->dragText().startsWith(QStringLiteral("makespan "));
        QTest::mouseRelease(g, Qt::LeftButton, {}, target.toPoint());
        QVERIFY2(allowed, qPrintable(g->lastRefusal()));
        QCOMPARE(added.count(), 1);
        const RunRecord edited = added.takeFirst().at(0).value<RunRecord>();
        QCOMPARE(edited.name, base.name + QStringLiteral(", edited"));
        QCOMPARE(edited.schedule().ops[static_cast<size_t>(v)].device, 2);
        QCOMPARE(nth(edited.schedule(), 2, 3), v);
        QCOMPARE(w.document()->shown()->id, edited.id);
        Schedule reread = parseScheduleJson(*edited.problem, scheduleToJson(*edited.problem, edited.schedule()), "edited.json");
        QVERIFY(sameBits(scoreSchedule(*edited.problem, reread), edited.result->cost));
        QCOMPARE(w.results()->rowCount(), 2);
        QCOMPARE(w.results()->record(0).schedule().ops[static_cast<size_t>(v)].device, s.ops[static_cast<size_t>(v)].device);
    }

    // Refusals, each shown and with nothing changed: ft06's ops run on one machine each (another
    // lane is refused by machine type), and an op dropped before its own job predecessor on the
    // same machine would make a cycle. Mutations caught: a refused drop that still edits, a
    // refusal that does not say why.
    void refusedDropsSayWhyAndChangeNothing() {
        MainWindow w;
        const RunRecord base = listCpInGantt(w, QStringLiteral(EXAMPLES "/ft06.txt"), 0);
        QVERIFY(base.result);
        GanttView* g = w.ganttView();
        QSignalSpy added(w.scheduleEdits(), &ScheduleEdits::resultAdded);
        const OpId v = nth(base.schedule(), 0, 1);
        drag(g, v, g->dropPoint(v, {3, 0}));
        QVERIFY2(g->lastRefusal().contains(QStringLiteral("machine type")), qPrintable(g->lastRefusal()));
        // above the lanes (on the time axis): no device to drop on
        QMouseEvent press(QEvent::MouseButtonPress, g->barRect(v).center(), g->mapToGlobal(g->barRect(v).center()), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(g, &press);
        const QPointF above(g->barRect(v).center().x() + 40, 5);
        QMouseEvent move(QEvent::MouseMove, above, g->mapToGlobal(above), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(g, &move);
        QVERIFY2(g->dragText().contains(QStringLiteral("lane")), qPrintable(g->dragText()));
        QTest::mouseRelease(g, Qt::LeftButton, {}, above.toPoint());
        QCOMPARE(added.count(), 0);
        QCOMPARE(w.results()->rowCount(), 1);
        QCOMPARE(w.document()->shown()->id, base.id);
    }

    // Undo after several edits gives back the first edit's start (the list-cp schedule) exactly;
    // redo gives the last edit again; the keyboard moves the selected op. Mutations caught: an
    // undo that re-times instead of restoring, a redo that skips, Alt+Right moving two places.
    void undoRedoAndTheKeyboard() {
        MainWindow w;
        const RunRecord base = listCpInGantt(w, QStringLiteral(EXAMPLES "/layered200.json"), 3);
        QVERIFY(base.result);
        GanttView* g = w.ganttView();
        const OpId v = nth(base.schedule(), 1, 2);
        w.selection()->setCurrent(v);
        g->setFocus();
        QTest::keyClick(&w, Qt::Key_Down, Qt::AltModifier);   // to the next device, where its start falls
        QCOMPARE(w.results()->rowCount(), 2);
        const RunRecord first = *w.document()->shown();
        QCOMPARE(first.schedule().ops[static_cast<size_t>(v)].device, 2);
        const OpId u = nth(first.schedule(), 0, 4);
        w.selection()->setCurrent(u);
        QTest::keyClick(&w, Qt::Key_Right, Qt::AltModifier);   // one place later on its device
        const RunRecord second = *w.document()->shown();
        QCOMPARE(second.id, first.id);
        QCOMPARE(nth(second.schedule(), 0, 5), u);
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        const Schedule& undone = w.document()->shown()->schedule();
        for (std::size_t x = 0; x < undone.ops.size(); ++x) {
            QCOMPARE(undone.ops[x].device, base.schedule().ops[x].device);
            QVERIFY(sameBits(undone.ops[x].start, base.schedule().ops[x].start));
        }
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        const Schedule& redone = w.document()->shown()->schedule();
        for (std::size_t x = 0; x < redone.ops.size(); ++x) QVERIFY(sameBits(redone.ops[x].start, second.schedule().ops[x].start));
        QCOMPARE(w.results()->rowCount(), 2);
    }

    // Edit ▸ Improve from Here: tabu started from a hand-edited ft06 schedule (58, after moving
    // J1·1) returns a result no costlier than 58 and no better than the optimum 55, and says it
    // searched from the start schedule. Mutation caught: the run not given the shown schedule
    // (its note then names list-cp's chains).
    void improveFromHereRunsFromTheShownSchedule() {
        MainWindow w;
        const RunRecord base = listCpInGantt(w, QStringLiteral(EXAMPLES "/ft06.txt"), 0);
        QVERIFY(base.result);
        const Graph& g = base.problem->g();
        OpId v = kNoOp;
        for (OpId u = 0; u < g.opCount(); ++u)
            if (g.op(u).name == "j1_o1") v = u;
        QVERIFY(w.scheduleEdits()->commit(v, {2, 2}).allowed());
        QCOMPARE(w.document()->shown()->result->cost, 58.0);
        QAction* improve = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("Improve from Here with tabu")) improve = a;
        QVERIFY(improve && improve->isEnabled());
        QSignalSpy finished(&w, &MainWindow::runFinished);
        improve->trigger();
        QVERIFY(finished.wait(60000));
        const RunRecord r = finished.takeFirst().at(0).value<RunRecord>();
        QVERIFY2(r.result->cost <= 58 && r.result->cost >= 55, qPrintable(QString::number(r.result->cost)));
        QVERIFY2(QString::fromStdString(r.result->note).contains(QStringLiteral("start schedule")), r.result->note.c_str());
    }

    // Hand edits read to the unit (issue 48): ft06's list-cp schedule (61) with J1·1 dragged to
    // M2's third place (58): the read-out during the drag, the status bar after the drop and after
    // the undo, and the edited row's Makespan cell. Mutations caught: the 3-significant-digit
    // format ("61.0 units → 58.0 units", or "1.49 k units" on both sides at Taillard's size), no
    // difference in units, no status-bar message after an edit, the before and after swapped.
    void editsReadToTheUnit() {
        MainWindow w;
        const RunRecord base = listCpInGantt(w, QStringLiteral(EXAMPLES "/ft06.txt"), 0);
        QVERIFY(base.result);
        QCOMPARE(base.schedule().makespan, 61.0);
        const Graph& graph = base.problem->g();
        OpId v = kNoOp;
        for (OpId u = 0; u < graph.opCount(); ++u)
            if (graph.op(u).name == "j1_o1") v = u;
        GanttView* g = w.ganttView();
        const QPointF target = g->dropPoint(v, {2, 2});
        QTest::mousePress(g, Qt::LeftButton, {}, g->barRect(v).center().toPoint());
        QMouseEvent move(QEvent::MouseMove, target, g->mapToGlobal(target), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(g, &move);
        QCOMPARE(g->dragText(), QStringLiteral("makespan 61 units → 58 units (−3 units, −4.9 %)"));
        QTest::mouseRelease(g, Qt::LeftButton, {}, target.toPoint());
        QCOMPARE(w.document()->shown()->schedule().makespan, 58.0);
        const QString edited = base.name + QStringLiteral(", edited");
        QCOMPARE(w.statusBar()->currentMessage(), edited + QStringLiteral(": makespan 61 units → 58 units (−3 units, −4.9 %)"));
        const ResultsModel* results = w.results();
        const auto makespanCell = [results](int id) {
            return results->index(results->rowOfId(id), ResultsModel::Makespan).data().toString();
        };
        QCOMPARE(makespanCell(w.document()->shown()->id), QStringLiteral("58 units"));
        QCOMPARE(makespanCell(base.id), QStringLiteral("61.0 units"));   // not edited: the short format stays
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(w.statusBar()->currentMessage(), edited + QStringLiteral(": makespan 58 units → 61 units (+3 units, +5.2 %)"));
    }

    // The Memory view's step clock, one device: a drag along the curve from one step to another
    // moves that op there (a new edited result whose order has it at the new step, its step peak
    // that of the new order recomputed here), the dashed curve previews the move during the drag,
    // and a move before an op's own input is refused with nothing changed. Mutations caught: the
    // drop one step off, a preview never drawn, a refused move that still edits.
    void reorderingOnTheStepClock() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(w.open(GraphOrigin::file(QStringLiteral(EXAMPLES "/layered200.json"))));
        w.platformPanel()->setDeviceCount(1);
        w.platformPanel()->setObjective(Objective::Memory);
        QVERIFY(w.runPanel()->setMethod(QStringLiteral("mem-dfs")));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun() && finished.wait(60000));
        const RunRecord base = finished.takeFirst().at(0).value<RunRecord>();
        w.showTab(MainWindow::MemoryTab);
        MemoryView* m = w.memoryView();
        m->setStepClock(true);
        QApplication::processEvents();
        const Graph& g = base.problem->g();
        const std::vector<OpId>& order = base.schedule().order;
        const auto feeds = [&](OpId u, OpId v) {
            const auto succ = g.successors(u);
            return std::find(succ.begin(), succ.end(), v) != succ.end();
        };
        int free = -1, bound = -1;   // a step whose op may go one step earlier, and one whose may not
        for (int i = 10; i + 1 < static_cast<int>(order.size()) && (free < 0 || bound < 0); ++i) {
            if (free < 0 && !feeds(order[static_cast<size_t>(i)], order[static_cast<size_t>(i + 1)])) free = i + 1;
            if (bound < 0 && feeds(order[static_cast<size_t>(i)], order[static_cast<size_t>(i + 1)])) bound = i + 1;
        }
        QVERIFY(free > 0 && bound > 0);
        QCOMPARE(m->stepAt(m->stepPoint(free)), free);
        // refused: the op before its own input
        QVERIFY(!m->moveStep(bound, bound - 1));
        QCOMPARE(w.results()->rowCount(), 1);
        // a mouse drag from step `free` to step `free - 1`
        QWidget* viewport = m->chartView()->viewport();
        QTest::mousePress(viewport, Qt::LeftButton, {}, m->stepPoint(free));
        QMouseEvent move(QEvent::MouseMove, m->stepPoint(free - 1), viewport->mapToGlobal(m->stepPoint(free - 1)), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &move);
        QVERIFY(m->previewPointCount() > 0);
        // the peak to the byte (issue 48); catches the IEC one-decimal format ("89.0 MiB")
        const QString peak = QStringLiteral(": peak ") + formatBytesExact(base.schedule().stepMemory.peak);
        QVERIFY2(m->readout().contains(peak) && m->readout().endsWith(QStringLiteral(")")), qPrintable(m->readout()));
        QTest::mouseRelease(viewport, Qt::LeftButton, {}, m->stepPoint(free - 1));
        QCOMPARE(w.results()->rowCount(), 2);
        const RunRecord edited = *w.document()->shown();
        QCOMPARE(edited.schedule().order[static_cast<size_t>(free - 1)], order[static_cast<size_t>(free)]);
        StepMemory steps(g, 1);
        QCOMPARE(edited.schedule().stepMemory.peak, steps.peak(edited.schedule().order));
    }

    // Pins from the explorer: an op pinned to its device (as the Gantt's context menu does) is
    // marked on its bar, a drag of it to another lane is refused saying it is pinned, a list-cp
    // run keeps it there and its schedule file carries the pin, and heft, which cannot keep pins,
    // is refused naming the methods that can. Mutations caught: pins not in the run's problem,
    // an editor blind to the document's pins, no mark.
    void pinsFromTheExplorer() {
        MainWindow w;
        const RunRecord base = listCpInGantt(w, QStringLiteral(EXAMPLES "/layered200.json"), 3);
        QVERIFY(base.result);
        GanttView* g = w.ganttView();
        const OpId v = nth(base.schedule(), 1, 4);
        w.scheduleEdits()->pin(v, false);
        QVERIFY(w.document()->pins().pinned(v));
        QCOMPARE(w.document()->pins().of(v).device, 1);
        const QImage img = g->grab().toImage();
        const double dpr = img.width() / static_cast<double>(g->width());
        const QPointF head = g->barRect(v).topLeft() + QPointF(5, 5);
        QCOMPARE(img.pixelColor(QPoint(static_cast<int>(head.x() * dpr), static_cast<int>(head.y() * dpr))), QColor(0x2b, 0x2f, 0x36));
        drag(g, v, g->dropPoint(v, {2, 0}));
        QVERIFY2(g->lastRefusal().contains(QStringLiteral("pinned")), qPrintable(g->lastRefusal()));
        QCOMPARE(w.results()->rowCount(), 1);
        // a run keeps it, and says so in its file
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.runPanel()->setMethod(QStringLiteral("list-spt")));
        QVERIFY(w.startRun() && finished.wait(60000));
        const RunRecord kept = finished.takeFirst().at(0).value<RunRecord>();
        QCOMPARE(kept.schedule().ops[static_cast<size_t>(v)].device, 1);
        QVERIFY(scheduleToJson(*kept.problem, kept.schedule()).find("\"pins\"") != std::string::npos);
        QVERIFY(w.runPanel()->setMethod(QStringLiteral("heft")));
        QVERIFY(!w.startRun());
        QVERIFY2(w.lastError().contains(QStringLiteral("cannot keep pinned ops")), qPrintable(w.lastError()));
        w.scheduleEdits()->unpinAll();
        QVERIFY(w.document()->pins().empty());
    }
};

SCHEDLAB_TEST_MAIN(scheduleedit, TestScheduleEdit)
#include "tst_scheduleedit.moc"
