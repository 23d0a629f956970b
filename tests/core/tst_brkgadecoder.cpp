// SPDX-License-Identifier: MIT
// The REGAL decoder and the order decoder on hand-checked chromosomes and on random graphs.
#include "common/testmain.h"
#include "core/brkga/decoderbasics.h"
#include "core/brkga/orderdecoder.h"
#include "core/brkga/regaldecoder.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/validator.h"
#include "core/generators/generators.h"
#include "core/util/random.h"
#include "common/reference.h"

#include <QtTest>

#include <set>

using namespace sl;

namespace {

/// The REGAL-model example of docs/costmodel.md ("Worked examples"): op1 -> t1(4) -> op2, op3;
/// op2 -> t2(2) -> op4; op3 -> t3(3) -> op4; op4 -> t4(1).
std::shared_ptr<Graph> workedExample() {
    auto g = std::make_shared<Graph>();
    const OpId o1 = g->addOp({.name = "op1", .duration = 1});
    const OpId o2 = g->addOp({.name = "op2", .duration = 2});
    const OpId o3 = g->addOp({.name = "op3", .duration = 3});
    const OpId o4 = g->addOp({.name = "op4", .duration = 1});
    const TensorId t1 = g->addTensor("t1", o1, 4);
    g->addConsumer(t1, o2);
    g->addConsumer(t1, o3);
    g->addConsumer(g->addTensor("t2", o2, 2), o4);
    g->addConsumer(g->addTensor("t3", o3, 3), o4);
    g->addTensor("t4", o4, 1);
    g->finalize();
    return g;
}

Problem makeProblem(std::shared_ptr<const Graph> g, int devices, Objective kind) {
    Problem p;
    p.graph = std::move(g);
    p.platform = Platform::identical(devices);
    p.objective.kind = kind;
    return p;
}

/// Keys that decode to the worked example's schedule op1, X(t1->1), op2, op3, X(t3->0), op4,
/// with op3 on device `op3Device` and the others on the other device.
std::vector<double> workedKeys(const RegalLayout& L, int op3Device) {
    std::vector<double> k(L.size(), 0.0);
    for (OpId v = 0; v < 4; ++v) {
        const int dev = v == 2 ? op3Device : 1 - op3Device;
        k[L.affinity(v, dev)] = 0.9;
        k[L.affinity(v, 1 - dev)] = 0.1;
    }
    k[L.priority(0)] = 0.9;
    k[L.priority(1)] = 0.6;
    k[L.priority(2)] = 0.5;
    k[L.priority(3)] = 0.1;
    k[L.transfer(0, op3Device)] = 0.8;       // t1 to op3's device: before op2
    k[L.transfer(2, 1 - op3Device)] = 0.5;   // t3 back
    return k;
}

/// Every op after its local producers or its transfer; every transfer after its producer; the
/// transfers are exactly those the placement implies.
void checkSequence(const Graph& g, std::span<const int> placement, std::span<const int> sequence,
                   std::span<const TransferStep> transfers) {
    const int n = g.opCount();
    std::vector<int> pos(static_cast<size_t>(n) + transfers.size(), -1);
    for (size_t i = 0; i < sequence.size(); ++i) {
        QVERIFY(pos[static_cast<size_t>(sequence[i])] < 0);
        pos[static_cast<size_t>(sequence[i])] = static_cast<int>(i);
    }
    for (int p : pos) QVERIFY(p >= 0);
    std::set<std::pair<int, int>> expected, got;
    for (OpId v = 0; v < n; ++v)
        for (TensorId t : g.inputs(v)) {
            const OpId prod = g.tensor(t).producer;
            const int src = placement[static_cast<size_t>(prod)], q = placement[static_cast<size_t>(v)];
            if (src == q) {
                QVERIFY(pos[static_cast<size_t>(prod)] < pos[static_cast<size_t>(v)]);
            } else {
                expected.insert({t, q});
                auto it = std::find_if(transfers.begin(), transfers.end(),
                                       [&](const TransferStep& x) { return x.tensor == t && x.device == q; });
                QVERIFY(it != transfers.end());
                const int x = n + static_cast<int>(it - transfers.begin());
                QVERIFY(pos[static_cast<size_t>(prod)] < pos[static_cast<size_t>(x)]);
                QVERIFY(pos[static_cast<size_t>(x)] < pos[static_cast<size_t>(v)]);
            }
        }
    for (const TransferStep& x : transfers) got.insert({x.tensor, x.device});
    QCOMPARE(got, expected);
    QCOMPARE(got.size(), transfers.size());
}

} // namespace

class TestBrkgaDecoder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layoutIndices() {
        const RegalLayout L{4, 4, 2};
        QCOMPARE(L.size(), size_t(4 * 3 + 4 * 2));
        QCOMPARE(L.affinity(3, 1), size_t(7));
        QCOMPARE(L.priority(0), size_t(8));
        QCOMPARE(L.transfer(0, 0), size_t(12));
        QCOMPARE(L.transfer(3, 1), size_t(19));
    }

    void workedExamplePeakMemory() {
        const Problem p = makeProblem(workedExample(), 2, Objective::Memory);
        RegalDecoder dec(p, /*symmetryBreaking=*/false);
        const double cost = dec.decode(workedKeys(dec.layout(), 1));
        QCOMPARE(std::vector<int>(dec.placement().begin(), dec.placement().end()), (std::vector<int>{0, 0, 1, 0}));
        QCOMPARE(dec.transfers().size(), size_t(2));
        QCOMPARE(dec.transfers()[0].tensor, 0);
        QCOMPARE(dec.transfers()[0].device, 1);
        QCOMPARE(dec.transfers()[1].tensor, 2);
        QCOMPARE(dec.transfers()[1].device, 0);
        QCOMPARE(std::vector<int>(dec.sequence().begin(), dec.sequence().end()), (std::vector<int>{0, 4, 1, 2, 5, 3}));
        QCOMPARE(std::vector<int>(dec.order().begin(), dec.order().end()), (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(cost, 7.0);
        QCOMPARE(dec.devicePeaks()[0], 6.0);   // op4's step: t2 + t3 + t4
        QCOMPARE(dec.devicePeaks()[1], 7.0);   // op3's step: t1 + t3
    }

    void workedExampleMakespan() {
        const Problem p = makeProblem(workedExample(), 2, Objective::Makespan);
        RegalDecoder dec(p, false);
        QCOMPARE(dec.decode(workedKeys(dec.layout(), 1)), 5.0);
        const Schedule s = dec.schedule(workedKeys(dec.layout(), 1));
        QCOMPARE(s.makespan, 5.0);
        QCOMPARE(s.ops[2].device, 1);
        QCOMPARE(s.ops[3].start, 4.0);
        QVERIFY(validateSchedule(p, s).ok());
        // One device: everything in sequence, 1 + 2 + 3 + 1.
        const Problem one = makeProblem(workedExample(), 1, Objective::Makespan);
        RegalDecoder dec1(one);
        std::vector<double> keys(dec1.layout().size(), 0.5);
        QCOMPARE(dec1.decode(keys), 7.0);
        QCOMPARE(dec1.transfers().size(), size_t(0));
    }

    void symmetryBreakingMirrorsTheExample() {
        // op3 has the largest memory (in 4 + out 3): fixed on device 0, so the mirrored keys decode
        // to the same schedule with the devices swapped and the same peak and makespan.
        const Problem p = makeProblem(workedExample(), 2, Objective::Memory);
        RegalDecoder dec(p);
        QCOMPARE(dec.symmetryOp(), OpId(2));
        const auto keys = workedKeys(dec.layout(), 0);
        QCOMPARE(dec.decode(keys), 7.0);
        QCOMPARE(std::vector<int>(dec.placement().begin(), dec.placement().end()), (std::vector<int>{1, 1, 0, 1}));
        // Keys asking for op3 on device 1 are overruled.
        dec.decode(workedKeys(dec.layout(), 1));
        QCOMPARE(dec.placement()[2], 0);
        const Problem ms = makeProblem(workedExample(), 2, Objective::Makespan);
        RegalDecoder decMs(ms);
        QCOMPARE(decMs.decode(keys), 5.0);
    }

    void priorityTiesAndDirection() {
        // Higher key first: op3 before op2 when its key is larger; transfers after equal-key ops.
        const Problem p = makeProblem(workedExample(), 2, Objective::Memory);
        RegalDecoder dec(p, false);
        auto keys = workedKeys(dec.layout(), 1);
        keys[dec.layout().priority(2)] = 0.7;
        keys[dec.layout().transfer(0, 1)] = 0.95;
        dec.decode(keys);
        QCOMPARE(std::vector<int>(dec.sequence().begin(), dec.sequence().end()), (std::vector<int>{0, 4, 2, 1, 5, 3}));
        std::vector<double> flat(dec.layout().size(), 0.5);   // all ties: ops by id, then transfers
        for (OpId v = 0; v < 4; ++v) flat[dec.layout().affinity(v, v == 2 ? 1 : 0)] = 0.6;
        dec.decode(flat);
        QCOMPARE(std::vector<int>(dec.sequence().begin(), dec.sequence().end()), (std::vector<int>{0, 1, 4, 2, 5, 3}));
    }

    void randomGraphsDecodeToValidSchedules_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("devices");
        QTest::addColumn<int>("objective");
        QTest::addColumn<int>("clock");
        QTest::addColumn<bool>("balanced");
        for (int d : {1, 2, 3})
            for (int obj : {0, 1, 2})
                for (int clock : {0, 1})
                    for (bool balanced : {false, true}) {
                        const char* placing = balanced ? "balanced" : "affinity";
                        QTest::addRow("layered d=%d obj=%d clock=%d %s", d, obj, clock, placing)
                            << QString("layered") << d << obj << clock << balanced;
                        QTest::addRow("erdos-renyi d=%d obj=%d clock=%d %s", d, obj, clock, placing)
                            << QString("erdos-renyi") << d << obj << clock << balanced;
                    }
    }
    // decode() is the cost BRKGA minimises; scoreSchedule() of the decoded schedule is the cost
    // every result reports and `evaluate` prints. They must agree to the bit, for every objective
    // and memory clock, and the memory clocks must agree with their definitions; with either
    // placement (the balanced one places otherwise, by the same rules for everything after).
    void randomGraphsDecodeToValidSchedules() {
        QFETCH(QString, family);
        QFETCH(int, devices);
        QFETCH(int, objective);
        QFETCH(int, clock);
        QFETCH(bool, balanced);
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            GeneratedInstance inst = generateInstance(family.toStdString(), 60, seed);
            Problem p;
            p.graph = inst.graph;
            p.platform = family == "layered" ? Platform::identical(devices) : inst.platform;
            p.objective.kind = static_cast<Objective>(objective);
            p.objective.memoryClock = static_cast<MemoryClock>(clock);
            RegalDecoder dec(p, true, balanced ? kMemoryPlacement : PlacementRule{});
            Rng rng(seed);
            for (int trial = 0; trial < 5; ++trial) {
                std::vector<double> keys(dec.layout().size());
                for (double& k : keys) k = rng.uniform();
                const double cost = dec.decode(keys);
                QVERIFY(std::isfinite(cost));
                checkSequence(*p.graph, dec.placement(), dec.sequence(), dec.transfers());
                if (QTest::currentTestFailed()) return;
                Schedule s = dec.schedule(keys);
                const ValidationReport r = validateSchedule(p, s);
                QVERIFY2(r.ok(), r.errors.empty() ? "" : r.errors.front().c_str());
                QVERIFY2(scoreSchedule(p, s) == cost, "decode() and scoreSchedule() disagree");
                if (p.objective.kind != Objective::Memory) QCOMPARE(s.makespan, dec.makespan());
                if (p.objective.kind == Objective::Memory) {
                    QCOMPARE(cost, dec.peakMemory());
                    if (trial == 0) {   // the definitions are slow: once per graph
                        QVERIFY(s.stepMemory.devices == reference::stepPeaks(p, s));
                        QVERIFY(s.timeMemory.devices == reference::timePeaks(p, s));
                    }
                }
            }
        }
    }

    void swappingDeviceLabelsKeepsPeakMemory() {
        GeneratedInstance inst = generateLayered(80, 5);
        Problem p = makeProblem(inst.graph, 2, Objective::Memory);
        RegalDecoder dec(p, false);
        Rng rng(9);
        for (int trial = 0; trial < 10; ++trial) {
            std::vector<double> keys(dec.layout().size());
            for (double& k : keys) k = rng.uniform();
            const double a = dec.decode(keys);
            auto swapped = keys;
            for (OpId v = 0; v < inst.graph->opCount(); ++v)
                std::swap(swapped[dec.layout().affinity(v, 0)], swapped[dec.layout().affinity(v, 1)]);
            for (TensorId t = 0; t < inst.graph->tensorCount(); ++t)
                std::swap(swapped[dec.layout().transfer(t, 0)], swapped[dec.layout().transfer(t, 1)]);
            QCOMPARE(dec.decode(swapped), a);
        }
    }

    void weightedObjectiveMixesBoth() {
        const Problem p = makeProblem(workedExample(), 2, Objective::Weighted);
        RegalDecoder dec(p, false);
        const double cost = dec.decode(workedKeys(dec.layout(), 1));
        const CostScales scales = costScales(p);
        QCOMPARE(scales.makespan, 5.0);    // critical path 1 + 3 + 1 above work 7 / 2
        QCOMPARE(scales.memory, 7.0);      // op3: input 4 + output 3
        QCOMPARE(cost, 0.5 * 5 / scales.makespan + 0.5 * 7 / scales.memory);
    }

    void capacityPenaltyMakesInfeasibleWorse() {
        Problem p = makeProblem(workedExample(), 2, Objective::Makespan);
        p.platform.devices[0].memoryCapacity = 6;
        p.platform.devices[1].memoryCapacity = 6;   // dev1 peaks at 7 in the example
        RegalDecoder dec(p, false);
        const double cost = dec.decode(workedKeys(dec.layout(), 1));
        QVERIFY(cost > p.graph->totalWork());
        QCOMPARE(dec.makespan(), 5.0);
    }

    void orderDecoderMatchesTheListScheduler() {
        GeneratedInstance inst = generateInstance("jobshop", 36, 3);
        Problem p;
        p.graph = inst.graph;
        p.platform = inst.platform;
        OrderDecoder dec(p);
        ListScheduler ls(p);
        const auto cp = brkga::criticalPathKeys(*p.graph);
        QCOMPARE(dec.decode(cp), ls.makespan(cp));
        for (double k : cp) QVERIFY(k >= 0 && k <= 1);
        QVERIFY(validateSchedule(p, dec.schedule(cp)).ok());
        // Memory objective: the step clock of the list schedule's start order with each transfer
        // just before its first consumer, on both clocks, as scoreSchedule and the definitions say.
        GeneratedInstance lay = generateLayered(70, 2);
        for (MemoryClock clock : {MemoryClock::Step, MemoryClock::Time}) {
            Problem pm = makeProblem(lay.graph, 2, Objective::Memory);
            pm.objective.memoryClock = clock;
            OrderDecoder dm(pm);
            const auto keys = brkga::criticalPathKeys(*lay.graph);
            const double peak = dm.decode(keys);
            Schedule s = dm.schedule(keys);
            QVERIFY(validateSchedule(pm, s).ok());
            QCOMPARE(s.peakMemory(), peak);
            const auto expected = clock == MemoryClock::Step ? reference::stepPeaks(pm, s) : reference::timePeaks(pm, s);
            QCOMPARE(peak, reference::maxOf(expected));
            QVERIFY(scoreSchedule(pm, s) == peak);
        }
    }
};

SCHEDLAB_TEST_MAIN(brkgadecoder, TestBrkgaDecoder)
#include "tst_brkgadecoder.moc"
