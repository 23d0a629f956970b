// SPDX-License-Identifier: MIT
// exact-memory against brute force over every topological order of small random graphs, with the
// step-clock peak recomputed here from its definition (Gagrani et al. 2022, §3.2, eqs. 1-3 and
// App. A eq. 15; docs/costmodel.md, "Step clock").
#include "core/analysis/bounds.h"
#include "core/costmodel/stepmemory.h"
#include "core/exact/exactmemory.h"
#include "core/heuristics/memoryorders.h"
#include "core/util/random.h"

#include <QTest>

#include <algorithm>
#include <functional>

using namespace sl;

namespace {

/// M_t = bytes of earlier tensors still read at or after step t + outputs and parameters of op t.
double definitionPeak(const Graph& g, const std::vector<OpId>& order) {
    std::vector<int> pos(static_cast<size_t>(g.opCount()));
    for (size_t i = 0; i < order.size(); ++i) pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
    double peak = 0;
    for (size_t t = 0; t < order.size(); ++t) {
        const OpId v = order[t];
        double m = g.op(v).paramBytes;
        for (TensorId x = 0; x < g.tensorCount(); ++x) {
            const Tensor& tensor = g.tensor(x);
            const int made = pos[static_cast<size_t>(tensor.producer)];
            if (made == static_cast<int>(t)) {
                m += tensor.bytes;
                continue;
            }
            if (made > static_cast<int>(t)) continue;
            bool stillRead = false;
            for (OpId c : tensor.consumers) stillRead |= pos[static_cast<size_t>(c)] >= static_cast<int>(t);
            if (stillRead) m += tensor.bytes;
        }
        peak = std::max(peak, m);
    }
    return peak;
}

/// Minimum over all topological orders (backtracking).
double bruteMinimum(const Graph& g) {
    const int n = g.opCount();
    std::vector<OpId> order;
    std::vector<char> used(static_cast<size_t>(n), 0);
    double best = kInfinity;
    std::function<void()> rec = [&] {
        if (static_cast<int>(order.size()) == n) {
            best = std::min(best, definitionPeak(g, order));
            return;
        }
        for (OpId v = 0; v < n; ++v) {
            if (used[static_cast<size_t>(v)]) continue;
            bool ready = true;
            for (OpId q : g.predecessors(v)) ready &= used[static_cast<size_t>(q)] != 0;
            if (!ready) continue;
            used[static_cast<size_t>(v)] = 1;
            order.push_back(v);
            rec();
            order.pop_back();
            used[static_cast<size_t>(v)] = 0;
        }
    };
    rec();
    return best;
}

/// A random DAG of `n` ops: each op writes one tensor read by later ops with probability `p`,
/// sometimes a second tensor nobody reads, and sometimes parameters. Ids are then shuffled.
std::shared_ptr<Graph> randomGraph(int n, double p, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<int> label(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) label[static_cast<size_t>(i)] = i;
    rng.shuffle(label);
    auto g = std::make_shared<Graph>();
    std::vector<OpId> id(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        Op op{.name = "op" + std::to_string(label[static_cast<size_t>(i)]), .duration = 1};
        if (rng.uniform() < 0.3) op.paramBytes = static_cast<double>(rng.integer(1, 4));
        id[static_cast<size_t>(i)] = g->addOp(op);
    }
    for (int i = 0; i < n; ++i) {
        const TensorId t = g->addTensor("t" + std::to_string(i), id[static_cast<size_t>(i)], static_cast<double>(rng.integer(0, 10)));
        for (int j = i + 1; j < n; ++j)
            if (rng.uniform() < p) g->addConsumer(t, id[static_cast<size_t>(j)]);
        if (rng.uniform() < 0.2)
            g->addTensor("u" + std::to_string(i), id[static_cast<size_t>(i)], static_cast<double>(rng.integer(1, 5)));
    }
    g->finalize();
    return g;
}

} // namespace

class TestExact : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stepMemoryMatchesTheDefinition() {
        for (std::uint64_t seed = 1; seed <= 50; ++seed) {
            const auto g = randomGraph(9, 0.3, seed);
            StepMemory mem(*g, 1);
            for (auto* rule : {&dfsOrder, &bfsOrder, &postOrder, &xlaListOrder})
                QCOMPARE(mem.peak(rule(*g)), definitionPeak(*g, rule(*g)));
        }
    }

    void dpEqualsBruteForceOnSmallGraphs() {
        int nontrivial = 0, tightCut = 0;
        for (std::uint64_t seed = 1; seed <= 120; ++seed) {
            const int n = 3 + static_cast<int>(seed % 6);   // 3..8 ops
            const auto g = randomGraph(n, seed % 3 == 0 ? 0.2 : 0.4, seed);
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
            const auto g = randomGraph(24, 0.15, seed);
            const ExactMemoryResult r = exactMinimumMemory(*g, {.maxStates = 200'000, .timeLimit = 0});
            StepMemory mem(*g, 1);
            QCOMPARE(mem.peak(r.order), r.peak);
            QVERIFY(r.optimal || !r.note.empty());
            QVERIFY(r.peak <= mem.peak(xlaListOrder(*g)));
        }
    }

    void stateLimitGivesUpWithANote() {
        const auto g = randomGraph(40, 0.05, 7);
        const ExactMemoryResult r = exactMinimumMemory(*g, {.maxStates = 50, .timeLimit = 0});
        if (!r.optimal) {
            QVERIFY(r.note.find("state limit") != std::string::npos);
            QVERIFY(r.states <= 50 + 40);
        }
        QCOMPARE(static_cast<int>(r.order.size()), g->opCount());
    }
};

QTEST_GUILESS_MAIN(TestExact)
#include "tst_exact.moc"
