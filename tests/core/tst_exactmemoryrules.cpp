// SPDX-License-Identifier: MIT
// exact-memory's rules for compiler-shaped steps (docs/heuristics.md, "exact-memory"), against
// brute force over every topological order of 200 small random graphs shaped like HLO steps:
// zero-byte (folded) ops, tensors read by several later ops, unread outputs, a few weights.
//  - the order cut bound (core/analysis/ordercut.h) of each op is at most that op's least step
//    over every order (fails if the min-cut counts a tensor some order avoids, or counts one twice);
//  - the pair bound (whichever of two incomparable ops runs second) never exceeds the optimum;
//  - exact-memory, starting from them, returns the brute-force optimum and proves it.
#include "common/memorybrute.h"
#include "common/testmain.h"
#include "core/analysis/ordercut.h"
#include "core/exact/exactmemory.h"
#include "core/util/random.h"

#include <QTest>

#include <algorithm>

using namespace sl;
using namespace sl::reference;

namespace exactmemoryrulestest {

/// An HLO-shaped random DAG: a quarter of the tensors are 0 bytes (folded ops), each tensor is read
/// by later ops with probability p (often several), some outputs are unread, few ops have weights.
std::shared_ptr<Graph> hloShapedGraph(int n, double p, std::uint64_t seed) {
    Rng rng(seed);
    auto g = std::make_shared<Graph>();
    for (int i = 0; i < n; ++i) {
        Op op{.name = "op" + std::to_string(i), .duration = 1};
        if (rng.uniform() < 0.15) op.paramBytes = static_cast<double>(rng.integer(1, 6));
        g->addOp(op);
    }
    for (int i = 0; i < n; ++i) {
        const double bytes = rng.uniform() < 0.25 ? 0 : static_cast<double>(rng.integer(1, 12));
        const TensorId t = g->addTensor("t" + std::to_string(i), i, bytes);
        for (int j = i + 1; j < n; ++j)
            if (rng.uniform() < p) g->addConsumer(t, j);
        if (rng.uniform() < 0.1) g->addTensor("u" + std::to_string(i), i, static_cast<double>(rng.integer(1, 4)));
    }
    g->finalize();
    return g;
}

std::shared_ptr<Graph> graphNumber(int i) {
    return hloShapedGraph(6 + i % 5, i % 3 == 0 ? 0.25 : i % 3 == 1 ? 0.4 : 0.55, 7000 + static_cast<std::uint64_t>(i));
}

class TestExactMemoryRules : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void orderCutBoundsNeverExceedAnOpsLeastStep() {
        int aboveCut = 0;
        for (int i = 0; i < 200; ++i) {
            const auto g = graphNumber(i);
            const auto after = opReachability(*g, true), before = opReachability(*g, false);
            const std::vector<double> bound = orderCutBounds(*g, after, before);
            const std::vector<double> cut = opCutBounds(*g, after, before);
            std::vector<double> leastStep(static_cast<size_t>(g->opCount()), kInfinity);
            forEachOrder(*g, {}, [&](const std::vector<OpId>& order) {
                const std::vector<double> steps = definitionStepMemory(*g, order);
                for (size_t k = 0; k < order.size(); ++k)
                    leastStep[static_cast<size_t>(order[k])] = std::min(leastStep[static_cast<size_t>(order[k])], steps[k]);
            });
            for (OpId v = 0; v < g->opCount(); ++v) {
                QVERIFY2(bound[static_cast<size_t>(v)] <= leastStep[static_cast<size_t>(v)], qPrintable(QString("graph %1 op %2").arg(i).arg(v)));
                aboveCut += bound[static_cast<size_t>(v)] > cut[static_cast<size_t>(v)];
            }
            const double brute = bruteMinimum(*g);
            QVERIFY(orderCutBound(*g) <= brute);
            QVERIFY(pairCutBound(*g, after, before, bound, g->opCount()) <= brute);
        }
        QVERIFY(aboveCut > 10);   // the min-cut is tighter than the plain cut often, not by accident
    }

    void exactMemoryEqualsBruteForce() {
        for (int i = 0; i < 200; ++i) {
            const auto g = graphNumber(i);
            const ExactMemoryResult r = exactMinimumMemory(*g, {.incumbentBeam = 0});
            QVERIFY(r.optimal);
            const double brute = bruteMinimum(*g);
            QCOMPARE(r.peak, brute);
            QCOMPARE(definitionPeak(*g, r.order), brute);
        }
    }
};

} // namespace exactmemoryrulestest

SCHEDLAB_TEST_MAIN(exactmemoryrules, exactmemoryrulestest::TestExactMemoryRules)
#include "tst_exactmemoryrules.moc"
