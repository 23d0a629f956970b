// SPDX-License-Identifier: MIT
// The cost model on hand-checked cases: REGAL's model (Paliwal et al. 2020, §3.1) and Topoformer's
// (Gagrani et al. 2022, §3.2), on the examples of docs/costmodel.md, "Worked examples".
#include "common/testmain.h"
#include "core/costmodel/inputedges.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/stepmemory.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/memorytimeline.h"
#include "core/costmodel/validator.h"
#include "core/heuristics/evaluate.h"
#include "core/heuristics/randomsearch.h"
#include "common/reference.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace sl;

class TestCostModel : public QObject {
    Q_OBJECT

    // op1 -> t1(4) -> op2, op3; op2 -> t2(2) -> op4; op3 -> t3(3) -> op4; op4 -> t4(1).
    static std::shared_ptr<Graph> regalExample() {
        auto g = std::make_shared<Graph>();
        const double c[] = {1, 2, 3, 1};
        for (int i = 0; i < 4; ++i) g->addOp({.name = "op" + std::to_string(i + 1), .duration = c[i]});
        auto t1 = g->addTensor("t1", 0, 4);
        g->addConsumer(t1, 1);
        g->addConsumer(t1, 2);
        auto t2 = g->addTensor("t2", 1, 2);
        g->addConsumer(t2, 3);
        auto t3 = g->addTensor("t3", 2, 3);
        g->addConsumer(t3, 3);
        g->addTensor("t4", 3, 1);
        g->finalize();
        return g;
    }

private Q_SLOTS:
    void regalWorkedExamplePeakMemory() {
        auto g = regalExample();
        StepMemory mem(*g, 2);
        const std::vector<int> placement{0, 0, 1, 0};
        // op1, X1 = (t1 -> dev2), op2, op3, X2 = (t3 -> dev1), op4
        const std::vector<TransferStep> xs{{0, 1}, {2, 0}};
        const std::vector<int> seq{0, 4, 1, 2, 5, 3};
        std::vector<double> peaks;
        QCOMPARE(mem.peak(placement, seq, xs, &peaks), 7.0);
        QCOMPARE(peaks[0], 6.0);
        QCOMPARE(peaks[1], 7.0);
        // insertTransfers puts each transfer just before its first consumer: same peak here.
        std::vector<int> seq2;
        std::vector<TransferStep> xs2;
        const std::vector<OpId> order{0, 1, 2, 3};
        insertTransfers(*g, placement, order, seq2, xs2);
        QCOMPARE(xs2.size(), size_t(2));
        QCOMPARE(mem.peak(placement, seq2, xs2), 7.0);
    }

    void regalWorkedExampleMakespan() {
        auto g = regalExample();
        Problem p{g, Platform::identical(2), {}};
        ListScheduler ls(p);
        const std::vector<double> prio{4, 3, 2, 1};
        const std::vector<int> placement{0, 0, 1, 0};
        QCOMPARE(ls.makespan(prio, placement), 5.0);
        Problem one{g, Platform::identical(1), {}};
        ListScheduler ls1(one);
        QCOMPARE(ls1.makespan(prio), 7.0);
        const Schedule s = ls.schedule(prio, placement);
        const ValidationReport r = validateSchedule(p, s);
        QVERIFY2(r.ok(), r.errors.empty() ? "" : r.errors.front().c_str());
        Schedule scored = s;
        scoreSchedule(p, scored);
        QCOMPARE(scored.makespan, 5.0);
        QCOMPARE(s.transfers.size(), size_t(2));
        // Time clock by hand: dev0 holds t1 [0,3), t2 [1,5), the t3 copy [4,5), t4 [4,5]: 6 at 1;
        // dev1 holds the t1 copy [1,4) and t3 [1,4): 7.
        QCOMPARE(scored.timeMemory.devices, (std::vector<double>{6, 7}));
    }

    // a (1 unit) -t:5-> b (0 units, 4 parameter bytes) -u:3-> c (1 unit), one device.
    // Step clock: a 5; b t + u + 4 = 12; c 3. Time clock: at 0 t = 5; at 1 t is freed (b ends) and
    // u is allocated, and b's parameters count at their zero-length instant: 3 + 4 = 7.
    void clocksDifferOnZeroDurationOps() {
        auto g = std::make_shared<Graph>();
        g->addOp({.name = "a", .duration = 1});
        g->addOp({.name = "b", .duration = 0, .paramBytes = 4});
        g->addOp({.name = "c", .duration = 1});
        g->addEdge(0, 1, 5);
        g->addEdge(1, 2, 3);
        g->finalize();
        Problem p{g, Platform::identical(1), {.kind = Objective::Memory}};
        PriorityEvaluator ev(p);
        const std::vector<double> prio{3, 2, 1};
        Schedule s = ev.schedule(prio);
        QCOMPARE(s.stepMemory.peak, 12.0);
        QCOMPARE(s.timeMemory.peak, 7.0);
        QCOMPARE(ev.cost(prio), 12.0);   // the default clock is the step clock
        p.objective.memoryClock = MemoryClock::Time;
        PriorityEvaluator timed(p);
        QCOMPARE(timed.cost(prio), 7.0);
        QCOMPARE(scoreSchedule(p, s), 7.0);
    }

    // a and c on dev0, b on dev1; link latency 2. a [0,1] sends t (6 bytes) to b [3,4]; c [1,2]
    // makes 2 bytes nobody reads. The source copy of t stays until the transfer ends at 3, so
    // dev0 holds 6 + 2 = 8 at time 1 (freeing it at a's end would give 6).
    void aTransferHoldsItsSourceUntilItEnds() {
        auto g = std::make_shared<Graph>();
        g->addOp({.name = "a", .duration = 1});
        g->addOp({.name = "b", .duration = 1});
        g->addOp({.name = "c", .duration = 1});
        g->addEdge(0, 1, 6);
        g->addTensor("c:0", 2, 2);
        g->finalize();
        Problem p{g, Platform::identical(2), {.kind = Objective::Memory, .memoryClock = MemoryClock::Time}};
        p.platform.link.latency = 2;
        PriorityEvaluator ev(p);
        const std::vector<double> prio{3, 1, 2};
        const std::vector<int> placement{0, 1, 0};
        const double cost = ev.cost(prio, placement);
        Schedule s = ev.schedule(prio, placement);
        QCOMPARE(s.ops[1].start, 3.0);
        QCOMPARE(s.timeMemory.devices, (std::vector<double>{8, 6}));
        QCOMPARE(cost, 8.0);
        QCOMPARE(computeMemoryTimeline(p, s).peaks, (std::vector<double>{8, 6}));
    }

    // The time clock's one-sweep implementation (TimeMemory), the curves the memory view draws
    // (computeMemoryTimeline) and the definition (tests/common/reference.h) agree on random
    // graphs, platforms, links and zero-duration ops; so do the step clock and its definition.
    void clocksMatchTheirDefinitions() {
        for (std::uint64_t seed = 1; seed <= 300; ++seed) {
            reference::Case c = reference::randomCase(seed);
            const Problem& p = c.problem;
            PriorityEvaluator ev(p);
            Rng rng(seed);
            std::vector<double> prio(static_cast<size_t>(p.g().opCount()));
            for (double& x : prio) x = rng.uniform();
            const Schedule s = ev.schedule(prio);
            const auto time = reference::timePeaks(p, s);
            QVERIFY2(s.timeMemory.devices == time, qPrintable(QString("case %1: time clock").arg(seed)));
            QVERIFY2(computeMemoryTimeline(p, s).peaks == time, qPrintable(QString("case %1: curves").arg(seed)));
            QVERIFY2(s.stepMemory.devices == reference::stepPeaks(p, s), qPrintable(QString("case %1: step clock").arg(seed)));
        }
    }

    // The same on wider platforms, where TimeMemory and StepMemory run 4, 8 and generic device
    // lanes (randomCase stops at 3 devices), with free and costly links. Catches a lane width that
    // drops a device, padding lanes read as devices, and a release summed into the wrong lane.
    void clocksMatchTheirDefinitionsOnWidePlatforms() {
        int checked = 0;
        for (std::uint64_t seed = 1; seed <= 120; ++seed) {
            reference::Case c = reference::randomCase(seed, 2, 30);
            const Graph& g = c.problem.g();
            if (std::any_of(g.ops().begin(), g.ops().end(), [](const Op& o) { return o.machineType != 0; })) continue;
            for (int devices : {4, 5, 8, 9, 17}) {
                Problem p = c.problem;
                const Interconnect link = p.platform.link;
                p.platform = Platform::identical(devices);
                p.platform.link = link;
                Rng rng(seed * 7 + static_cast<std::uint64_t>(devices));
                std::vector<double> prio(static_cast<size_t>(g.opCount()));
                for (double& x : prio) x = rng.uniform();
                for (MemoryClock clock : {MemoryClock::Step, MemoryClock::Time}) {
                    p.objective.kind = Objective::Memory;
                    p.objective.memoryClock = clock;
                    PriorityEvaluator ev(p);
                    const double inner = ev.cost(prio);
                    Schedule s = ev.schedule(prio);
                    const QString where = QString("case %1, %2 devices").arg(seed).arg(devices);
                    QVERIFY2(s.timeMemory.devices == reference::timePeaks(p, s), qPrintable(where + ": time clock"));
                    QVERIFY2(s.stepMemory.devices == reference::stepPeaks(p, s), qPrintable(where + ": step clock"));
                    QVERIFY2(inner == scoreSchedule(p, s), qPrintable(where + ": inner loop"));
                    ++checked;
                }
            }
        }
        QVERIFY(checked > 500);
    }

    // An optimizer's inner loop (PriorityEvaluator::cost: no Schedule built, fused memory walks)
    // must score exactly what the finished schedule scores, for every objective and clock.
    // Catches any drift between StepMemory::peakOfOrder / TimeMemory and scoreSchedule's walks.
    void innerLoopCostEqualsTheScore() {
        for (std::uint64_t seed = 1; seed <= 200; ++seed) {
            reference::Case c = reference::randomCase(seed);
            Problem p = c.problem;
            Rng rng(seed);
            std::vector<double> prio(static_cast<size_t>(p.g().opCount()));
            for (double& x : prio) x = rng.uniform();
            for (Objective kind : {Objective::Makespan, Objective::Memory, Objective::Weighted})
                for (MemoryClock clock : {MemoryClock::Step, MemoryClock::Time}) {
                    p.objective.kind = kind;
                    p.objective.memoryClock = clock;
                    PriorityEvaluator ev(p);
                    const double inner = ev.cost(prio);
                    Schedule s = ev.schedule(prio);
                    QVERIFY2(inner == scoreSchedule(p, s),
                             qPrintable(QString("case %1, %2, %3 clock").arg(seed).arg(toString(kind).c_str()).arg(toString(clock).c_str())));
                }
        }
    }

    // peakOfOrder (first/last consumer steps, per-step amounts, device lanes) against the
    // counter walk over insertTransfers' explicit sequence, an independent implementation, on
    // device counts that exercise every lane width (1, 2, 4, 8 and the generic path) and with
    // keepOutputs both ways. Catches a transfer counted at the wrong step, a source copy released
    // before its last copy out, padding lanes that leak into the peaks, and a kept output freed.
    void stepPeakOfOrderEqualsTheCounterWalk() {
        for (std::uint64_t seed = 1; seed <= 150; ++seed) {
            reference::Case c = reference::randomCase(seed, 2, 30);
            const Graph& g = c.problem.g();
            Rng rng(seed * 31);
            for (int devices : {1, 2, 3, 5, 8, 9, 17}) {
                std::vector<int> placement(static_cast<size_t>(g.opCount()));
                for (int& d : placement) d = static_cast<int>(rng.integer(0, devices - 1));
                const std::vector<OpId> order = randomTopologicalOrder(g, rng);
                std::vector<int> sequence;
                std::vector<TransferStep> transfers;
                insertTransfers(g, placement, order, sequence, transfers);
                for (bool keep : {false, true}) {
                    StepMemory fast(g, devices), counter(g, devices);
                    fast.keepOutputs = counter.keepOutputs = keep;
                    std::vector<double> fastPeaks, counterPeaks;
                    const double a = fast.peakOfOrder(placement, order, &fastPeaks);
                    const double b = counter.peak(placement, sequence, transfers, &counterPeaks);
                    QVERIFY2(a == b && fastPeaks == counterPeaks,
                             qPrintable(QString("case %1, %2 devices, keep %3: %4 vs %5").arg(seed).arg(devices).arg(keep).arg(a).arg(b)));
                    if (devices == 1) QCOMPARE(fast.peakOfOrder(placement, order), counter.peak(order));
                }
            }
        }
    }

    // The memory clocks' edge order: every input entry once, each tensor at most once per round,
    // rounds in order. The hostile half is a star (one tensor read by 100,000 ops, each of which
    // has a tensor of its own): a round-by-round scan over all tensors is quadratic there (10^10
    // steps, a hang); the counting sort is linear.
    void inputEdgesComeInRounds() {
        for (std::uint64_t seed = 1; seed <= 50; ++seed) {
            const reference::Case c = reference::randomCase(seed, 2, 30);
            const Graph& g = c.problem.g();
            const InputEdges edges = inputEdgesInRounds(g, 2);
            std::vector<std::pair<std::int64_t, OpId>> got, want;
            for (size_t e = 0; e < edges.op.size(); ++e) got.push_back({edges.slot[e] >> 2, edges.op[e]});
            for (OpId v = 0; v < g.opCount(); ++v)
                for (TensorId t : g.inputs(v)) want.push_back({t, v});
            // Rounds: a tensor's k-th entry comes after every tensor's (k-1)-th.
            std::vector<int> roundOf(static_cast<size_t>(g.tensorCount()), 0);
            int lastRound = 0;
            for (const auto& [t, v] : got) {
                const int r = roundOf[static_cast<size_t>(t)]++;
                QVERIFY(r >= lastRound);
                lastRound = r;
            }
            std::sort(got.begin(), got.end());
            std::sort(want.begin(), want.end());
            QVERIFY(got == want);
        }
        Graph star;
        const int n = 100'000;
        for (int v = 0; v < n; ++v) star.addOp({.name = "op" + std::to_string(v), .duration = 1});
        const TensorId shared = star.addTensor("shared", 0, 1);
        for (int v = 1; v < n; ++v) {
            star.addConsumer(shared, v);
            star.addTensor("own" + std::to_string(v), v, 1);
        }
        star.finalize();
        const InputEdges edges = inputEdgesInRounds(star, 0);
        QCOMPARE(edges.op.size(), size_t(n - 1));
        QCOMPARE(edges.op.back(), OpId(n - 1));
    }

    // StepMemory::peak over an explicit sequence, with each transfer at a random step between its
    // producer and its first consumer on the destination (REGAL's chromosome orders transfers so),
    // against reference::stepPeaks, the brute-force definition. Catches a copy allocated at its
    // first consumer instead of its own step, a source released before its last transfer out, and
    // ops and transfers confused in the per-step lanes.
    void stepPeakOfAnExplicitSequenceMatchesTheDefinition() {
        for (std::uint64_t seed = 1; seed <= 150; ++seed) {
            reference::Case c = reference::randomCase(seed, 2, 18);
            const Graph& g = c.problem.g();
            if (std::any_of(g.ops().begin(), g.ops().end(), [](const Op& o) { return o.machineType != 0; })) continue;
            Rng rng(seed * 13);
            for (int devices : {2, 3, 5, 9}) {
                Problem p = c.problem;
                p.platform = Platform::identical(devices);
                Schedule s;
                s.ops.resize(static_cast<size_t>(g.opCount()));
                std::vector<int> placement(s.ops.size());
                for (size_t v = 0; v < s.ops.size(); ++v) s.ops[v].device = placement[v] = static_cast<int>(rng.integer(0, devices - 1));
                s.order = randomTopologicalOrder(g, rng);
                // Each needed copy (t, q) goes at a random position after its producer and up to
                // its first consumer on q; positions are in the op order, ties in any order.
                std::vector<int> position(s.ops.size());
                for (size_t i = 0; i < s.order.size(); ++i) position[static_cast<size_t>(s.order[i])] = static_cast<int>(i);
                struct Copy { int before; TensorId tensor; int device; };
                std::vector<Copy> copies;
                for (TensorId t = 0; t < g.tensorCount(); ++t) {
                    const OpId producer = g.tensor(t).producer;
                    for (int q = 0; q < devices; ++q) {
                        int first = -1;
                        for (OpId c2 : g.tensor(t).consumers)
                            if (placement[static_cast<size_t>(c2)] == q && (first < 0 || position[static_cast<size_t>(c2)] < first))
                                first = position[static_cast<size_t>(c2)];
                        if (q == placement[static_cast<size_t>(producer)] || first < 0) continue;
                        copies.push_back({static_cast<int>(rng.integer(position[static_cast<size_t>(producer)] + 1, first)), t, q});
                    }
                }
                std::stable_sort(copies.begin(), copies.end(), [](const Copy& a, const Copy& b) { return a.before < b.before; });
                std::vector<int> sequence;
                std::vector<TransferStep> transfers;
                size_t next = 0;
                for (size_t i = 0; i <= s.order.size(); ++i) {
                    for (; next < copies.size() && copies[next].before == static_cast<int>(i); ++next) {
                        const int src = placement[static_cast<size_t>(g.tensor(copies[next].tensor).producer)];
                        s.transfers.push_back({.tensor = copies[next].tensor, .from = src, .to = copies[next].device,
                                               .step = static_cast<int>(sequence.size())});
                        sequence.push_back(g.opCount() + static_cast<int>(transfers.size()));
                        transfers.push_back({copies[next].tensor, copies[next].device});
                    }
                    if (i < s.order.size()) sequence.push_back(s.order[i]);
                }
                StepMemory mem(g, devices);
                std::vector<double> peaks;
                mem.peak(placement, sequence, transfers, &peaks);
                QVERIFY2(peaks == reference::stepPeaks(p, s), qPrintable(QString("case %1, %2 devices").arg(seed).arg(devices)));
            }
        }
    }

    // The scan-free path (every ready op fits every free device) must build exactly the schedule
    // of the general scan, which a placement of all -1 ("scheduler's choice") forces.
    void uniformPathEqualsTheGeneralScan() {
        int uniformCases = 0;
        for (std::uint64_t seed = 1; seed <= 300; ++seed) {
            reference::Case c = reference::randomCase(seed, 2, 40);
            Problem& p = c.problem;
            p.platform.link = {};
            ListScheduler ls(p);
            Rng rng(seed);
            std::vector<double> prio(static_cast<size_t>(p.g().opCount()));
            for (double& x : prio) x = std::floor(rng.uniform() * 4);   // ties too
            const std::vector<int> anyDevice(prio.size(), -1);
            const Schedule fast = ls.schedule(prio);
            const Schedule general = ls.schedule(prio, anyDevice);
            uniformCases += p.platform.devices.size() == p.platform.devicesByType().front().size();
            QVERIFY(fast.order == general.order);
            for (size_t v = 0; v < prio.size(); ++v) {
                QCOMPARE(fast.ops[v].device, general.ops[v].device);
                QCOMPARE(fast.ops[v].start, general.ops[v].start);
            }
        }
        QVERIFY(uniformCases > 100);
    }

    void wholeBytesAreRequired() {
        Graph g;
        g.addOp({.name = "a"});
        g.addOp({.name = "b"});
        g.addEdge(0, 1, 1.5);
        try {
            g.finalize();
            QFAIL("fractional bytes accepted");
        } catch (const GraphError& e) {
            QVERIFY(std::string(e.what()).find("'a->b'") != std::string::npos);
            QVERIFY(std::string(e.what()).find("whole number of bytes") != std::string::npos);
        }
    }

    void topoformerChain() {
        Graph g;
        for (int i = 0; i < 3; ++i) g.addOp({.name = std::string(1, char('a' + i))});
        g.addEdge(0, 1, 1);
        g.addEdge(1, 2, 2);
        g.addTensor("out", 2, 3);
        g.finalize();
        StepMemory mem(g, 1);
        const std::vector<OpId> order{0, 1, 2};
        QCOMPARE(mem.peak(order), 5.0);
        g.mutableOp(0).paramBytes = 10;
        g.finalize();
        StepMemory withParams(g, 1);
        QCOMPARE(withParams.peak(order), 11.0);
    }

    void topoformerTwoChains() {
        Graph g;
        for (auto n : {"A1", "A2", "B1", "B2"}) g.addOp({.name = n});
        g.addEdge(0, 1, 5);
        g.addEdge(2, 3, 5);
        g.addTensor("a", 1, 1);
        g.addTensor("b", 3, 1);
        g.finalize();
        StepMemory mem(g, 1);
        QCOMPARE(mem.peak(std::vector<OpId>{0, 1, 2, 3}), 6.0);
        QCOMPARE(mem.peak(std::vector<OpId>{0, 2, 1, 3}), 11.0);
    }

    void validatorCatchesFaults() {
        auto g = regalExample();
        Problem p{g, Platform::identical(2), {}};
        ListScheduler ls(p);
        Schedule s = ls.schedule(std::vector<double>{4, 3, 2, 1});
        QVERIFY(validateSchedule(p, s).ok());
        Schedule early = s;
        early.ops[3].start -= 1;
        early.ops[3].end -= 1;
        QVERIFY(!validateSchedule(p, early).ok());
        Schedule overlap = s;   // op2 and op3 on one device at the same time
        overlap.ops[1].device = overlap.ops[2].device;
        overlap.ops[1].start = overlap.ops[2].start;
        overlap.ops[1].end = overlap.ops[1].start + 2;
        QVERIFY(!validateSchedule(p, overlap).ok());
    }

    void cycleIsNamed() {
        Graph g;
        g.addOp({.name = "x"});
        g.addOp({.name = "y"});
        g.addOp({.name = "z"});
        g.addEdge(0, 1);
        g.addEdge(1, 2);
        g.addEdge(2, 1);
        try {
            g.finalize();
            QFAIL("cycle not detected");
        } catch (const GraphError& e) {
            const QString msg = e.what();
            QVERIFY2(msg.contains("cycle") && msg.contains("y") && msg.contains("z") && !msg.contains("x,"), e.what());
        }
    }
};

SCHEDLAB_TEST_MAIN(costmodel, TestCostModel)
#include "tst_costmodel.moc"
