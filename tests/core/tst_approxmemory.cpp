// SPDX-License-Identifier: MIT
// mem-approx-dp, the approximate DP of Gagrani et al. 2022 (§5, App. C.3): exact with a beam wider
// than every level (against exact-memory and brute force), never worse than the best classic
// order at small K, a valid order whose StepMemory peak is the reported one, and prompt stops.
#include "common/testmain.h"
#include "core/costmodel/problem.h"
#include "core/costmodel/stepmemory.h"
#include "core/exact/approxmemory.h"
#include "core/exact/exactmemory.h"
#include "core/exact/setmemory.h"
#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/optimizer/optimizer.h"
#include "core/util/random.h"

#include "common/memorybrute.h"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <functional>

using namespace sl;
using namespace sl::reference;

namespace {

/// The training step (Adam) of an "nn" network of `forwardOps` ops: about three times as many ops.
std::shared_ptr<Graph> trainingGraph(int forwardOps, std::uint64_t seed) {
    return std::make_shared<Graph>(
        makeTrainingGraph(*generateNetworkLike(forwardOps, seed).graph, {.rule = UpdateRule::Adam}));
}

/// `width` independent ops whose outputs one sink reads: level t has C(width, t) sets, so a level
/// of a wide beam takes seconds.
std::shared_ptr<Graph> fanIn(int width) {
    auto g = std::make_shared<Graph>();
    const OpId sink = g->addOp({.name = "sink", .duration = 1});
    for (int i = 0; i < width; ++i) {
        const OpId v = g->addOp({.name = "op" + std::to_string(i), .duration = 1});
        g->addConsumer(g->addTensor("t" + std::to_string(i), v, 1 + i % 7), sink);
    }
    g->finalize();
    return g;
}

/// Every op exactly once, each after its predecessors.
bool isTopologicalOrder(const Graph& g, const std::vector<OpId>& order) {
    if (static_cast<int>(order.size()) != g.opCount()) return false;
    std::vector<int> pos(static_cast<size_t>(g.opCount()), -1);
    for (size_t i = 0; i < order.size(); ++i) {
        if (order[i] < 0 || order[i] >= g.opCount() || pos[static_cast<size_t>(order[i])] >= 0) return false;
        pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
    }
    for (OpId v = 0; v < g.opCount(); ++v)
        for (OpId q : g.predecessors(v))
            if (pos[static_cast<size_t>(q)] > pos[static_cast<size_t>(v)]) return false;
    return true;
}

/// The ~100 small graphs of the exactness checks: layered (8-14 ops), Adam training steps of
/// 8-10-op networks (about 30 ops) and random DAGs with parameters and unread outputs (10-14 ops).
std::vector<std::shared_ptr<Graph>> smallGraphs() {
    std::vector<std::shared_ptr<Graph>> graphs;
    for (std::uint64_t seed = 1; seed <= 40; ++seed)
        graphs.push_back(generateLayered(8 + static_cast<int>(seed % 7), seed).graph);
    for (std::uint64_t seed = 1; seed <= 30; ++seed)
        graphs.push_back(trainingGraph(8 + static_cast<int>(seed % 3), seed));
    for (std::uint64_t seed = 1; seed <= 30; ++seed)
        graphs.push_back(randomMemoryGraph(10 + static_cast<int>(seed % 5), 0.25, seed));
    return graphs;
}

/// Medium graphs for the small-K checks: layered (30-60 ops) and Adam training steps (~100-250 ops).
std::vector<std::shared_ptr<Graph>> mediumGraphs() {
    std::vector<std::shared_ptr<Graph>> graphs;
    for (std::uint64_t seed = 1; seed <= 8; ++seed)
        graphs.push_back(generateLayered(30 + 4 * static_cast<int>(seed), seed).graph);
    for (std::uint64_t seed = 1; seed <= 6; ++seed)
        graphs.push_back(trainingGraph(30 + 10 * static_cast<int>(seed), seed));
    return graphs;
}

}   // namespace

class TestApproxMemory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches a merge that keeps the costlier of two equal sets, a step or live-bytes rule that
    // differs from exact-memory's, and ready ops lost between levels (the optimum is missed).
    void wideBeamEqualsTheExactOptimum() {
        int dpWins = 0;
        for (const auto& g : smallGraphs()) {
            const ExactMemoryResult exact = exactMinimumMemory(*g, {.maxStates = 5'000'000, .timeLimit = 0});
            QVERIFY(exact.optimal);
            const ApproxMemoryResult r = approximateMinimumMemory(*g, {.beamWidth = 100'000});
            QVERIFY2(r.optimal && !r.beamFull, r.note.c_str());
            QVERIFY(r.note.find("optimal (beam never full)") != std::string::npos);
            QVERIFY2(r.peak == exact.peak, qPrintable(QString("%1 vs %2").arg(r.peak).arg(exact.peak)));   // to the bit
            dpWins += r.fromDp;
        }
        QVERIFY(dpWins > 10);   // the DP's own order, not only the incumbent, is checked
    }

    // Catches the same faults where exact-memory would share them: brute force over every
    // topological order, scored by StepMemory.
    void wideBeamEqualsBruteForceOnTinyGraphs() {
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
            const int n = 3 + static_cast<int>(seed % 6);   // 3..8 ops
            const auto g = randomMemoryGraph(n, seed % 3 == 0 ? 0.2 : 0.4, seed);
            const ApproxMemoryResult r = approximateMinimumMemory(*g, {.beamWidth = 100'000});
            QVERIFY(r.optimal);
            QVERIFY(r.peak == bruteMinimum(*g));
        }
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {   // layered graphs of 8 ops
            const auto g = generateLayered(8, seed).graph;
            QVERIFY(approximateMinimumMemory(*g, {.beamWidth = 100'000}).peak == bruteMinimum(*g));
        }
    }

    // Catches a DP returned even when the narrow beam ends above the incumbent (no fallback), and
    // an incumbent that is not the best of the four classic orders.
    void neverWorseThanTheBestClassicOrder() {
        int full = 0, wins = 0;
        for (const auto& g : mediumGraphs()) {
            const MemoryOrder classic = bestClassicMemoryOrder(*g);
            for (int k : {1, 10, 100}) {
                const ApproxMemoryResult r = approximateMinimumMemory(*g, {.beamWidth = k});
                QVERIFY(r.peak <= classic.peak);
                QCOMPARE(r.incumbentPeak, classic.peak);
                QCOMPARE(r.fromDp, r.peak < classic.peak);
                if (!r.fromDp) QVERIFY(r.order == classic.order);
                QVERIFY(r.note.find("K = " + std::to_string(k)) != std::string::npos);
                full += r.beamFull;
                wins += r.fromDp;
            }
        }
        QVERIFY(full > 0);   // the beams were narrow enough to drop sets
        QVERIFY(wins > 0);   // and the DP still beat the classic orders somewhere
    }

    // Catches a merge that lowers a set's cost but keeps the old step (the order then peaks above
    // the reported cost), and back-pointers renumbered wrongly when the tree is swept (1.5M nodes
    // here pass the 1M-node sweep threshold).
    void orderIsTopologicalAndPeaksAtTheReportedCost() {
        std::vector<std::pair<std::shared_ptr<Graph>, int>> runs;
        for (const auto& g : mediumGraphs())
            for (int k : {1, 10, 1000}) runs.emplace_back(g, k);
        runs.emplace_back(generateLayered(300, 3).graph, 5000);   // ~300 levels x 5,000 sets
        for (const auto& [g, k] : runs) {
            const ApproxMemoryResult r = approximateMinimumMemory(*g, {.beamWidth = k});
            QVERIFY(isTopologicalOrder(*g, r.order));
            StepMemory mem(*g, 1);
            QVERIFY2(mem.peak(r.order) == r.peak, qPrintable(QString("%1 vs %2").arg(mem.peak(r.order)).arg(r.peak)));
        }
    }

    // Catches a time limit polled only between levels (a level of this 3,000-op fan at K = 100,000
    // takes over a second), a stop token never polled, and a stop that returns no order.
    void stopsPromptlyWithAValidOrder() {
        using Clock = std::chrono::steady_clock;
        const auto g = fanIn(3000);
        const MemoryOrder classic = bestClassicMemoryOrder(*g);
        std::stop_source source;
        Clock::time_point asked;
        const ApproxMemoryResult r =
            approximateMinimumMemory(*g, {.beamWidth = 100'000}, source.get_token(), [&](std::int64_t levels, double) {
                if (levels != 2) return;   // level 3 is full
                asked = Clock::now();
                source.request_stop();
            });
        QVERIFY(std::chrono::duration<double>(Clock::now() - asked).count() < 0.5);
        QVERIFY(r.cancelled);
        QVERIFY(r.note.find("cancelled at level 2") != std::string::npos);
        QVERIFY(r.order == classic.order && isTopologicalOrder(*g, r.order));

        const auto begin = Clock::now();
        const ApproxMemoryResult timed = approximateMinimumMemory(*g, {.beamWidth = 100'000, .timeLimit = 0.5});
        QVERIFY(std::chrono::duration<double>(Clock::now() - begin).count() < 1.2);
        QVERIFY(timed.timedOut && !timed.cancelled);
        QVERIFY(timed.note.find("time limit") != std::string::npos);
        QVERIFY(timed.order == classic.order);
    }

    // Catches a registry entry that claims a lower bound (or optimality) although the beam dropped
    // sets, or drops the note.
    void optimizerReportsTheBoundOnlyWhenExact() {
        registerCoreOptimizers();
        Problem p;
        p.graph = trainingGraph(12, 1);
        p.platform = Platform::identical(1);
        p.objective.kind = Objective::Memory;
        auto run = [&](int k) {
            RunOptions o;
            o.values["k"] = k;
            return OptimizerRegistry::instance().create("mem-approx-dp")->run(p, o, {}, {});
        };
        const RunResult wide = run(100'000), narrow = run(1);
        QVERIFY2(wide.note.find("optimal (beam never full)") != std::string::npos, wide.note.c_str());
        QCOMPARE(wide.lowerBound, wide.cost);
        QCOMPARE(wide.cost, exactMinimumMemory(*p.graph, {.maxStates = 5'000'000, .timeLimit = 0}).peak);
        QVERIFY2(narrow.note.find("K = 1, beam full") != std::string::npos, narrow.note.c_str());
        QCOMPARE(narrow.lowerBound, 0.0);
        QVERIFY(narrow.cost >= wide.cost);
    }
};

SCHEDLAB_TEST_MAIN(approxmemory, TestApproxMemory)
#include "tst_approxmemory.moc"
