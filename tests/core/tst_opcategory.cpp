// SPDX-License-Identifier: MIT
// The op-category classifier over ONNX, HLO and framework spellings, and the folding rule the graph
// view uses for weights and constants (on a hand-made graph and on the SSD-MobileNet HLO module).
#include "common/testmain.h"
#include "core/graph/opcategory.h"
#include "core/io/graphio.h"

#include <QtTest>

#include <algorithm>

using namespace sl;

Q_DECLARE_METATYPE(sl::OpCategory)

class TestOpCategory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void classifies_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<OpCategory>("expected");
        const std::pair<const char*, OpCategory> rows[] = {
            {"Conv", OpCategory::Convolution},         {"convolution", OpCategory::Convolution},
            {"ConvTranspose", OpCategory::Convolution}, {"Conv2D", OpCategory::Convolution},
            {"MatMul", OpCategory::MatMul},            {"Gemm", OpCategory::MatMul},
            {"dot", OpCategory::MatMul},               {"my_matmul_3", OpCategory::MatMul},
            {"Relu", OpCategory::Elementwise},         {"add", OpCategory::Elementwise},
            {"multiply", OpCategory::Elementwise},     {"clamp", OpCategory::Elementwise},
            {"Softmax", OpCategory::Elementwise},      {"logistic", OpCategory::Elementwise},
            {"BatchNormalization", OpCategory::Normalisation}, {"LayerNormalization", OpCategory::Normalisation},
            {"batch-norm-inference", OpCategory::Normalisation},
            {"MaxPool", OpCategory::Pooling},          {"GlobalAveragePool", OpCategory::Pooling},
            {"reduce-window", OpCategory::Pooling},
            {"Reshape", OpCategory::DataMovement},     {"transpose", OpCategory::DataMovement},
            {"concatenate", OpCategory::DataMovement}, {"Concat", OpCategory::DataMovement},
            {"slice", OpCategory::DataMovement},       {"Gather", OpCategory::DataMovement},
            {"broadcast", OpCategory::DataMovement},   {"convert", OpCategory::DataMovement},
            {"get-tuple-element", OpCategory::DataMovement},
            {"ReduceMean", OpCategory::Reduction},     {"reduce", OpCategory::Reduction},
            {"ArgMax", OpCategory::Reduction},
            {"fusion", OpCategory::Other},             {"while", OpCategory::Other},
            {"", OpCategory::Other},                   {"frobnicate", OpCategory::Other},
        };
        for (const auto& [type, category] : rows) QTest::newRow(type[0] ? type : "(empty)") << QString::fromLatin1(type) << category;
    }
    void classifies() {
        QFETCH(QString, type);
        QFETCH(OpCategory, expected);
        auto name = [](OpCategory c) { return QString::fromUtf8(toString(c).data()); };
        QCOMPARE(name(classifyOpType(type.toStdString())), name(expected));
        QCOMPARE(name(classifyOpType(type.toUpper().toStdString())), name(expected));   // case-insensitive
    }

    void legendNamesAreDistinct() {
        std::vector<std::string_view> names;
        for (int c = 0; c < kOpCategoryCount; ++c) names.push_back(toString(static_cast<OpCategory>(c)));
        std::sort(names.begin(), names.end());
        QVERIFY(std::adjacent_find(names.begin(), names.end()) == names.end());
        QVERIFY(toString(OpCategory::Other) == std::string_view("control / other"));
    }

    // c (constant) -> b (broadcast) -> x (add) <- r (reshape) <- in (Conv); x -> out (Relu)
    void foldsParameterLikeSourcesOnly() {
        Graph g;
        const OpId in = g.addOp({.name = "in", .type = "Conv"});
        const OpId c = g.addOp({.name = "c", .type = "constant"});
        const OpId b = g.addOp({.name = "b", .type = "broadcast"});
        const OpId r = g.addOp({.name = "r", .type = "reshape"});
        const OpId x = g.addOp({.name = "x", .type = "add"});
        const OpId out = g.addOp({.name = "out", .type = "Relu"});
        const OpId lone = g.addOp({.name = "lone", .type = "broadcast"});   // a sink: nothing to fold into
        g.addEdge(c, b);
        g.addEdge(b, x);
        g.addEdge(in, r);
        g.addEdge(r, x);
        g.addEdge(x, out);
        g.finalize();
        const auto f = foldableOps(g);
        QCOMPARE(std::vector<char>(f.begin(), f.end()), (std::vector<char>{0, 1, 1, 0, 0, 0, 0}));
        QVERIFY(!f[static_cast<size_t>(r)]);    // data movement of activations stays
        QVERIFY(!f[static_cast<size_t>(lone)]);
        const auto into = foldedInto(g, f);
        QCOMPARE(into[static_cast<size_t>(x)], (std::vector<OpId>{c, b}));
        QVERIFY(into[static_cast<size_t>(out)].empty());
        QVERIFY(into[static_cast<size_t>(b)].empty());
    }

    // the module's 124 broadcasts of dropped constants are sources; folded, they leave the chain
    void foldsTheSsdMobilenetBroadcasts() {
        const LoadedGraph ssd = loadGraph(std::string(SCHEDLAB_TEST_DATA) + "/hlo/ssd_mobilenet_tf.hlo");
        const Graph& g = *ssd.graph;
        const auto f = foldableOps(g);
        int folded = 0, sources = 0;
        for (OpId v = 0; v < g.opCount(); ++v) {
            folded += f[static_cast<size_t>(v)];
            sources += g.predecessors(v).empty();
            if (f[static_cast<size_t>(v)]) QVERIFY2(classifyOpType(g.op(v).type) == OpCategory::DataMovement, g.op(v).type.c_str());
        }
        QCOMPARE(g.opCount(), 330);
        QVERIFY2(folded >= 120, qPrintable(QString::number(folded)));
        QVERIFY2(sources - folded <= 3, qPrintable(QStringLiteral("%1 sources, %2 folded").arg(sources).arg(folded)));
    }
};

SCHEDLAB_TEST_MAIN(opcategory, TestOpCategory)
#include "tst_opcategory.moc"
