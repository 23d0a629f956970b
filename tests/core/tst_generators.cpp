// SPDX-License-Identifier: MIT
// Generators: reproducible, acyclic, and shaped as the papers describe.
#include "core/generators/generators.h"

#include <QTest>

using namespace sl;

class TestGenerators : public QObject {
    Q_OBJECT

private Q_SLOTS:
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

    // spec/topoformer.md §6.1 [CHECK] table: N=500 has 22-33 layers and ~2,533 edges (2,274-3,124).
    void layeredMatchesSpecStatistics() {
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

    void rejectsAbsurdSizes() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateInstance("layered", 0, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateInstance("erdos-renyi", 1'000'000, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateInstance("nope", 10, 1));
    }
};

QTEST_GUILESS_MAIN(TestGenerators)
#include "tst_generators.moc"
