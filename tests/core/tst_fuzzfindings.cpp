// SPDX-License-Identifier: MIT
// Inputs the fuzz targets (tests/fuzz, docs/reliability.md) found crashing, each reduced and kept
// here as a plain unit test: the reader must refuse it with an IoError naming the fault, or read it
// into a graph that the writers take.
#include "common/testmain.h"
#include "common/protobufwriter.h"
#include "common/workedexample.h"
#include "core/io/graphio.h"
#include "core/io/scheduleio.h"

#include <QTest>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace sl;

namespace {

using test::field;   // tests/common/protobufwriter.h: small ONNX models by hand

/// ValueInfoProto: a tensor of INT64 (elem_type 7) with the given dims.
std::string int64Tensor(const std::string& name, const std::vector<std::uint64_t>& dims) {
    std::string shape;
    for (const std::uint64_t d : dims) shape += field(1, field(1, d));
    return field(1, name) + field(2, field(1, field(1, std::uint64_t{7}) + field(2, shape)));
}
/// NodeProto; `attributes` are already-encoded AttributeProtos.
std::string node(const std::string& op, const std::vector<std::string>& inputs, const std::string& output,
                 const std::string& attributes = {}) {
    std::string n;
    for (const auto& in : inputs) n += field(1, in);
    return n + field(2, output) + field(3, output) + field(4, op) + attributes;
}
std::string intAttribute(const std::string& name, std::uint64_t value) {
    return field(5, field(1, name) + field(3, value) + field(20, std::uint64_t{2}));   // type INT
}
/// TensorProto: INT64 values, 1-D (or a scalar when `scalar`).
std::string int64Initializer(const std::string& name, const std::vector<std::uint64_t>& values, bool scalar = false) {
    std::string t = scalar ? std::string() : field(1, std::uint64_t{values.size()});
    t += field(2, std::uint64_t{7});
    for (const std::uint64_t v : values) t += field(7, v);
    return t + field(8, name);
}
/// ModelProto (IR 8, opset 13): the nodes, the declared inputs and initializers, and "y" as the output.
std::string onnxModel(const std::vector<std::string>& nodes, const std::vector<std::string>& inputs,
                      const std::vector<std::string>& initializers = {}) {
    std::string graph;
    for (const auto& n : nodes) graph += field(1, n);
    graph += field(2, std::string("g"));
    for (const auto& t : initializers) graph += field(5, t);
    for (const auto& in : inputs) graph += field(11, in);
    graph += field(12, field(1, std::string("y")));
    return field(1, std::uint64_t{8}) + field(7, graph) + field(8, field(2, std::uint64_t{13}));
}

constexpr std::uint64_t kLong = 2147483647;

/// ValueInfoProto of a BOOL scalar (elem_type 9), an If's condition.
std::string boolScalar(const std::string& name) {
    return field(1, name) + field(2, field(1, field(1, std::uint64_t{9}) + field(2, std::string())));
}
/// NodeProto with several outputs, named by its first.
std::string nodeWithOutputs(const std::string& op, const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
                            const std::string& attributes = {}) {
    std::string n;
    for (const auto& in : inputs) n += field(1, in);
    for (const auto& out : outputs) n += field(2, out);
    return n + field(3, outputs.front()) + field(4, op) + attributes;
}
std::string intsAttribute(const std::string& name, const std::vector<std::uint64_t>& values) {
    std::string a = field(1, name);
    for (const std::uint64_t v : values) a += field(8, v);
    return field(5, a + field(20, std::uint64_t{7}));   // type INTS
}
/// A GRAPH attribute (If's branches): `nodes`, with `output` as the graph's output.
std::string graphAttribute(const std::string& name, const std::vector<std::string>& nodes, const std::string& output) {
    std::string g;
    for (const auto& n : nodes) g += field(1, n);
    g += field(2, name) + field(12, field(1, output));
    return field(5, field(1, name) + field(6, g) + field(20, std::uint64_t{5}));   // type GRAPH
}
/// Gather(x, x) `times` over: each doubles the rank (r + r - 1).
std::vector<std::string> gatherOfItself(int times) {
    std::vector<std::string> nodes;
    std::string in = "x";
    for (int i = 1; i <= times; ++i) {
        const std::string out = i == times ? "y" : "g" + std::to_string(i);
        nodes.push_back(node("Gather", {in, in}, out));
        in = out;
    }
    return nodes;
}

} // namespace

Q_DECLARE_METATYPE(sl::GraphFormat)
Q_DECLARE_METATYPE(std::string)

class TestFuzzFindings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void refusedWithAMessage_data() {
        QTest::addColumn<GraphFormat>("format");
        QTest::addColumn<std::string>("input");
        QTest::addColumn<QString>("message");
        // fuzz_dot: cgraph keeps non-UTF-8 bytes of a name; graphToJson then threw nlohmann's
        // type_error 316 ("invalid UTF-8 byte") out of convert, save and every schedule export
        QTest::addRow("dot: name with a Latin-1 byte")
            << GraphFormat::Dot << std::string("digraph { x -> \"y\xAB\" }") << QStringLiteral("is not valid UTF-8 (byte 0xAB");
        QTest::addRow("dot: truncated UTF-8 sequence")
            << GraphFormat::Dot << std::string("digraph { \"a\xC3\" -> b }") << QStringLiteral("op 0: name is not valid UTF-8");
        // fuzz_platform, fuzz_schedule: nlohmann's parser throws out_of_range 406, not parse_error,
        // for a number beyond a double; no reader caught it, so it escaped every JSON reader
        QTest::addRow("json: number beyond a double")
            << GraphFormat::Json << std::string(R"({"ops": [{"name": "a", "duration": 66666666660e1613963119}]})")
            << QStringLiteral("invalid JSON: number overflow parsing '66666666660e1613963119'");
        QTest::addRow("dot: surrogate in a type")
            << GraphFormat::Dot << std::string("digraph { a [type=\"\xED\xA0\x80\"] }") << QStringLiteral("op 0: type is not valid UTF-8");
    }

    void refusedWithAMessage() {
        QFETCH(GraphFormat, format);
        QFETCH(std::string, input);
        QFETCH(QString, message);
        try {
            const LoadedGraph g = parseGraph(input, format, "fuzz.in");
            QFAIL(qPrintable(QStringLiteral("read, and wrote %1 bytes of JSON")
                                 .arg(graphToJson(*g.graph, nullptr).size())));
        } catch (const IoError& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.startsWith(QStringLiteral("fuzz.in: ")) && what.contains(message), e.what());
        }
    }

    void jsonNumberBeyondADouble() {
        const char* platform = R"({"devices": [{"memory_bytes": 66666666660e1613963119}]})";
        try {
            parsePlatform(platform, "p.json");
            QFAIL("read");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).starts_with("p.json: invalid JSON: number overflow"), e.what());
        }
        const std::string schedule = R"({"ops": [], "makespan": 1e99999})";
        QCOMPARE(parseScheduleOrigin(schedule, "s.json").deviceCount, 0);
        try {
            parseScheduleJson(reference::gflownetWorkedExample(), schedule, "s.json");
            QFAIL("read");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).starts_with("s.json: not valid JSON: number overflow"), e.what());
        }
    }

    // found while fixing the above: a huge "graph".ops was cast to int (undefined behaviour)
    void scheduleOriginOpsCountIsBounded() {
        for (const char* ops : {"1e300", "-1", "2.5"}) {
            const std::string text = std::string(R"({"graph": {"ops": )") + ops + "}}";
            try {
                parseScheduleOrigin(text, "s.json");
                QFAIL(ops);
            } catch (const IoError& e) {
                QVERIFY2(std::string(e.what()).find("\"graph\".ops must be a whole number") != std::string::npos, e.what());
            }
        }
        QCOMPARE(parseScheduleOrigin(R"({"graph": {"ops": 4}})", "s.json").graphOps, 4);
    }

    // fuzz_onnx (structure-aware): a Conv with a stride of 0 reached libonnx's shape inference,
    // which divides by it: SIGFPE. AlexNet's first Conv has strides [4, 4]; make them [0, 0].
    void onnxZeroStrideRefused() {
        std::ifstream in(SCHEDLAB_TEST_DATA "/onnx/light_bvlc_alexnet.onnx", std::ios::binary);
        std::string model{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        const std::string strides("strides\x40\x04\x40\x04", 11);   // name, then two varint ints (field 8)
        const auto at = model.find(strides);
        QVERIFY(at != std::string::npos);
        model.replace(at, strides.size(), std::string("strides\x40\x00\x40\x00", 11));
        try {
            parseGraph(model, GraphFormat::Onnx, "alexnet.onnx");
            QFAIL("read");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).find("(Conv): attribute strides has 0, and must be at least 1") != std::string::npos,
                     e.what());
        }
    }

    // fuzz_onnx: ConstantOfShape whose declared shape input has 2^31 entries; libonnx's shape
    // inference built an output of that rank (over 2 GiB before any answer). The model, 74 bytes
    // from protoc --encode=onnx.ModelProto:
    //   ir_version: 8  opset_import { version: 13 }
    //   graph { node { input: "s" output: "y" name: "fill" op_type: "ConstantOfShape" }
    //           input { name: "s" type { tensor_type { elem_type: 7 shape { dim { dim_value: 2147483647 } } } } }
    //           output { name: "y" type { tensor_type { elem_type: 1 } } } name: "g" }
    void onnxHugeShapeInputRefused() {
        const QByteArray model = QByteArray::fromHex(
            "08083a420a1d0a01731201791a0466696c6c220f436f6e7374616e744f6653686170651201675a130a0173120e0a0c0807"
            "12080a0608ffffffff0762090a017912040a0208014202100d");
        try {
            parseGraph(std::string_view(model.constData(), std::size_t(model.size())), GraphFormat::Onnx, "rank.onnx");
            QFAIL("read");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).starts_with("rank.onnx: node 'fill' (ConstantOfShape): its shape input 's' has "
                                                       "2147483647 entries"), e.what());
        }
    }

    // The same rank, reached through other nodes (docs/reliability.md, "Fuzzing", fuzz_onnx): the
    // check above saw only a declared shape input, so libonnx inferred these lengths and built the
    // rank.
    void onnxLongShapeInputThroughNodesRefused_data() {
        QTest::addColumn<std::string>("model");
        QTest::addColumn<QString>("message");
        QTest::addRow("Identity")
            << onnxModel({node("Identity", {"s"}, "t"), node("ConstantOfShape", {"t"}, "y")}, {int64Tensor("s", {kLong})})
            << QStringLiteral("node 'y' (ConstantOfShape): its shape input 't' can have 2147483647 entries (through 's -> t'), "
                              "a rank beyond the 1024 this reader accepts");
        QTest::addRow("Concat of 600 + 600")
            << onnxModel({node("Concat", {"a", "b"}, "c", intAttribute("axis", 0)), node("Reshape", {"x", "c"}, "y")},
                         {int64Tensor("a", {600}), int64Tensor("b", {600}), int64Tensor("x", {1})})
            << QStringLiteral("node 'y' (Reshape): its shape input 'c' can have 1200 entries (through 'a -> c')");
        QTest::addRow("Shape of rank 1100")
            << onnxModel({node("Shape", {"x"}, "s"), node("Expand", {"x", "s"}, "y")},
                         {int64Tensor("x", std::vector<std::uint64_t>(1100, 1))})
            << QStringLiteral("node 'y' (Expand): its shape input 's' can have 1100 entries (through 'x -> s')");
        // lengths from known values: inference computes them from initializers and data propagation
        QTest::addRow("Range to 2^31")
            << onnxModel({node("Range", {"a", "b", "c"}, "r"), node("ConstantOfShape", {"r"}, "y")}, {},
                         {int64Initializer("a", {0}, true), int64Initializer("b", {kLong}, true), int64Initializer("c", {1}, true)})
            << QStringLiteral("node 'y' (ConstantOfShape): its shape input 'r' can have 4294967296 entries (through 'b -> r')");
        QTest::addRow("ConstantOfShape of ConstantOfShape")
            << onnxModel({node("ConstantOfShape", {"a"}, "r"), node("ConstantOfShape", {"r"}, "y")}, {}, {int64Initializer("a", {kLong})})
            << QStringLiteral("its shape input 'r' can have 2147483648 entries (through 'a -> r')");
        QTest::addRow("Reshape to an initializer")
            << onnxModel({node("Reshape", {"x", "a"}, "r"), node("ConstantOfShape", {"r"}, "y")}, {int64Tensor("x", {4})},
                         {int64Initializer("a", {kLong})})
            << QStringLiteral("its shape input 'r' can have 8589934592 entries (through 'a -> r')");
        QTest::addRow("Pad, Shape, ConstantOfShape")
            << onnxModel({node("Pad", {"x", "a"}, "p"), node("Shape", {"p"}, "s"), node("ConstantOfShape", {"s"}, "t"),
                          node("Relu", {"t"}, "r"), node("Reshape", {"x", "r"}, "y")},
                         {int64Tensor("x", {1})}, {int64Initializer("a", {0, kLong})})
            << QStringLiteral("node 'y' (Reshape): its shape input 'r' can have");
    }

    // What inference builds without a shape input (the remaining ONNX gaps): a rank that
    // grows node by node, a shape attribute, an op outside the bound table, a subgraph. Each read
    // before, libonnx building ranks of a thousand and more (millions, with longer inputs).
    void onnxInferredRankRefused_data() {
        QTest::addColumn<std::string>("model");
        QTest::addColumn<QString>("message");
        QTest::addRow("Gather of itself, 11 times")
            << onnxModel(gatherOfItself(11), {int64Tensor("x", {1, 1})})
            << QStringLiteral("node 'g10' (Gather): its output can have rank 2048, beyond the 1024 this reader accepts");
        QTest::addRow("RandomUniform's shape attribute")
            << onnxModel({node("RandomUniform", {}, "y", intsAttribute("shape", std::vector<std::uint64_t>(2000, 1)))}, {})
            << QStringLiteral("node 'y' (RandomUniform): attribute 'shape' has 2000 entries, beyond the 1024 this reader accepts");
        QTest::addRow("TopK's k, outside the table")
            << onnxModel({nodeWithOutputs("TopK", {"x", "k"}, {"v", "i"}), node("Reshape", {"z", "i"}, "y")},
                         {int64Tensor("x", {5000}), int64Tensor("z", {1})}, {int64Initializer("k", {2000})})
            << QStringLiteral("node 'y' (Reshape): its shape input 'i' can have");
        const std::string fill = node("ConstantOfShape", {"s"}, "t");
        QTest::addRow("If's branches")
            << onnxModel({node("If", {"c"}, "y", graphAttribute("then_branch", {fill}, "t") + graphAttribute("else_branch", {fill}, "t"))},
                         {boolScalar("c"), int64Tensor("s", {2000})})
            << QStringLiteral("node 't' (ConstantOfShape): its shape input 's' has 2000 entries, a rank beyond the 1024");
    }

    void onnxInferredRankRefused() {
        onnxLongShapeInputThroughNodesRefused();
    }

    void onnxLongShapeInputThroughNodesRefused() {
        QFETCH(std::string, model);
        QFETCH(QString, message);
        try {
            parseGraph(model, GraphFormat::Onnx, "rank.onnx");
            QFAIL("read");
        } catch (const IoError& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.startsWith(QStringLiteral("rank.onnx: ")) && what.contains(message), e.what());
        }
    }

    // what real exports do with shapes still reads: Shape, Gather, Unsqueeze, Concat into Reshape
    void onnxShortShapeChainStillReads() {
        const std::string model =
            onnxModel({node("Shape", {"x"}, "s"), node("Gather", {"s", "i"}, "n"), node("Unsqueeze", {"n", "axes"}, "u"),
                       node("Concat", {"u", "one"}, "c", intAttribute("axis", 0)), node("Reshape", {"x", "c"}, "y")},
                      {int64Tensor("x", {2, 3, 4, 5})},
                      {int64Initializer("i", {0}, true), int64Initializer("axes", {0}), int64Initializer("one", {1})});
        const LoadedGraph g = parseGraph(model, GraphFormat::Onnx, "chain.onnx");
        QCOMPARE(g.graph->ops().size(), std::size_t(5));
    }

    void validUtf8NamesStillRead() {
        const LoadedGraph g = parseGraph("digraph { \"\xC3\xA9t\xC3\xA9\" -> \"\xF0\x9F\x99\x82\" }", GraphFormat::Dot, "ok.dot");
        QCOMPARE(g.graph->ops().size(), std::size_t(2));
        QVERIFY(graphToJson(*g.graph, nullptr).find("\xF0\x9F\x99\x82") != std::string::npos);
    }
};

SCHEDLAB_TEST_MAIN(fuzzfindings, TestFuzzFindings)
#include "tst_fuzzfindings.moc"
