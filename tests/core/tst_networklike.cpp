// SPDX-License-Identifier: MIT
// The "nn" generator (core/generators/networklike.cpp): exactly N ops, reproducible, valid sizes,
// and the variety REGAL's training data needs (every block kind appears across seeds).
#include "common/testmain.h"
#include "core/generators/generators.h"

#include <QTest>

#include <cmath>
#include <map>
#include <set>

using namespace sl;

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
}

class TestNetworkLike : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches a block whose plan miscounts its ops (the generator throws), a head or stem of
    // another size, an off-by-one in the budget loop.
    void exactlyNOps_data() {
        QTest::addColumn<int>("nodes");
        for (int n : {8, 9, 20, 57, 120, 300}) QTest::addRow("%d", n) << n;
    }
    void exactlyNOps() {
        QFETCH(int, nodes);
        for (std::uint64_t seed = 1; seed <= 24; ++seed) {
            const auto inst = generateNetworkLike(nodes, seed);
            QCOMPARE(inst.graph->opCount(), nodes);
            QVERIFY(inst.graph->finalized());
            inst.platform.checkCompatible(*inst.graph);
        }
    }

    // Same seed: the same names, types, sizes, weights and durations; another seed: another graph.
    void reproducible() {
        const auto a = generateNetworkLike(150, 11), b = generateNetworkLike(150, 11), c = generateNetworkLike(150, 12);
        const Graph &ga = *a.graph, &gb = *b.graph;
        QCOMPARE(ga.tensorCount(), gb.tensorCount());
        bool differs = false;
        for (OpId v = 0; v < ga.opCount(); ++v) {
            QCOMPARE(ga.op(v).name, gb.op(v).name);
            QCOMPARE(ga.op(v).type, gb.op(v).type);
            QCOMPARE(ga.op(v).paramBytes, gb.op(v).paramBytes);
            QCOMPARE(ga.op(v).duration, gb.op(v).duration);
            differs = differs || ga.op(v).type != c.graph->op(v).type || ga.outputBytes(v) != c.graph->outputBytes(v);
        }
        for (TensorId t = 0; t < ga.tensorCount(); ++t) {
            QCOMPARE(ga.tensor(t).bytes, gb.tensor(t).bytes);
            QCOMPARE(ga.tensor(t).consumers, gb.tensor(t).consumers);
        }
        QVERIFY(differs);
    }

    // Whole bytes, activations at most 50 MiB with a first activation of 1 MiB or more, positive
    // durations, one graph output (the classifier's Softmax), weights on the Conv/Gemm/MatMul/norm
    // ops only. Catches unbounded widths (dense concats, widening residuals) and batch sizing.
    void sizesAreRealistic() {
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const auto inst = generateNetworkLike(200, seed);   // owns the graph
            const Graph& g = *inst.graph;
            double largest = 0;
            int outputs = 0;
            for (const Tensor& t : g.tensors()) {
                QVERIFY(t.bytes > 0 && t.bytes == std::floor(t.bytes));
                QVERIFY2(t.bytes <= 50 * kMiB, qPrintable(QStringLiteral("seed %1: %2 bytes").arg(seed).arg(t.bytes)));
                largest = std::max(largest, t.bytes);
                outputs += t.consumers.empty();
            }
            QVERIFY(largest >= kMiB);
            QCOMPARE(outputs, 1);
            QCOMPARE(g.op(g.opCount() - 1).type, std::string("Softmax"));
            for (const Op& o : g.ops()) {
                QVERIFY(o.duration > 0);
                static const std::set<std::string> weighted{"Conv", "Gemm", "MatMul", "BatchNormalization", "LayerNormalization"};
                if (o.paramBytes > 0) QVERIFY2(weighted.count(o.type), o.type.c_str());
            }
        }
    }

    // Across seeds every block kind shows: conv/BN/ReLU chains, residual Adds, concat branches,
    // squeeze-excitation (Sigmoid, Mul), attention (MatMul, Softmax, Split) and MLPs (Gelu); tensors
    // read by several ops (skips) and ops reading several tensors (joins).
    void variety() {
        std::set<std::string> types;
        int shared = 0, joins = 0, splits = 0;
        for (std::uint64_t seed = 1; seed <= 30; ++seed) {
            const auto inst = generateNetworkLike(150, seed);
            const Graph& g = *inst.graph;
            for (const Op& o : g.ops()) types.insert(o.type);
            for (const Tensor& t : g.tensors()) shared += t.consumers.size() > 1;
            for (OpId v = 0; v < g.opCount(); ++v) {
                joins += g.inputs(v).size() > 1;
                splits += g.outputs(v).size() == 3;
            }
        }
        for (const char* t : {"Conv", "BatchNormalization", "Relu", "Add", "Concat", "MaxPool", "AveragePool",
                              "GlobalAveragePool", "Sigmoid", "Mul", "MatMul", "Softmax", "Split", "Gelu",
                              "LayerNormalization", "Gemm", "Dropout"})
            QVERIFY2(types.count(t), t);
        QVERIFY(shared > 100);
        QVERIFY(joins > 100);
        QVERIFY(splits > 0);
    }

    void rejectsTooFewOps() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateNetworkLike(7, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateInstance("nn", 200'000, 1));
        QCOMPARE(generateInstance("nn", 40, 3).graph->opCount(), 40);
    }
};

SCHEDLAB_TEST_MAIN(networklike, TestNetworkLike)
#include "tst_networklike.moc"
