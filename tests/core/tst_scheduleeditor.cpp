// SPDX-License-Identifier: MIT
// Hand edits of a schedule (core/edit/scheduleeditor.h): a hand-checked move, each refusal with
// nothing changed, every allowed edit scored as evaluate scores its saved file, undo to the start
// exactly and redo. Each test names the mutation it catches.
#include "common/bits.h"
#include "common/testmain.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/edit/scheduleeditor.h"
#include "core/heuristics/classicoptimizers.h"
#include "core/io/scheduleio.h"
#include "core/brkga/chaindecoder.h"
#include "core/optimizer/optimizer.h"
#include "common/reference.h"

#include <QTest>

#include <bit>

using namespace sl;

namespace {


/// Same placement, times, order (unless `anyOrder`) and costs, bit for bit.
QString difference(const Schedule& a, const Schedule& b, bool anyOrder = false) {
    if (a.ops.size() != b.ops.size()) return "op counts differ";
    for (std::size_t v = 0; v < a.ops.size(); ++v)
        if (a.ops[v].device != b.ops[v].device || !sameBits(a.ops[v].start, b.ops[v].start) || !sameBits(a.ops[v].end, b.ops[v].end))
            return QString("op %1 differs").arg(v);
    if (anyOrder) return sameBits(a.makespan, b.makespan) ? QString() : "makespans differ";
    if (a.order != b.order) return "orders differ";
    if (!sameBits(a.makespan, b.makespan) || !sameBits(a.peakMemory(), b.peakMemory())) return "costs differ";
    return {};
}

/// a -> b (4 bytes), c alone; durations a 2, b 3, c 5; two devices, transfers 1 + bytes / 4.
std::shared_ptr<Problem> twoDevices() {
    auto g = std::make_shared<Graph>();
    const OpId a = g->addOp({.name = "a", .duration = 2}), b = g->addOp({.name = "b", .duration = 3});
    g->addOp({.name = "c", .duration = 5});
    g->addEdge(a, b, 4);
    g->finalize();
    auto p = std::make_shared<Problem>();
    p->graph = g;
    p->platform = Platform::identical(2);
    p->platform.link = {.latency = 1, .bandwidth = 4};
    return p;
}

/// a, b on device 0 at [0,2], [2,5]; c on device 1 at [0,5].
Schedule handSchedule(const Problem& p) {
    Schedule s = timeChains(p, {{0, 1}, {2}});
    scoreSchedule(p, s);
    return s;
}

/// `s` with its last-ending op started one time unit later: still valid, but not the times its
/// chains give (a method's schedule need not start every op as early as it could).
Schedule delayedLastOp(const Problem& p, Schedule s) {
    std::size_t last = 0;
    for (std::size_t v = 0; v < s.ops.size(); ++v)
        if (s.ops[v].end >= s.ops[last].end) last = v;
    s.ops[last].start += 1;
    s.ops[last].end += 1;
    scoreSchedule(p, s);
    return s;
}

} // namespace

class TestScheduleEditor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Moving b to device 1 after c: b waits for c (ends 5) and for a's tensor (2 + 1 + 4/4 = 4),
    // so it runs [5, 8]; makespan 8. Catches a retime that ignores the transfer or the chain.
    void aMoveIsTimedByHand() {
        const auto p = twoDevices();
        ScheduleEditor edit(p, handSchedule(*p));
        QCOMPARE(edit.schedule().makespan, 5.0);
        const EditOutcome preview = edit.preview(1, {.device = 1, .position = 1});
        QVERIFY2(preview.allowed(), preview.refusal.c_str());
        QCOMPARE(preview.schedule.ops[1].start, 5.0);
        QCOMPARE(preview.schedule.makespan, 8.0);
        QCOMPARE(edit.schedule().makespan, 5.0);   // a preview changes nothing
        // Before c instead: b waits only for a's tensor, [4, 7], and c follows it, [7, 12].
        const EditOutcome before = edit.move(1, {.device = 1, .position = 0});
        QCOMPARE(before.schedule.ops[1].start, 4.0);
        QCOMPARE(before.schedule.ops[2].start, 7.0);
        QCOMPARE(edit.schedule().makespan, 12.0);
        QCOMPARE(edit.placeOf(1), (OpPlace{1, 0}));
    }

    // Each refusal says why and leaves the schedule as it was. Catches a missing check (the
    // move would be made) and a check that runs after the chains changed.
    void refusalsSayWhyAndChangeNothing() {
        const auto p = twoDevices();
        ScheduleEditor edit(p, handSchedule(*p));
        // a cycle: b before a on device 0, while b reads a's output
        const EditOutcome cycle = edit.move(1, {.device = 0, .position = 0});
        QVERIFY(!cycle.allowed());
        QVERIFY2(cycle.refusal.find("precedence") != std::string::npos, cycle.refusal.c_str());
        // machine type
        auto typed = std::make_shared<Problem>(*p);
        typed->platform.devices[1].machineType = 1;
        ScheduleEditor typedEdit(typed, timeChains(*typed, {{0, 1, 2}, {}}));
        const EditOutcome wrongType = typedEdit.move(2, {.device = 1, .position = 0});
        QVERIFY2(wrongType.refusal.find("machine type") != std::string::npos, wrongType.refusal.c_str());
        // a memory capacity newly exceeded: c alone on device 1 holds nothing; b's input would arrive
        auto capped = std::make_shared<Problem>(*p);
        capped->platform.devices[1].memoryCapacity = 2;
        ScheduleEditor cappedEdit(capped, handSchedule(*capped));
        const EditOutcome over = cappedEdit.move(1, {.device = 1, .position = 1});
        QVERIFY2(over.refusal.find("capacity") != std::string::npos, over.refusal.c_str());
        for (const ScheduleEditor* e : {&edit, &typedEdit, &cappedEdit}) {
            QVERIFY(!e->canUndo());
            QVERIFY(e->editCount() == 0);
        }
        QVERIFY(difference(edit.schedule(), handSchedule(*p)).isEmpty());
        QVERIFY(difference(cappedEdit.schedule(), handSchedule(*capped)).isEmpty());
    }

    // On 60 random problems, 12 random edits each: every allowed one is valid and costs what
    // scoring its saved file costs, to the bit; undoing them all gives the start exactly and
    // redoing them all the last schedule exactly. Catches an editor that scores its own way, an
    // undo that replays from retimed chains (a list schedule's times are not always the chains'),
    // and a redo that skips an edit.
    void randomEditsScoreLikeTheirFilesAndUndoExactly() {
        int allowed = 0;
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
            auto p = std::make_shared<Problem>(reference::randomCase(seed, 4, 20).problem);
            p->objective.kind = seed % 2 ? Objective::Makespan : Objective::Memory;
            const Schedule start = delayedLastOp(*p, bestClassicSchedule(*p));
            ScheduleEditor edit(p, start);
            Rng rng(seed);
            for (int i = 0; i < 12; ++i) {
                const auto v = static_cast<OpId>(rng.integer(0, p->g().opCount() - 1));
                const int d = static_cast<int>(rng.integer(0, p->platform.deviceCount() - 1));
                const int pos = static_cast<int>(rng.integer(0, static_cast<std::int64_t>(edit.chains()[static_cast<size_t>(d)].size())));
                const EditOutcome o = edit.move(v, {d, pos});
                if (!o.allowed()) continue;
                ++allowed;
                const ValidationReport report = validateSchedule(*p, edit.schedule());
                QVERIFY2(report.ok(), report.ok() ? "" : report.errors.front().c_str());
                Schedule reread = parseScheduleJson(*p, scheduleToJson(*p, edit.schedule()), "edited.json");
                const double cost = scoreSchedule(*p, reread);
                QVERIFY2(sameBits(cost, edit.cost()), qPrintable(QString("seed %1: %2 against %3").arg(seed).arg(cost).arg(edit.cost())));
            }
            const Schedule last = edit.schedule();
            const std::size_t edits = edit.editCount();
            while (edit.canUndo()) edit.undo();
            QVERIFY2(difference(edit.schedule(), start).isEmpty(), qPrintable(QString("seed %1: undo: %2").arg(seed).arg(difference(edit.schedule(), start))));
            while (edit.canRedo()) edit.redo();
            QCOMPARE(edit.editCount(), edits);
            QVERIFY2(difference(edit.schedule(), last).isEmpty(), qPrintable(QString("seed %1: redo").arg(seed)));
        }
        QVERIFY2(allowed > 200, qPrintable(QString("only %1 edits were allowed").arg(allowed)));
    }

    // The keyboard's places: one earlier or later on the device, the neighbouring device where
    // the op's start falls. Catches an off-by-one at either end.
    void keyboardPlaces() {
        const auto p = twoDevices();
        ScheduleEditor edit(p, handSchedule(*p));
        QVERIFY(!edit.earlier(0).has_value());
        QCOMPARE(*edit.later(0), (OpPlace{0, 1}));
        QVERIFY(!edit.later(1).has_value());
        QCOMPARE(*edit.onDevice(1, +1), (OpPlace{1, 1}));   // b starts at 2, after c's start 0
        QVERIFY(!edit.onDevice(1, -1).has_value());
    }

    // A schedule as brkga-chains keys decodes to its own chains, timed as early as they allow.
    // Catches keys that rank ops by id instead of start, or a device key off by one slot.
    void chainKeysDecodeToTheScheduleChains() {
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const Problem p = reference::randomCase(seed, 4, 20).problem;
            const Schedule start = delayedLastOp(p, bestClassicSchedule(p));
            ChainDecoder decoder(p);
            const Schedule decoded = decoder.schedule(chainKeysOf(p, start));
            Schedule expected = timeChains(p, deviceChains(start, p.platform.deviceCount()));
            scoreSchedule(p, expected);
            // the same placement and times (the order of ops that start together may differ)
            QVERIFY2(difference(decoded, expected, true).isEmpty(), qPrintable(QString("seed %1: %2").arg(seed).arg(difference(decoded, expected, true))));
        }
    }

    // Improve from here: tabu and brkga-chains started from a poor schedule (every op on one
    // device of its type, in a topological order) and from a good one (a long tabu run's, better
    // than every classic schedule) never return a costlier one, and from the poor one mostly a
    // cheaper one; a method that cannot start from a schedule is refused, naming those that can.
    // Catches a method that ignores the start (from the good start it returns a classic-like
    // cost) and one that drops the start when the search finds nothing better.
    void warmStartsAreNeverWorseThanTheirStart() {
        registerCoreOptimizers();
        const auto run = [](const Problem& p, const char* method, std::int64_t budget, std::uint64_t seed, const Schedule* start) {
            RunOptions o;
            o.seed = seed;
            o.budget = budget;
            if (start) o.start = std::make_shared<Schedule>(*start);
            checkStart(*OptimizerRegistry::instance().find(method), o);
            return OptimizerRegistry::instance().create(method)->run(p, o, {}, {});
        };
        int improved = 0, runs = 0, goodStarts = 0;
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            const Problem p = reference::randomCase(seed, 6, 20).problem;
            DeviceChains chains(static_cast<size_t>(p.platform.deviceCount()));
            const auto byType = p.platform.devicesByType();
            for (OpId v : p.g().topologicalOrder()) chains[static_cast<size_t>(byType[static_cast<size_t>(p.g().op(v).machineType)].front())].push_back(v);
            Schedule poor = timeChains(p, chains);
            scoreSchedule(p, poor);
            const RunResult good = run(p, "tabu", 20000, seed, nullptr);
            Schedule classic = bestClassicSchedule(p);
            goodStarts += good.cost < scoreSchedule(p, classic);
            for (const Schedule* start : {static_cast<const Schedule*>(&poor), &good.schedule}) {
                Schedule scored = *start;
                const double startCost = scoreSchedule(p, scored);
                for (const char* method : {"tabu", "brkga-chains"}) {
                    const RunResult r = run(p, method, start == &poor ? 300 : 20, seed, start);
                    QVERIFY2(r.cost <= startCost, qPrintable(QString("%1, seed %2: %3 above the start's %4").arg(method).arg(seed).arg(r.cost).arg(startCost)));
                    QVERIFY(validateSchedule(p, r.schedule).ok());
                    if (start == &poor) ++runs, improved += r.cost < startCost;
                }
            }
        }
        QVERIFY2(goodStarts > 0, "no long tabu run beat the classic schedules: the good starts test nothing");
        QVERIFY2(improved * 2 > runs, qPrintable(QString("improved %1 of %2").arg(improved).arg(runs)));
        RunOptions o;
        o.start = std::make_shared<Schedule>();
        try {
            checkStart(*OptimizerRegistry::instance().find("list-cp"), o);
            QFAIL("list-cp accepted a start schedule");
        } catch (const std::invalid_argument& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("tabu") != std::string::npos && m.find("brkga-chains") != std::string::npos, e.what());
        }
    }

    // A schedule that runs two ops at once on a device is refused with both names.
    void overlappingSchedulesAreNotEditable() {
        const auto p = twoDevices();
        Schedule s = handSchedule(*p);
        s.ops[2] = {0, 0, 5};   // c on device 0 beside a
        try {
            ScheduleEditor edit(p, s);
            QFAIL("accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("at once") != std::string::npos, e.what());
        }
    }
};

SCHEDLAB_TEST_MAIN(scheduleeditor, TestScheduleEditor)
#include "tst_scheduleeditor.moc"
