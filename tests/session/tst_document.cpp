// SPDX-License-Identifier: MIT
// The explorer's state without a screen (widgets/session, Qt Core only; this executable has no
// QApplication): a graph opened, a run to its end and one cancelled, the schedules on show re-timed
// on a machine change (the latest of two changes wins), and a hand edit undone. Every value is
// checked against core's own (the optimizer run directly, the schedule re-timed by core).
#include "common/bits.h"
#include "common/testmain.h"
#include "core/costmodel/chaintiming.h"
#include "core/costmodel/sharedlinks.h"
#include "core/generators/generators.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"
#include "core/timing/catalog.h"
#include "core/timing/machine.h"
#include "widgets/session/document.h"
#include "widgets/session/graphloader.h"
#include "widgets/session/latestrequest.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/runjob.h"
#include "widgets/session/runs.h"
#include "widgets/session/scheduleedits.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace sl;
using namespace sl::gui;

namespace {

const QString kResnetExample = QStringLiteral(SCHEDLAB_TEST_DATA "/../../resources/examples/resnet50.onnx");

/// A layered graph of `ops` ops whose work is known (matmuls of 1 to 7 GFLOP), in microseconds:
/// a catalogue machine times it from its devices.
Graph layeredWithMatmulWork(int ops) {
    Graph g = *generateLayered(ops, 1).graph;
    for (OpId v = 0; v < g.opCount(); ++v) {
        Op& o = g.mutableOp(v);
        o.work = {.opClass = OpClass::Matmul,
                  .dtype = DType::F32,
                  .flops = 2e9 * (1 + v % 7),
                  .bytesRead = 4e6,
                  .bytesWritten = 1e6};
        o.timeSource = TimeSource::Estimated;
    }
    g.setTimeUnit(TimeUnit::Microseconds);
    g.finalize();
    return g;
}

Machine abstractMachine(int devices) { return {.platform = Platform::identical(devices)}; }

Machine presetMachine(const char* id) {
    const DeviceCatalog& catalog = DeviceCatalog::instance();
    return {.platform = presetPlatform(catalog.preset(id), catalog, TimeUnit::Microseconds)};
}

/// Runs `method` on the document's problem as the explorer does (Runs): the record it added.
std::optional<RunRecord> runToEnd(Document& doc, const char* method, RunOptions options = {}) {
    Runs runs(&doc);
    QSignalSpy finished(&runs, &Runs::finished);
    runs.start(doc.problem(), QString::fromLatin1(method), std::move(options));
    if (!finished.wait(60000)) return std::nullopt;
    return finished.takeFirst().at(1).value<RunRecord>();
}

/// Waits until every re-timing of the schedules on show has landed or been dropped.
bool retimingsSettled(const Document& doc) {
    return QTest::qWaitFor([&doc] { return !doc.retimingShown(); }, 60000);
}

}   // namespace

class TestDocument : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    /// A document with the layered graph of matmul work open on `devices` abstract devices.
    QString writeLayered(int ops) {
        const QString path = m_dir.filePath(QStringLiteral("layered%1.json").arg(ops));
        saveGraphJson(layeredWithMatmulWork(ops), nullptr, path.toStdString());
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        registerCoreOptimizers();
        QVERIFY(m_dir.isValid());
        QVERIFY(!QCoreApplication::instance()->inherits("QGuiApplication"));   // no display to lean on
    }

    // Opening reads the file as core does and remembers the graph for the session; a schedule on
    // show of the first graph leaves when another opens, and its graph is still found by its
    // fingerprint. Mutations caught: remember() skipped; the shown schedule kept over another graph.
    void openRemembersTheGraph() {
        Document doc;
        QSignalSpy changed(&doc, &Document::graphChanged);
        doc.setGraph(readGraph(GraphOrigin::file(kResnetExample)));
        QCOMPARE(changed.size(), 1);
        const LoadedGraph core = loadGraph(kResnetExample.toStdString());
        QCOMPARE(doc.graph()->graph->opCount(), core.graph->opCount());
        QCOMPARE(doc.graph()->graph->edgeCount(), core.graph->edgeCount());
        const std::uint64_t first = doc.graph()->fingerprint;
        QVERIFY(doc.sessionGraph(first));
        QCOMPARE(doc.sessionGraph(first)->title, QStringLiteral("resnet50.onnx"));

        doc.setMachine(abstractMachine(2));
        const std::optional<RunRecord> run = runToEnd(doc, "list-cp");
        QVERIFY(run && run->result);
        doc.show(*run);
        QVERIFY(doc.shown());
        QSignalSpy shown(&doc, &Document::shownChanged);
        doc.setGraph(readGraph(GraphOrigin::file(writeLayered(50))));
        QVERIFY(!doc.shown());
        QCOMPARE(shown.size(), 1);
        QVERIFY(doc.sessionGraph(first));   // the earlier graph's results still find their title
        QVERIFY(doc.graph()->fingerprint != first);
    }

    // Two opens in a row: only the second lands, the first's callback hears it was replaced, and a
    // file that cannot be read says why. Deterministic: both requests are made before the event
    // loop runs. Mutation caught: the load's ticket not checked (the first graph lands last).
    void theLatestOfTwoOpensWins() {
        Document doc;
        QStringList heard;
        const auto note = [&heard](const char* which) {
            return [&heard, which](bool opened, const QString& error) {
                heard << QStringLiteral("%1 %2 %3").arg(QLatin1String(which)).arg(opened).arg(error.isEmpty());
            };
        };
        doc.open(GraphOrigin::file(kResnetExample), {}, note("resnet"));
        doc.open(GraphOrigin::file(writeLayered(40)), {}, note("layered"));
        QVERIFY(QTest::qWaitFor([&heard] { return heard.size() == 2; }, 60000));
        heard.sort();
        QCOMPARE(heard, (QStringList{QStringLiteral("layered 1 1"), QStringLiteral("resnet 0 1")}));
        QCOMPARE(doc.graph()->graph->opCount(), 40);
        const QString missing = m_dir.filePath(QStringLiteral("missing.onnx"));
        QString why;
        doc.open(GraphOrigin::file(missing), {}, [&why](bool, const QString& error) { why = error; });
        QVERIFY(QTest::qWaitFor([&why] { return !why.isEmpty(); }, 60000));
        QVERIFY2(why.contains(QStringLiteral("missing.onnx")), qPrintable(why));
        QCOMPARE(doc.graph()->graph->opCount(), 40);   // the open graph stays
    }

    // A run through the session gives core's schedule to the bit and lands in the results, stamped
    // with its graph. Mutations caught: the record scored or timed another way than the optimizer's
    // own result; a finished run not added.
    void runGivesCoresSchedule() {
        Document doc;
        doc.setGraph(readGraph(GraphOrigin::file(writeLayered(200))));
        doc.setMachine(abstractMachine(3));
        QSignalSpy added(&doc, &Document::resultAdded);
        const std::optional<RunRecord> run = runToEnd(doc, "list-cp");
        QVERIFY(run && run->result);
        const RunResult direct = OptimizerRegistry::instance().create("list-cp")->run(*doc.problem(), {}, {}, {});
        QVERIFY(sameBits(run->schedule().makespan, direct.schedule.makespan));
        QVERIFY(sameBits(run->result->cost, direct.cost));
        QVERIFY(deviceChains(run->schedule(), 3) == deviceChains(direct.schedule, 3));
        QCOMPARE(added.size(), 1);
        QCOMPARE(run->graphFingerprint, doc.graph()->fingerprint);
        QCOMPARE(doc.results()->rowCount(), 1);
        QCOMPARE(doc.results()->record(0).id, run->id);
    }

    // Cancel stops a run that would take hours: it ends cancelled, with its best so far. No
    // clock in the verdict: the budget (10^9 evaluations) is out of reach of any machine.
    void cancelStopsARun() {
        Document doc;
        doc.setGraph(readGraph(GraphOrigin::generated(QStringLiteral("layered"), 1000, 3)));
        doc.setMachine(abstractMachine(4));
        RunOptions options;
        options.budget = 1000000000;
        Runs runs(&doc);
        QSignalSpy finished(&runs, &Runs::finished);
        RunJob* job = runs.start(doc.problem(), QStringLiteral("brkga"), options);
        QSignalSpy progressed(job, &RunJob::progressed);
        QVERIFY(progressed.wait(60000));   // it is really running
        QCOMPARE(runs.active(), 1);
        QVERIFY(runs.watched() == job);
        runs.cancelAll();
        QVERIFY(finished.wait(60000));
        const RunRecord r = finished.takeFirst().at(1).value<RunRecord>();
        QVERIFY(r.result->cancelled);
        QVERIFY(r.result->evaluations < 1000000000);
        QCOMPARE(runs.active(), 0);
        QCOMPARE(doc.results()->rowCount(), 1);   // its best so far, kept
    }

    // A machine change re-times the schedule on show with its placement and order kept, as core's
    // retimeSchedule does; going back shows the original result again instead of a new copy.
    // Mutations caught: the re-timing made twice for a machine; the chains not kept; the shared
    // links not booked (the preset's links are shared).
    void machineChangeRetimesTheScheduleOnShow() {
        Document doc;
        doc.setGraph(readGraph(GraphOrigin::file(writeLayered(300))));
        doc.setMachine(abstractMachine(4));
        const RunRecord base = *runToEnd(doc, "list-cp");
        doc.show(base);
        QSignalSpy landed(&doc, &Document::shownRetimed);
        doc.setMachine(presetMachine("4x-l4-pcie4"));
        QVERIFY(retimingsSettled(doc));
        QCOMPARE(landed.size(), 1);
        const RetimedShow first = landed.takeFirst().at(0).value<RetimedShow>();
        QCOMPARE(first.ids.size(), 1);
        QCOMPARE(doc.results()->rowCount(), 2);
        const RunRecord& timed = doc.results()->record(doc.results()->rowOfId(first.ids.front()));
        QCOMPARE(timed.retimedFrom, base.id);
        QVERIFY(timed.problem->graph == doc.graph()->graph);
        QVERIFY(timed.problem->platform.topology.shared);
        QVERIFY(deviceChains(timed.schedule(), 4) == deviceChains(base.schedule(), 4));
        const Schedule core = retimeSchedule(*timed.problem, timed.schedule());
        QVERIFY(sameBits(timed.schedule().makespan, core.makespan));

        doc.show(timed);
        doc.setMachine(abstractMachine(4));
        QVERIFY(retimingsSettled(doc));
        QCOMPARE(landed.size(), 1);
        const RetimedShow back = landed.takeFirst().at(0).value<RetimedShow>();
        QCOMPARE(back.ids, QList<int>{base.id});   // made on this machine: shown again, not re-made
        QCOMPARE(doc.results()->rowCount(), 2);
    }

    // Two changes before the first re-timing lands: the links freed, then shared again. The times
    // stay (the same graph object), so only the ticket tells the first re-timing is stale: it is
    // dropped unadded, and the second shows the original again. Deterministic: both requests are
    // made before the event loop runs. Mutations caught: the ticket not checked, and a re-timing
    // that needs no worker not superseding one in flight (either adds a free-links record after).
    void theLatestOfTwoMachineChangesWins() {
        Document doc;
        doc.setGraph(readGraph(GraphOrigin::file(writeLayered(300))));
        const Machine shared = presetMachine("4x-l4-pcie4");
        QVERIFY(shared.platform.topology.shared);
        doc.setMachine(shared);
        const RunRecord base = *runToEnd(doc, "list-cp");
        doc.show(base);
        QSignalSpy landed(&doc, &Document::shownRetimed);
        Machine free = shared;
        free.platform.topology.shared = false;
        QVERIFY(!doc.setMachine(free));   // the same times
        QVERIFY(doc.retimingShown());
        doc.setMachine(shared);
        QVERIFY(retimingsSettled(doc));
        QCOMPARE(landed.size(), 1);
        QCOMPARE(landed.takeFirst().at(0).value<RetimedShow>().ids, QList<int>{base.id});
        QCOMPARE(doc.results()->rowCount(), 1);   // the free-links re-timing was never added

        LatestRequest requests;   // the helper itself: a ticket is stale once another is taken
        const LatestRequest::Ticket a = requests.next();
        const LatestRequest::Ticket b = requests.next();
        QVERIFY(!requests.isLatest(a) && requests.isLatest(b));
        requests.supersede();
        QVERIFY(!requests.isLatest(b));
    }

    // A hand edit makes "<name>, edited"; undo gives back the schedule before it, to the bit.
    // Mutation caught: undo not replaying the editor's history into the shown result.
    void anEditIsUndone() {
        Document doc;
        doc.setGraph(readGraph(GraphOrigin::file(writeLayered(60))));
        doc.setMachine(abstractMachine(3));
        const RunRecord base = *runToEnd(doc, "list-cp");
        doc.show(base);
        ScheduleEdits edits(&doc);
        connect(&edits, &ScheduleEdits::resultAdded, &doc, [&doc](const RunRecord& r) { doc.show(doc.addResult(r)); });
        connect(&edits, &ScheduleEdits::resultReplaced, &doc, [&doc](const RunRecord& r) { doc.show(r); });
        QVERIFY2(edits.refusal().isEmpty(), qPrintable(edits.refusal()));
        OpId moved = kNoOp;
        for (OpId v = 0; v < doc.graph()->graph->opCount() && moved == kNoOp; ++v) {
            const int to = (base.schedule().ops[static_cast<size_t>(v)].device + 1) % 3;
            if (edits.preview(v, {to, 0}).refusal.empty()) moved = v;
        }
        QVERIFY(moved != kNoOp);
        const int to = (base.schedule().ops[static_cast<size_t>(moved)].device + 1) % 3;
        QVERIFY(edits.commit(moved, {to, 0}).refusal.empty());
        QCOMPARE(doc.results()->rowCount(), 2);
        QVERIFY(doc.shown()->name.endsWith(QStringLiteral(", edited")));
        QCOMPARE(doc.shown()->schedule().ops[static_cast<size_t>(moved)].device, to);
        QVERIFY(edits.canUndo());
        edits.undo();
        const Schedule& undone = doc.shown()->schedule();
        for (std::size_t x = 0; x < undone.ops.size(); ++x) {
            QCOMPARE(undone.ops[x].device, base.schedule().ops[x].device);
            QVERIFY(sameBits(undone.ops[x].start, base.schedule().ops[x].start));
        }
        QCOMPARE(doc.results()->rowCount(), 2);
    }
};

SCHEDLAB_TEST_MAIN(document, TestDocument)
#include "tst_document.moc"
