// SPDX-License-Identifier: MIT
// exact-memory against brute force over every topological order of small random graphs, with the
// step-clock peak recomputed here from its definition (Gagrani et al. 2022, §3.2, eqs. 1-3 and
// App. A eq. 15; docs/costmodel.md, "Step clock").
#include "common/testmain.h"
#include "core/analysis/bounds.h"
#include "core/costmodel/stepmemory.h"
#include "core/exact/exactmemory.h"
#include "core/heuristics/memoryorders.h"
#include "core/util/random.h"

#include "common/memorybrute.h"

#include <QTest>

#include <algorithm>
#include <functional>

using namespace sl;
using namespace sl::reference;

class TestExact : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stepMemoryMatchesTheDefinition() {
        for (std::uint64_t seed = 1; seed <= 50; ++seed) {
            const auto g = randomMemoryGraph(9, 0.3, seed);
            StepMemory mem(*g, 1);
            for (auto* rule : {&dfsOrder, &bfsOrder, &postOrder, &xlaListOrder})
                QCOMPARE(mem.peak(rule(*g)), definitionPeak(*g, rule(*g)));
        }
    }

    void dpEqualsBruteForceOnSmallGraphs() {
        int nontrivial = 0, tightCut = 0;
        for (std::uint64_t seed = 1; seed <= 120; ++seed) {
            const int n = 3 + static_cast<int>(seed % 6);   // 3..8 ops
            const auto g = randomMemoryGraph(n, seed % 3 == 0 ? 0.2 : 0.4, seed);
            const ExactMemoryResult r = exactMinimumMemory(*g, {});
            QVERIFY(r.optimal);
            QVERIFY(r.note.empty());
            const double brute = bruteMinimum(*g);
            QCOMPARE(r.peak, brute);
            QVERIFY(cutMemoryBound(*g, 1) <= brute);   // the bound the search starts from holds
            tightCut += cutMemoryBound(*g, 1) == brute;
            QCOMPARE(definitionPeak(*g, r.order), brute);
            StepMemory mem(*g, 1);
            for (auto* rule : {&dfsOrder, &bfsOrder, &postOrder, &xlaListOrder}) {
                const double h = mem.peak(rule(*g));
                QVERIFY(r.peak <= h);
                nontrivial += h > r.peak;
            }
        }
        QVERIFY(nontrivial > 0);   // the search improved on some heuristic, not only copied them
        QVERIFY(tightCut > 0);     // and the cut bound proves some optima by itself
    }

    void dpOnMediumGraphsIsOptimalOrSaysWhy() {
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            const auto g = randomMemoryGraph(24, 0.15, seed);
            const ExactMemoryResult r = exactMinimumMemory(*g, {.maxStates = 200'000, .timeLimit = 0});
            StepMemory mem(*g, 1);
            QCOMPARE(mem.peak(r.order), r.peak);
            QVERIFY(r.optimal || !r.note.empty());
            QVERIFY(r.peak <= mem.peak(xlaListOrder(*g)));
        }
    }

    void stateLimitGivesUpWithANote() {
        const auto g = randomMemoryGraph(40, 0.05, 7);
        const ExactMemoryResult r = exactMinimumMemory(*g, {.maxStates = 50, .timeLimit = 0});
        if (!r.optimal) {
            QVERIFY(r.note.find("state limit") != std::string::npos);
            QVERIFY(r.states <= 50 + 40);
        }
        QCOMPARE(static_cast<int>(r.order.size()), g->opCount());
    }
};

SCHEDLAB_TEST_MAIN(exact, TestExact)
#include "tst_exact.moc"
