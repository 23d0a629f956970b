// SPDX-License-Identifier: MIT
// Generators: reproducible, acyclic, and shaped as the papers describe.
#include "common/branchblock.h"
#include "common/memorybrute.h"
#include "common/testmain.h"
#include "core/costmodel/stepmemory.h"
#include "core/generators/generators.h"

#include <QTest>

#include <cmath>

using namespace sl;

class TestGenerators : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// STG-like graphs: the set's shape (whole durations 1-10, 60-250 edges at 50 tasks, no data,
    /// edges from lower to higher task numbers), the same graph for the same seed.
    void stgLikeTaskGraphs() {
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            const GeneratedInstance inst = generateInstance("stg", 50, seed);
            const Graph& g = *inst.graph;
            QCOMPARE(g.opCount(), 50);
            QCOMPARE(inst.platform.deviceCount(), 4);
            for (OpId v = 0; v < g.opCount(); ++v) {
                const double d = g.op(v).duration;
                QVERIFY(d >= 1 && d <= 10 && d == std::floor(d));
                for (const TensorId t : g.inputs(v)) {
                    QCOMPARE(g.tensor(t).bytes, 0.0);
                    QVERIFY(g.tensor(t).producer < v);
                }
            }
            QVERIFY2(g.edgeCount() >= 40 && g.edgeCount() <= 300, qPrintable(QString::number(g.edgeCount())));
            QCOMPARE(generateInstance("stg", 50, seed).graph->edgeCount(), g.edgeCount());
        }
    }

    void sameSeedSameGraph_data() {
        QTest::addColumn<QString>("family");
        for (const auto& f : generatorFamilies()) QTest::addRow("%s", f.c_str()) << QString::fromStdString(f);
    }
    void sameSeedSameGraph() {
        QFETCH(QString, family);
        const auto a = generateInstance(family.toStdString(), 120, 7);
        const auto b = generateInstance(family.toStdString(), 120, 7);
        const auto c = generateInstance(family.toStdString(), 120, 8);
        QCOMPARE(a.graph->opCount(), b.graph->opCount());
        QCOMPARE(a.graph->edgeCount(), b.graph->edgeCount());
        bool differs = a.graph->edgeCount() != c.graph->edgeCount();
        for (OpId v = 0; v < a.graph->opCount(); ++v) {
            QCOMPARE(a.graph->op(v).duration, b.graph->op(v).duration);
            QCOMPARE(a.graph->outputBytes(v), b.graph->outputBytes(v));
            if (v < c.graph->opCount() && a.graph->op(v).duration != c.graph->op(v).duration) differs = true;
        }
        QVERIFY2(differs, "another seed should give another graph");
        QVERIFY(a.graph->finalized());
        a.platform.checkCompatible(*a.graph);   // throws if the family's platform cannot run it
    }

    // The reference statistics of Topoformer's layered graphs (docs/costmodel.md, "Generated
    // instances"): N=500 has 22-33 layers and ~2,533 edges (2,274-3,124).
    void layeredMatchesReferenceStatistics() {
        double edges = 0;
        int sources = 0;
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            const auto inst = generateLayered(500, seed);
            const Graph& g = *inst.graph;
            QCOMPARE(g.opCount(), 500);
            edges += g.edgeCount();
            for (OpId v = 0; v < g.opCount(); ++v) sources += g.predecessors(v).empty();
            // memory and parameters are shared by a layer: ops of one type have one size
            QCOMPARE(g.outputBytes(0), g.outputBytes(1));
        }
        edges /= 10;
        QVERIFY2(edges > 2100 && edges < 3300, qPrintable(QString::number(edges)));
        QVERIFY(sources / 10.0 > 8 && sources / 10.0 < 50);
    }

    void layeredTypedMix() {
        const auto inst = generateLayeredTyped(3000, 3);
        int count[3] = {0, 0, 0};
        for (const Op& o : inst.graph->ops()) {
            ++count[o.machineType];
            QVERIFY(o.duration >= 1);
        }
        QVERIFY(std::abs(count[2] / 3000.0 - 2.0 / 3) < 0.05);
        QVERIFY(std::abs(count[0] / 3000.0 - 1.0 / 6) < 0.05);
        QCOMPARE(inst.platform.deviceCount(), 6);
    }

    void jobShopShape() {
        const auto inst = generateJobShop(25, 10, 1);
        QCOMPARE(inst.graph->opCount(), 250);
        QCOMPARE(inst.graph->edgeCount(), 25 * 9);
        QCOMPARE(inst.platform.deviceCount(), 10);
        for (int j = 0; j < 25; ++j) {   // each job visits every machine once
            std::vector<int> seen(10, 0);
            for (int k = 0; k < 10; ++k) ++seen[size_t(inst.graph->op(j * 10 + k).machineType)];
            QCOMPARE(std::count(seen.begin(), seen.end(), 1), 10);
        }
    }

    // The GFlowNet test families (Zhang et al. 2023, App. E.5; docs/costmodel.md, "Generated
    // instances"): durations U(0, 1] (positive), whole bytes up to 1 MiB, four identical devices,
    // acyclic (every edge forward in a topological order).
    void gflownetFamiliesAreUniformAndAcyclic_data() {
        QTest::addColumn<QString>("family");
        for (const char* f : {"layered-gfn", "erdos-renyi-gfn", "sbm-gfn", "watts-strogatz", "barabasi-albert"})
            QTest::addRow("%s", f) << QString(f);
    }
    void gflownetFamiliesAreUniformAndAcyclic() {
        QFETCH(QString, family);
        const auto inst = generateInstance(family.toStdString(), 50, 4);
        const Graph& g = *inst.graph;
        QCOMPARE(g.opCount(), 50);
        QCOMPARE(inst.platform.deviceCount(), 4);
        QVERIFY(inst.platform.link.free());
        double sum = 0;
        for (const Op& o : g.ops()) {
            QVERIFY(o.duration > 0 && o.duration <= 1);
            sum += o.duration;
        }
        QVERIFY(sum > 15 && sum < 35);   // mean 0.5 over 50 ops
        for (const Tensor& t : g.tensors()) QVERIFY(t.bytes >= 0 && t.bytes <= 1024 * 1024 && t.bytes == std::floor(t.bytes));
        std::vector<int> pos(50);
        for (int i = 0; i < 50; ++i) pos[static_cast<size_t>(g.topologicalOrder()[static_cast<size_t>(i)])] = i;
        QCOMPARE(g.topologicalOrder().size(), size_t(50));
        for (OpId v = 0; v < 50; ++v)
            for (OpId w : g.successors(v)) QVERIFY(pos[static_cast<size_t>(v)] < pos[static_cast<size_t>(w)]);
    }

    // Rewiring keeps the ring's n·k/2 edges; with n <= k the graph is complete. Catches a lost or
    // duplicated edge in the rewiring, a k other than 8.
    void wattsStrogatzEdgeCount() {
        for (std::uint64_t seed = 1; seed <= 5; ++seed) QCOMPARE(generateWattsStrogatz(50, seed).graph->edgeCount(), 200);
        QCOMPARE(generateWattsStrogatz(6, 1).graph->edgeCount(), 15);
        // rewired: not just the ring (which links i to i±1..4 only)
        const auto ws = generateWattsStrogatz(50, 1);
        const Graph& g = *ws.graph;
        int far = 0;
        for (OpId v = 0; v < 50; ++v)
            for (OpId w : g.successors(v)) far += std::min(std::abs(v - w), 50 - std::abs(v - w)) > 4;
        QVERIFY2(far > 30 && far < 90, qPrintable(QString::number(far)));   // about 0.3 x 200
    }

    // A star of m + 1 = 5 nodes, then m = 4 edges per further node; every later node has degree
    // >= 4. Catches an m other than 4, repeated targets.
    void barabasiAlbertEdgeCount() {
        const auto ba = generateBarabasiAlbert(50, 2);
        const Graph& g = *ba.graph;
        QCOMPARE(g.edgeCount(), 4 + 45 * 4);
        for (OpId v = 0; v < 50; ++v) QVERIFY(g.predecessors(v).size() + g.successors(v).size() >= 1);
        int hubDegree = 0;
        for (OpId v = 0; v < 50; ++v)
            hubDegree = std::max(hubDegree, static_cast<int>(g.predecessors(v).size() + g.successors(v).size()));
        QVERIFY(hubDegree > 12);   // preferential attachment grows hubs (uniform would give ~8)
        QCOMPARE(generateBarabasiAlbert(3, 1).graph->edgeCount(), 2);
    }

    // ER p = 0.12: 147 edges expected at 50 nodes; SBM (13, 13, 12, 12) blocks, 0.4 / 0.05: 162.
    void randomDensitiesMatchTheSpec() {
        double er = 0, sbm = 0;
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            er += generateErdosRenyiUniform(50, seed).graph->edgeCount();
            sbm += generateSbmUniform(50, seed).graph->edgeCount();
        }
        QVERIFY2(std::abs(er / 10 - 147) < 15, qPrintable(QString::number(er / 10)));
        QVERIFY2(std::abs(sbm / 10 - 162) < 15, qPrintable(QString::number(sbm / 10)));
    }

    void rejectsAbsurdSizes() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateInstance("layered", 0, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateInstance("erdos-renyi", 1'000'000, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateInstance("nope", 10, 1));
    }

    // The premise of the "branches" family (issue 62): a block's peak depends on the order. By
    // hand, input 2 B, branches expanding to 8 and 6 B and reducing to 1 B each, a 2 B join, a 1 B
    // output. Branch by branch: the expand of 8 beside the input and the first share, 2 + 8 + 1 =
    // 11; both expands first: 2 + 8 + 6 = 16. 11 is the minimum over every order (brute force).
    // Mutation caught: a step clock that frees the input before its last reader.
    void branchOrderMovesThePeakByHand() {
        const std::shared_ptr<Graph> block = test::handBranchBlock();
        const Graph& g = *block;
        StepMemory mem(g, 1);
        const std::vector<OpId> branchByBranch{0, 1, 2, 3, 4, 5, 6}, expandsFirst{0, 1, 3, 2, 4, 5, 6};
        QCOMPARE(mem.peak(branchByBranch), 11.0);
        QCOMPARE(mem.peak(expandsFirst), 16.0);
        QCOMPARE(reference::bruteMinimum(g), 11.0);
    }

    // The family's shape: every block fans its input out to 2-8 branches, each an expand (2-4x the
    // width, with the x U(0.5, 1.5) noise) and a reduce, joined by a concat of all reduces; the
    // op count is exact. Mutation caught: a branch that skips the expand, sizes without noise.
    void branchesFamilyShape() {
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            const GeneratedInstance inst = generateInstance("branches", 300, seed);
            const Graph& g = *inst.graph;
            QCOMPARE(g.opCount(), 300);
            int expands = 0, joins = 0;
            double smallest = 1e300, largest = 0;
            for (OpId v = 0; v < g.opCount(); ++v) {
                if (g.op(v).type == "Expand") {
                    ++expands;
                    const double ratio = g.outputBytes(v) / g.outputBytes(g.predecessors(v).front());
                    smallest = std::min(smallest, ratio);
                    largest = std::max(largest, ratio);
                }
                if (g.op(v).type == "Concat") {
                    ++joins;
                    QVERIFY(g.predecessors(v).size() >= 2 && g.predecessors(v).size() <= 8);
                    for (OpId p : g.predecessors(v)) QCOMPARE(g.op(p).type, std::string("Reduce"));
                }
            }
            QVERIFY(joins >= 300 / (1 + 2 * 8 + 2 * 8) && expands >= 2 * joins);
            QVERIFY2(smallest >= 2.0 * 0.5 / 1.5 && largest <= 4.0 * 1.5 / 0.5, qPrintable(QString::number(largest)));
            QVERIFY(largest / smallest > 2);   // the noise spreads the ratios beyond the 2-4x
        }
    }
};

SCHEDLAB_TEST_MAIN(generators, TestGenerators)
#include "tst_generators.moc"
