// SPDX-License-Identifier: MIT
// What a graph is, from its op types (core/graph/graphkind.h): the learned methods pick their
// weights by it. Real files of each kind, and the 90 % threshold by hand.
#include "common/testmain.h"
#include "core/generators/generators.h"
#include "core/graph/graphkind.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"

#include <QTest>

using namespace sl;

namespace {

const std::string kKindData = SCHEDLAB_TEST_DATA;

/// A chain of ten ops, the first `hlo` typed with HLO opcodes, the others with ONNX's.
Graph chainOfTypes(int hlo) {
    Graph g;
    OpId prev = kNoOp;
    for (int i = 0; i < 10; ++i) {
        const OpId v = g.addOp({.name = "n" + std::to_string(i), .type = i < hlo ? "fusion" : "Add", .duration = 1});
        if (prev != kNoOp) g.addEdge(prev, v, 4);
        prev = v;
    }
    g.finalize();
    return g;
}

}   // namespace

class TestGraphKind : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// The HLO dumps of tests/data are compiled steps; the ONNX models, a layered graph and an
    /// empty graph are not. Catches a rule that reads the file name, or one that takes ONNX's
    /// CamelCase types for HLO's (case-insensitive matching).
    void realFilesOfEachKind() {
        for (const char* hlo : {"/hlo/graphsage_tf.hlo", "/hlo/ssd_mobilenet_tf.hlo"})
            QVERIFY2(graphKind(*loadGraph(kKindData + hlo).graph) == GraphKind::CompiledStep, hlo);
        for (const char* onnx : {"/onnx/light_bvlc_alexnet.onnx", "/onnx/light_resnet50.onnx"})
            QVERIFY2(graphKind(*loadGraph(kKindData + onnx).graph) == GraphKind::Other, onnx);
        QVERIFY(graphKind(*generateLayered(60, 3).graph) == GraphKind::Other);
        Graph empty;
        empty.finalize();
        QVERIFY(graphKind(empty) == GraphKind::Other);
    }

    /// Nine of ten ops with HLO opcodes is a compiled step, eight is not (the threshold, by
    /// hand); the opcode list knows hyphenated and asynchronous opcodes and not ONNX's spellings.
    /// Catches an off-by-one threshold and a list that misses the opcodes HLO dumps are made of.
    void theThresholdAndTheOpcodes() {
        QVERIFY(graphKind(chainOfTypes(9)) == GraphKind::CompiledStep);
        QVERIFY(graphKind(chainOfTypes(8)) == GraphKind::Other);
        for (const char* op :
             {"get-tuple-element", "all-reduce-start", "dot", "parameter", "custom-call", "xor", "abs"})
            QVERIFY2(isHloOpcode(op), op);
        for (const char* op : {"Add", "Conv", "MatMul", "fusion ", "", "L3"}) QVERIFY2(!isHloOpcode(op), op);
    }

    /// A training step as core builds it (an ONNX model's and a generated graph's, SGD and Adam)
    /// is one; the forward graphs and the HLO dumps (compiled steps, with no "Loss" op) are not.
    /// Catches a rule that takes any graph with a loss-like or gradient-like op alone for a step.
    void trainingStepsAreTold() {
        const Graph resnet = *loadGraph(kKindData + "/onnx/light_resnet50.onnx").graph;
        const Graph layered = *generateLayered(60, 3).graph;
        for (const Graph* forward : {&resnet, &layered}) {
            QVERIFY(!isTrainingStep(*forward));
            for (UpdateRule rule : {UpdateRule::Sgd, UpdateRule::Adam})
                QVERIFY(isTrainingStep(makeTrainingGraph(*forward, {.rule = rule})));
        }
        QVERIFY(!isTrainingStep(*loadGraph(kKindData + "/hlo/graphsage_tf.hlo").graph));
        Graph lossOnly;   // a "Loss" op without gradients: not a step
        const OpId a = lossOnly.addOp({.name = "a", .type = "Conv", .duration = 1});
        lossOnly.addEdge(a, lossOnly.addOp({.name = "loss", .type = "Loss", .duration = 1}), 4);
        lossOnly.finalize();
        QVERIFY(!isTrainingStep(lossOnly));
    }
};

SCHEDLAB_TEST_MAIN(graphkind, TestGraphKind)
#include "tst_graphkind.moc"
