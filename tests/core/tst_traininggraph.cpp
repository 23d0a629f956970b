// SPDX-License-Identifier: MIT
// Training graphs (core/graph/traininggraph.h): a hand-checked three-op network, the saved-tensor
// table, gradient accumulation, control dependencies, names, errors, and invariants over random
// graphs of several generators and a real ONNX model.
#include "core/costmodel/stepmemory.h"
#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"
#include "core/util/random.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <queue>
#include <set>

using namespace sl;

namespace {

/// conv (300 weight bytes) -> t1 (1000) -> relu -> t2 (1000) -> matmul (5000) -> t3 (10), the
/// graph output. Durations 5, 1.31, 3: the forward pass touches 9,310 bytes in 9.31 time units
/// (rate 0.001 per byte).
Graph threeOps() {
    Graph g;
    const OpId c = g.addOp({.name = "conv", .type = "Conv", .duration = 5, .paramBytes = 300});
    const OpId r = g.addOp({.name = "relu", .type = "Relu", .duration = 1.31});
    const OpId m = g.addOp({.name = "matmul", .type = "MatMul", .duration = 3, .paramBytes = 5000});
    g.addConsumer(g.addTensor("t1", c, 1000), r);
    g.addConsumer(g.addTensor("t2", r, 1000), m);
    g.addTensor("t3", m, 10);
    g.finalize();
    return g;
}

std::vector<std::string> consumerNames(const Graph& g, TensorId t) {
    std::vector<std::string> names;
    for (OpId c : g.tensor(t).consumers) names.push_back(g.op(c).name);
    std::sort(names.begin(), names.end());
    return names;
}

TensorId tensorNamed(const Graph& g, const std::string& name) {
    for (TensorId t = 0; t < g.tensorCount(); ++t)
        if (g.tensor(t).name == name) return t;
    return -1;
}

/// Memory during each step of `order` (the step clock, one device).
std::vector<double> stepProfile(const Graph& g, const std::vector<std::string>& order) {
    StepMemory mem(g, 1);
    mem.reset();
    std::vector<double> out;
    for (const auto& name : order) out.push_back(mem.step(g.findOp(name)));
    return out;
}

const std::vector<std::string> kThreeOpOrder{"conv", "relu", "matmul", "loss", "grad/matmul", "update/matmul",
                                             "grad/relu", "grad/conv", "update/conv"};

} // namespace

class TestTrainingGraph : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // 2n + 1 + p ops, in the documented id order, with the documented types and parameter bytes.
    void threeOpsHasTheDocumentedOps() {
        const Graph t = makeTrainingGraph(threeOps());
        QCOMPARE(t.opCount(), 2 * 3 + 1 + 2);
        const std::vector<std::string> names{"conv", "relu", "matmul", "loss", "grad/matmul", "grad/relu",
                                             "grad/conv", "update/matmul", "update/conv"};
        for (OpId v = 0; v < t.opCount(); ++v) QCOMPARE(t.op(v).name, names[static_cast<size_t>(v)]);
        QCOMPARE(t.op(t.findOp("grad/relu")).type, std::string("ReluGrad"));
        QCOMPARE(t.op(t.findOp("update/conv")).type, std::string("SgdUpdate"));
        QCOMPARE(t.op(t.findOp("loss")).type, std::string("Loss"));
        QCOMPARE(t.op(t.findOp("grad/matmul")).paramBytes, 5000.0);   // dX = dY W^T reads the weights
        QCOMPARE(t.op(t.findOp("grad/relu")).paramBytes, 0.0);
        QCOMPARE(t.op(t.findOp("update/matmul")).paramBytes, 5000.0);
        QCOMPARE(makeTrainingGraph(threeOps(), {.rule = UpdateRule::Adam}).op(t.findOp("update/matmul")).paramBytes, 15000.0);
    }

    // Which tensors the step keeps: Relu saves its output t2, MatMul its input t2; Conv's input is
    // the graph input (not a tensor), so t1 dies at relu.
    void threeOpsTensorsAndTheirReaders() {
        const Graph t = makeTrainingGraph(threeOps());
        QCOMPARE(t.tensorCount(), 3 + 3 + 2);
        using Names = std::vector<std::string>;
        QCOMPARE(consumerNames(t, tensorNamed(t, "t1")), (Names{"relu"}));
        QCOMPARE(consumerNames(t, tensorNamed(t, "t2")), (Names{"grad/matmul", "grad/relu", "matmul"}));
        QCOMPARE(consumerNames(t, tensorNamed(t, "t3")), (Names{"loss"}));
        struct Expected { const char* name; const char* producer; const char* consumer; double bytes; };
        for (const Expected& e : {Expected{"grad/t3", "loss", "grad/matmul", 10}, Expected{"grad/t2", "grad/matmul", "grad/relu", 1000},
                                  Expected{"grad/t1", "grad/relu", "grad/conv", 1000},
                                  Expected{"grad/matmul:params", "grad/matmul", "update/matmul", 5000},
                                  Expected{"grad/conv:params", "grad/conv", "update/conv", 300}}) {
            const TensorId x = tensorNamed(t, e.name);
            QVERIFY2(x >= 0, e.name);
            QCOMPARE(t.op(t.tensor(x).producer).name, std::string(e.producer));
            QCOMPARE(consumerNames(t, x), (Names{e.consumer}));
            QCOMPARE(t.tensor(x).bytes, e.bytes);
        }
    }

    // The step clock on the natural order, derived by hand (docs/training-graphs.md walks it):
    // at grad/matmul, t2 (1000) + grad/t3 (10) + grad/t2 (1000) + grad/matmul:params (5000) +
    // the weights (5000) = 12,010. Adam adds 2 x 5000 of state at update/matmul: 22,000.
    void threeOpsStepMemoryByHand() {
        const Graph sgd = makeTrainingGraph(threeOps());
        const std::vector<double> expectSgd{1300, 2000, 6010, 1020, 12010, 12000, 3000, 1600, 600};
        QCOMPARE(stepProfile(sgd, kThreeOpOrder), expectSgd);
        const Graph adam = makeTrainingGraph(threeOps(), {.rule = UpdateRule::Adam});
        const std::vector<double> expectAdam{1300, 2000, 6010, 1020, 12010, 22000, 3000, 1600, 1200};
        QCOMPARE(stepProfile(adam, kThreeOpOrder), expectAdam);
        // inference alone peaks at matmul: t2 + t3 + weights
        const Graph forward = threeOps();
        QCOMPARE(StepMemory(forward, 1).peak(std::vector<OpId>{0, 1, 2}), 6010.0);
    }

    void threeOpsDurations() {
        const Graph t = makeTrainingGraph(threeOps());
        auto duration = [&t](const char* name) { return t.op(t.findOp(name)).duration; };
        QCOMPARE(duration("grad/conv"), 10.0);
        QCOMPARE(duration("grad/relu"), 2.62);
        QCOMPARE(duration("grad/matmul"), 6.0);
        QCOMPARE(duration("loss"), 0.001 * 2 * 10);              // reads t3, writes grad/t3
        QCOMPARE(duration("update/matmul"), 0.001 * 3 * 5000);   // SGD: w and g in, w out
        const Graph adam = makeTrainingGraph(threeOps(), {.rule = UpdateRule::Adam});
        QCOMPARE(adam.op(adam.findOp("update/conv")).duration, 0.001 * 7 * 300);
        const Graph slow = makeTrainingGraph(threeOps(), {.backwardFactor = 3});
        QCOMPARE(slow.op(slow.findOp("grad/matmul")).duration, 9.0);
    }
};

QTEST_GUILESS_MAIN(TestTrainingGraph)
#include "tst_traininggraph.moc"
