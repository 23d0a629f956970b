// SPDX-License-Identifier: MIT
// Classic schedulers on hand-checked cases: HEFT on Topcuoglu et al.'s (2002) example, CP / MOPNR
// / SPT priorities (Jeon et al. 2023, App. D; docs/heuristics.md, "Choices where the papers are
// silent"), memory orders and bounds (Topoformer's memory model, Gagrani et al. 2022, §3.2).
#include "common/testmain.h"
#include "core/analysis/bounds.h"
#include "core/analysis/levels.h"
#include "core/costmodel/stepmemory.h"
#include "core/costmodel/validator.h"
#include "core/heuristics/evaluate.h"
#include "core/heuristics/heft.h"
#include "core/heuristics/memoryorders.h"
#include "core/heuristics/priorities.h"
#include "core/optimizer/optimizer.h"

#include <QTest>

using namespace sl;

namespace {

/// Topcuoglu et al. 2002, tasks n1..n10 as ops 0..9 on 3 processors; edge bytes = comm cost.
Problem topcuoglu() {
    const double w[10][3] = {{14, 16, 9}, {13, 19, 18}, {11, 13, 19}, {13, 8, 17}, {12, 13, 10},
                             {13, 16, 9}, {7, 15, 11},  {5, 11, 14},  {18, 12, 20}, {21, 7, 16}};
    const int edges[15][3] = {{1, 2, 18}, {1, 3, 12}, {1, 4, 9},  {1, 5, 11}, {1, 6, 14},
                              {2, 8, 19}, {2, 9, 16}, {3, 7, 23}, {4, 8, 27}, {4, 9, 23},
                              {5, 9, 13}, {6, 8, 15}, {7, 10, 17}, {8, 10, 11}, {9, 10, 13}};
    auto g = std::make_shared<Graph>();
    for (int i = 0; i < 10; ++i) {
        const double mean = (w[i][0] + w[i][1] + w[i][2]) / 3;
        g->addOp({.name = "n" + std::to_string(i + 1), .duration = mean, .deviceDurations = {w[i][0], w[i][1], w[i][2]}});
    }
    for (auto& e : edges) g->addEdge(e[0] - 1, e[1] - 1, e[2]);
    g->finalize();
    Problem p;
    p.graph = g;
    p.platform = Platform::identical(3);
    p.platform.link = {.latency = 0, .bandwidth = 1};
    return p;
}

/// a(2) -> b(3) -> d(1), a -> c(5) -> d, and an isolated e(10).
std::shared_ptr<Graph> smallGraph() {
    auto g = std::make_shared<Graph>();
    const char* names[] = {"a", "b", "c", "d", "e"};
    const double dur[] = {2, 3, 5, 1, 10};
    for (int i = 0; i < 5; ++i) g->addOp({.name = names[i], .duration = dur[i]});
    g->addEdge(0, 1);
    g->addEdge(0, 2);
    g->addEdge(1, 3);
    g->addEdge(2, 3);
    g->finalize();
    return g;
}

Problem onDevices(std::shared_ptr<Graph> g, int devices) {
    Problem p;
    p.graph = std::move(g);
    p.platform = Platform::identical(devices);
    return p;
}

/// Two chains A1 -> A2, B1 -> B2 with m(A1) = m(B1) = 5, m(A2) = m(B2) = 1: orders A1 A2 B1 B2 and
/// A1 B1 A2 B2 peak at 6 and 11 under Topoformer's eqs. 1-3.
std::shared_ptr<Graph> twoChains() {
    auto g = std::make_shared<Graph>();
    for (const char* n : {"A1", "A2", "B1", "B2"}) g->addOp({.name = n, .duration = 1});
    g->addEdge(0, 1, 5);
    g->addEdge(2, 3, 5);
    g->addTensor("A2.out", 1, 1);
    g->addTensor("B2.out", 3, 1);
    g->finalize();
    return g;
}

} // namespace

class TestHeuristics : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    void heftUpwardRanksMatchTheSpec() {
        const Problem p = topcuoglu();
        const std::vector<double> rank = upwardRanks(p);
        const double expected[] = {108, 77, 80, 80, 69, 63.333, 42.667, 35.667, 44.333, 14.667};
        for (int i = 0; i < 10; ++i) QVERIFY2(std::abs(rank[static_cast<size_t>(i)] - expected[i]) < 1e-3, qPrintable(QString::number(i)));
    }

    void heftTopcuogluMakespan80() {
        const Problem p = topcuoglu();
        const Schedule s = heftSchedule(p);
        QCOMPARE(s.makespan, 80.0);
        // The published schedule: n1 -> P3 [0, 9], n10 -> P2 [73, 80].
        QCOMPARE(s.ops[0].device, 2);
        QCOMPARE(s.ops[0].end, 9.0);
        QCOMPARE(s.ops[9].device, 1);
        QCOMPARE(s.ops[9].start, 73.0);
        // n4 -> P2 [18, 26], n2 -> P1 [27, 40], n9 -> P2 [56, 68], n8 -> P1 [57, 62].
        QCOMPARE(s.ops[3].device, 1);
        QCOMPARE(s.ops[3].start, 18.0);
        QCOMPARE(s.ops[1].device, 0);
        QCOMPARE(s.ops[1].start, 27.0);
        QCOMPARE(s.ops[8].start, 56.0);
        QCOMPARE(s.ops[7].start, 57.0);
        const ValidationReport r = validateSchedule(p, s);
        QVERIFY2(r.ok(), r.errors.empty() ? "" : r.errors.front().c_str());
        QCOMPARE(s.makespan, 80.0);
    }

    void heftOptimizerFillsTheResult() {
        const Problem p = topcuoglu();
        RunOptions o;
        o.seed = 3;
        const RunResult r = OptimizerRegistry::instance().create("heft")->run(p, o, {}, {});
        QCOMPARE(r.cost, 80.0);
        QCOMPARE(r.schedule.method, std::string("heft"));
        QCOMPARE(r.schedule.seed, std::uint64_t(3));
        QCOMPARE(r.evaluations, std::int64_t(1));
    }

    void priorityRulesHandChecked() {
        const auto g = smallGraph();
        // CP: a 8, b 4, c 6, d 1, e 10 -> e, a, c, b, d.
        QCOMPARE(criticalPathPriorities(*g), (std::vector<double>{4, 2, 3, 1, 5}));
        // MOPNR: a 3, b 2, c 2, d 1, e 1; ties by CP (c 6 > b 4; e 10 > d 1) -> a, c, b, e, d.
        QCOMPARE(mopnrPriorities(*g), (std::vector<double>{5, 3, 4, 1, 2}));
        // SPT: d 1, a 2, b 3, c 5, e 10.
        QCOMPARE(sptPriorities(*g), (std::vector<double>{4, 3, 2, 5, 1}));
        QCOMPARE(remainingOpCounts(*g), (std::vector<int>{3, 2, 2, 1, 1}));
    }

    void listCpOnTwoDevicesHandChecked() {
        const Problem p = onDevices(smallGraph(), 2);
        const RunResult r = OptimizerRegistry::instance().create("list-cp")->run(p, {}, {}, {});
        // t=0: e on dev0 [0,10], a on dev1 [0,2]; t=2: c on dev1 [2,7] (b waits); t=7: b [7,10];
        // t=10: d [10,11].
        const auto& o = r.schedule.ops;
        QCOMPARE(o[4].device, 0);
        QCOMPARE(o[0].device, 1);
        QCOMPARE(o[2].start, 2.0);
        QCOMPARE(o[1].start, 7.0);
        QCOMPARE(o[3].start, 10.0);
        QCOMPARE(r.cost, 11.0);
        QVERIFY(validateSchedule(p, r.schedule).ok());
        // One device: always the total work.
        const Problem one = onDevices(smallGraph(), 1);
        for (const char* m : {"list-cp", "list-mopnr", "list-spt", "heft"})
            QCOMPARE(OptimizerRegistry::instance().create(m)->run(one, {}, {}, {}).cost, 21.0);
    }

    void memoryOrdersOnTwoChains() {
        const auto g = twoChains();
        StepMemory mem(*g, 1);
        // DFS runs each chain to completion: peak 6; BFS interleaves: peak 11.
        QCOMPARE(dfsOrder(*g), (std::vector<OpId>{0, 1, 2, 3}));
        QCOMPARE(mem.peak(dfsOrder(*g)), 6.0);
        QCOMPARE(bfsOrder(*g), (std::vector<OpId>{0, 2, 1, 3}));
        QCOMPARE(mem.peak(bfsOrder(*g)), 11.0);
        QCOMPARE(mem.peak(postOrder(*g)), 6.0);
        QCOMPARE(mem.peak(xlaListOrder(*g)), 6.0);
        Problem p = onDevices(g, 1);
        p.objective.kind = Objective::Memory;
        for (const char* m : {"mem-dfs", "mem-postorder", "mem-xla-list", "exact-memory"}) {
            const RunResult r = OptimizerRegistry::instance().create(m)->run(p, {}, {}, {});
            QCOMPARE(r.cost, 6.0);
            QVERIFY(r.schedule.memoryClock == MemoryClock::Step);
            QCOMPARE(r.schedule.makespan, 4.0);   // back to back on one device
            QVERIFY(validateSchedule(p, r.schedule).ok());
        }
        QCOMPARE(OptimizerRegistry::instance().create("mem-bfs")->run(p, {}, {}, {}).cost, 11.0);
    }

    void xlaListPrefersFreeingOps() {
        // s -> big(8) -> x; s -> small(1) -> y; x reads big. After s, running x frees 8 bytes.
        auto g = std::make_shared<Graph>();
        for (const char* n : {"s", "x", "y"}) g->addOp({.name = n, .duration = 1});
        auto big = g->addTensor("big", 0, 8);
        g->addConsumer(big, 1);
        auto small = g->addTensor("small", 0, 1);
        g->addConsumer(small, 2);
        g->addTensor("x.out", 1, 2);
        g->addTensor("y.out", 2, 2);
        g->finalize();
        QCOMPARE(xlaListOrder(*g), (std::vector<OpId>{0, 1, 2}));
    }

    void lowerBoundsHandChecked() {
        const Problem p = onDevices(smallGraph(), 2);
        const LowerBounds b = lowerBounds(p);
        QCOMPARE(b.criticalPath, 10.0);
        QCOMPARE(b.workPerDevice, 10.5);
        QCOMPARE(b.makespan, 10.5);
        const Problem h = topcuoglu();
        // Shortest durations along n1 -> n2 -> n9 -> n10: 9 + 13 + 12 + 7.
        QCOMPARE(criticalPathBound(h), 41.0);
        const auto chains = twoChains();
        QCOMPARE(footprintBound(*chains), 6.0);
    }

    void sequentialScheduleRejectsNonTopologicalOrders() {
        const Problem p = onDevices(smallGraph(), 1);
        const std::vector<OpId> bad{3, 0, 1, 2, 4};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sequentialSchedule(p, bad));
    }
};

SCHEDLAB_TEST_MAIN(heuristics, TestHeuristics)
#include "tst_heuristics.moc"
