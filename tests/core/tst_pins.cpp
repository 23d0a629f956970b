// SPDX-License-Identifier: MIT
// Pins (core/costmodel/pins.h): every method that says it keeps them does on random problems (the
// validator checks), the others are refused naming those that can; the hand editor refuses what
// would break a pin; pins that no schedule can keep are refused; schedule files carry them under
// version 2. Each test names the mutation it catches.
#include "common/testmain.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/validator.h"
#include "core/edit/scheduleeditor.h"
#include "core/heuristics/classicoptimizers.h"
#include "core/io/scheduleio.h"
#include "core/optimizer/optimizer.h"
#include "common/reference.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace sl;

namespace {

/// Pins on a random problem: every fourth op to a device of its type, and on each device the
/// pinned ops of even index in a topological order ranked in that order (so some schedule keeps them).
Problem pinnedProblem(std::uint64_t seed) {
    Problem p = reference::randomCase(seed, 6, 24).problem;   // 1-3 devices, sometimes two machine types
    Rng rng(seed * 7 + 1);
    const auto byType = p.platform.devicesByType();
    std::map<int, int> nextRank;
    int i = 0;
    for (OpId v : p.g().topologicalOrder()) {
        if (i++ % 4) continue;
        const auto& devices = byType[static_cast<size_t>(p.g().op(v).machineType)];
        const int d = devices[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(devices.size()) - 1))];
        p.pins.pin(v, d, i % 8 == 1 ? nextRank[d]++ : -1);
    }
    return p;
}

} // namespace

class TestPins : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    // Every method registered as keeping pins keeps them on 40 random pinned problems (device and
    // ranked pins, typed machines, costly links): its schedule validates, pins included. Mutations
    // caught: the list scheduler ignoring a pinned device or a rank, tabu relocating a pinned op
    // or swapping two ranked ones, tabu starting from HEFT's pin-breaking schedule.
    void methodsThatAcceptPinsKeepThem() {
        int methods = 0;
        for (const OptimizerInfo& info : OptimizerRegistry::instance().list()) {
            if (!info.acceptsPins) continue;
            ++methods;
            for (std::uint64_t seed = 1; seed <= 40; ++seed) {
                const Problem p = pinnedProblem(seed);
                QVERIFY2(p.pins.count() > 0, "no pins");
                RunOptions o;
                o.seed = seed;
                o.budget = 400;
                const RunResult r = OptimizerRegistry::instance().create(info.name)->run(p, o, {}, {});
                const ValidationReport v = validateSchedule(p, r.schedule);
                QVERIFY2(v.ok(), qPrintable(QString("%1, seed %2: %3").arg(QString::fromStdString(info.name)).arg(seed)
                                                .arg(v.ok() ? QString() : QString::fromStdString(v.errors.front()))));
            }
        }
        QVERIFY(methods >= 4);   // list-cp, list-mopnr, list-spt, tabu
    }

    // A method that cannot keep pins is refused before it runs, naming those that can; without
    // pins nothing is refused. Mutation caught: a check that lets heft run on a pinned problem.
    void methodsThatCannotAreRefused() {
        const Problem p = pinnedProblem(3);
        try {
            checkPins(*OptimizerRegistry::instance().find("heft"), p);
            QFAIL("heft accepted pins");
        } catch (const std::invalid_argument& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("heft cannot keep pinned ops") != std::string::npos && m.find("list-cp") != std::string::npos &&
                         m.find("tabu") != std::string::npos,
                     e.what());
        }
        Problem free = p;
        free.pins = {};
        checkPins(*OptimizerRegistry::instance().find("heft"), free);
    }

    // The validator names a broken pin; the list scheduler keeps a ranked order that its priorities
    // alone would not (hand-made: b ranked before a on device 0, a has the higher priority).
    // Mutations caught: a validator blind to pins, a rank edge never released.
    void ranksOrderTheListScheduleAndTheValidatorChecksThem() {
        auto g = std::make_shared<Graph>();
        const OpId a = g->addOp({.name = "a", .duration = 5}), b = g->addOp({.name = "b", .duration = 1});
        g->finalize();
        Problem p{.graph = g, .platform = Platform::identical(2)};
        Schedule free = ListScheduler(p).schedule(std::vector<double>{2, 1});
        QVERIFY(free.ops[0].device != free.ops[1].device);   // unpinned: side by side
        p.pins.pin(b, 0, 0);
        p.pins.pin(a, 0, 1);
        Schedule pinned = ListScheduler(p).schedule(std::vector<double>{2, 1});
        scoreSchedule(p, pinned);
        QCOMPARE(pinned.ops[1].start, 0.0);
        QCOMPARE(pinned.ops[0].start, 1.0);   // a after b on device 0
        QVERIFY(validateSchedule(p, pinned).ok());
        scoreSchedule(p, free);
        const ValidationReport v = validateSchedule(p, free);
        QVERIFY(!v.ok());
        QVERIFY2(v.errors.front().find("pinned") != std::string::npos, v.errors.front().c_str());
    }

    // Pins no schedule can keep are refused by Problem::check, naming the op: another machine
    // type, a missing device, two ops at one rank, ranks against the graph's precedence.
    void impossiblePinsAreRefused() {
        auto g = std::make_shared<Graph>();
        const OpId a = g->addOp({.name = "a", .duration = 1}), b = g->addOp({.name = "b", .duration = 1});
        g->addEdge(a, b, 1);
        g->finalize();
        const auto refused = [&](auto pinIt, const char* says) {
            Problem p{.graph = g, .platform = Platform::identical(2)};
            pinIt(p.pins);
            try {
                p.check();
                QFAIL(says);
            } catch (const GraphError& e) {
                QVERIFY2(std::string(e.what()).find(says) != std::string::npos, e.what());
            }
        };
        refused([&](Pins& x) { x.pin(a, 5); }, "does not exist");
        refused([&](Pins& x) { x.pin(a, 0, 0), x.pin(b, 0, 0); }, "both pinned at place 0");
        refused([&](Pins& x) { x.pin(b, 1, 0), x.pin(a, 1, 1); }, "contradicts the graph");
    }

    // The hand editor refuses to move a pinned op off its device or ranked ops out of order, and
    // moves the free ones. Mutation caught: an editor that ignores the pins.
    void theEditorKeepsPins() {
        const Problem base = pinnedProblem(4);
        auto p = std::make_shared<Problem>(base);
        ScheduleEditor edit(p, bestClassicSchedule(*p));
        OpId pinned = kNoOp;
        for (OpId v = 0; v < p->g().opCount() && pinned == kNoOp; ++v)
            if (p->pins.pinned(v)) pinned = v;
        const int elsewhere = (p->pins.of(pinned).device + 1) % p->platform.deviceCount();
        const EditOutcome o = edit.move(pinned, {elsewhere, 0});
        QVERIFY(!o.allowed());
        QVERIFY(edit.editCount() == 0);
        int allowed = 0;
        Rng rng(9);
        for (int i = 0; i < 200; ++i) {
            const auto v = static_cast<OpId>(rng.integer(0, p->g().opCount() - 1));
            const int d = static_cast<int>(rng.integer(0, p->platform.deviceCount() - 1));
            const int at = static_cast<int>(rng.integer(0, static_cast<std::int64_t>(edit.chains()[static_cast<size_t>(d)].size())));
            if (edit.move(v, {d, at}).allowed()) ++allowed;
            QVERIFY(pinViolation(p->g(), p->pins, edit.schedule()).empty());
        }
        QVERIFY(allowed > 10);
    }

    // Schedule files carry the pins: written with version 2 only when there are pins, read back
    // equal; a file without pins stays version 1 (older readers read it). Mutation caught: pins
    // dropped on writing, or the version not raised (an older reader would drop them silently).
    void scheduleFilesCarryPins() {
        const Problem p = pinnedProblem(5);
        const Schedule s = bestClassicSchedule(p);
        const std::string text = scheduleToJson(p, s);
        QCOMPARE(nlohmann::json::parse(text)["version"].get<int>(), 2);
        QVERIFY(parseSchedulePins(p, text, "pinned.json") == p.pins);
        Problem free = p;
        free.pins = {};
        const std::string plain = scheduleToJson(free, s);
        QCOMPARE(nlohmann::json::parse(plain)["version"].get<int>(), 1);
        QVERIFY(parseSchedulePins(free, plain, "plain.json").empty());
    }
};

SCHEDLAB_TEST_MAIN(pins, TestPins)
#include "tst_pins.moc"
