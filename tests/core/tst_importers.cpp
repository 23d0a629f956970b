// SPDX-License-Identifier: MIT
// Graph importers (core/io): real fixtures load with the facts their sources state, native JSON
// and DOT round-trip exactly, and broken files give an IoError naming the file and the fault.
#include "common/testmain.h"
#include "common/protobufwriter.h"
#include "core/io/graphio.h"
#include "core/util/atomicfile.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <functional>
#include <future>
#include <map>
#include <set>

using namespace sl;

namespace {

const std::string kData = SCHEDLAB_TEST_DATA;

std::string readText(const std::string& path) { return readFile(path); }

/// Longest path (sum of durations) through a finalized graph.
double longestPath(const Graph& g) {
    std::vector<double> finish(static_cast<size_t>(g.opCount()), 0.0);
    double best = 0;
    for (OpId v : g.topologicalOrder()) {
        double start = 0;
        for (OpId p : g.predecessors(v)) start = std::max(start, finish[static_cast<size_t>(p)]);
        finish[static_cast<size_t>(v)] = start + g.op(v).duration;
        best = std::max(best, finish[static_cast<size_t>(v)]);
    }
    return best;
}

/// Exact equality of two graphs: ops (all fields, same order) and tensors.
void compareGraphs(const Graph& a, const Graph& b) {
    QCOMPARE(b.opCount(), a.opCount());
    QCOMPARE(b.tensorCount(), a.tensorCount());
    QVERIFY(b.timeUnit() == a.timeUnit());
    for (OpId v = 0; v < a.opCount(); ++v) {
        const Op& x = a.op(v);
        const Op& y = b.op(v);
        QCOMPARE(y.name, x.name);
        QCOMPARE(y.type, x.type);
        QCOMPARE(y.duration, x.duration);
        QCOMPARE(y.paramBytes, x.paramBytes);
        QCOMPARE(y.resourceDemand, x.resourceDemand);
        QCOMPARE(y.machineType, x.machineType);
        QVERIFY(y.deviceDurations == x.deviceDurations);
    }
    for (TensorId t = 0; t < a.tensorCount(); ++t) {
        QCOMPARE(b.tensor(t).name, a.tensor(t).name);
        QCOMPARE(b.tensor(t).producer, a.tensor(t).producer);
        QVERIFY(b.tensor(t).consumers == a.tensor(t).consumers);
        QCOMPARE(b.tensor(t).bytes, a.tensor(t).bytes);
    }
}

/// A graph with awkward numbers and names: fractions, tiny and huge values, per-device
/// durations, a tensor with two consumers, a control tensor, a name with a space and a quote.
Graph awkwardGraph() {
    Graph g;
    const OpId a = g.addOp({.name = "conv 1", .type = "Conv", .duration = 1.0 / 3, .paramBytes = 3,
                            .resourceDemand = 0.25, .machineType = 1, .deviceDurations = {0.1, 2.5e14}});
    const OpId b = g.addOp({.name = "say \"hi\"", .type = "", .duration = 7, .paramBytes = 123456789012.0});
    const OpId c = g.addOp({.name = "c", .type = "Relu", .duration = 0, .machineType = 0, .deviceDurations = {3, 4}});
    const OpId d = g.addOp({.name = "d", .type = "Add", .duration = 2.2250738585072014e-308});
    const TensorId t = g.addTensor("x", a, 4097);
    g.addConsumer(t, b);
    g.addConsumer(t, c);
    g.addEdge(b, d, 0);
    g.addEdge(c, d, 1e12 + 1);   // bytes are whole numbers
    g.finalize();
    return g;
}

Platform awkwardPlatform() {
    Platform p;
    p.devices.push_back({.name = "gpu 0", .machineType = 1, .memoryCapacity = 16e9, .resourceCapacity = 1});
    p.devices.push_back({.name = "cpu", .machineType = 0, .memoryCapacity = kInfinity, .resourceCapacity = 2.5});
    p.link = {.latency = 0.125, .bandwidth = 1.0 / 7};
    return p;
}

void comparePlatforms(const Platform& a, const Platform& b) {
    QCOMPARE(b.deviceCount(), a.deviceCount());
    for (int d = 0; d < a.deviceCount(); ++d) {
        QCOMPARE(b.devices[static_cast<size_t>(d)].name, a.devices[static_cast<size_t>(d)].name);
        QCOMPARE(b.devices[static_cast<size_t>(d)].machineType, a.devices[static_cast<size_t>(d)].machineType);
        QCOMPARE(b.devices[static_cast<size_t>(d)].memoryCapacity, a.devices[static_cast<size_t>(d)].memoryCapacity);
        QCOMPARE(b.devices[static_cast<size_t>(d)].resourceCapacity, a.devices[static_cast<size_t>(d)].resourceCapacity);
    }
    QCOMPARE(b.link.latency, a.link.latency);
    QCOMPARE(b.link.bandwidth, a.link.bandwidth);
}

using test::field;   // tests/common/protobufwriter.h: hand-crafted ONNX models for the error tests
/// ModelProto: x (float[dim]) -> Relu -> ... -> Relu -> y, one node per name, opset 13.
std::string reluModel(std::uint64_t dim, const std::vector<std::string>& names = {"relu"}) {
    const std::string shape = field(1, field(1, dim));                    // TensorShapeProto.dim.dim_value
    const std::string type = field(1, field(1, std::uint64_t{1}) + field(2, shape));   // tensor_type{elem_type=FLOAT, shape}
    const std::string input = field(1, std::string("x")) + field(2, type);
    std::string graph;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string in = i == 0 ? "x" : "v" + std::to_string(i);
        const std::string out = i + 1 == names.size() ? "y" : "v" + std::to_string(i + 1);
        std::string node = field(1, in) + field(2, out);
        if (!names[i].empty()) node += field(3, names[i]);
        graph += field(1, node + field(4, std::string("Relu")));
    }
    graph += field(2, std::string("g")) + field(11, input) + field(12, field(1, std::string("y")));
    return field(1, std::uint64_t{7}) + field(7, graph) + field(8, field(1, std::string()) + field(2, std::uint64_t{13}));
}

} // namespace

class TestImporters : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string write(const std::string& name, const std::string& content) {
        const std::string path = QDir(m_dir.path()).filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }

    /// loadGraph(path) must throw IoError whose message names the file and contains every `needle`.
    void expectError(const std::string& path, std::initializer_list<const char*> needles,
                     GraphFormat format = GraphFormat::Auto) {
        const std::string file = path.substr(path.find_last_of('/') + 1);
        try {
            loadGraph(path, format);
        } catch (const IoError& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(QString::fromStdString(path)), qPrintable("does not start with the path: " + msg));
            QVERIFY2(msg.contains(QString::fromStdString(file)), qPrintable(msg));
            for (const char* n : needles)
                QVERIFY2(msg.contains(QString::fromUtf8(n), Qt::CaseInsensitive),
                         qPrintable(QStringLiteral("'%1' not in: %2").arg(QString::fromUtf8(n), msg)));
            return;
        }
        QFAIL(qPrintable(QString::fromStdString("no IoError for " + file)));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // ---------------- job-shop ----------------
    void jobShopFt06() {
        const LoadedGraph lg = loadGraph(kData + "/jobshop/ft06.txt");
        QCOMPARE(lg.format, GraphFormat::JobShop);
        const Graph& g = *lg.graph;
        QVERIFY(g.finalized());
        QCOMPARE(g.opCount(), 36);
        QCOMPARE(g.edgeCount(), 30);   // 6 chains of 6
        std::set<int> types;
        for (const Op& o : g.ops()) types.insert(o.machineType);
        QCOMPARE(static_cast<int>(types.size()), 6);
        // ft06 line 2: "2  1  0  3  1  6 ..." - job 0 runs on machine 2 for 1, then machine 0 for 3
        const OpId first = g.findOp("j0_o0");
        QVERIFY(first != kNoOp);
        QCOMPARE(g.op(first).machineType, 2);
        QCOMPARE(g.op(first).duration, 1.0);
        const OpId second = g.findOp("j0_o1");
        QCOMPARE(g.op(second).machineType, 0);
        QCOMPARE(g.op(second).duration, 3.0);
        QVERIFY(g.successors(first).size() == 1 && g.successors(first)[0] == second);
        // last line: "1  3  3  3  5  9  0 10  4  4  2  1" - job 5's last op is machine 2 for 1
        QCOMPARE(g.op(g.findOp("j5_o5")).machineType, 2);
        QCOMPARE(g.op(g.findOp("j5_o3")).duration, 10.0);
        QCOMPARE(g.findOp("J0.0"), kNoOp);
        QVERIFY(lg.platform);
        QCOMPARE(lg.platform->deviceCount(), 6);
        for (int m = 0; m < 6; ++m) {
            QCOMPARE(lg.platform->devices[static_cast<size_t>(m)].machineType, m);
            QCOMPARE(lg.platform->devices[static_cast<size_t>(m)].resourceCapacity, 1.0);
        }
        lg.platform->checkCompatible(g);
        QCOMPARE(g.totalWork(), 197.0);   // sum of ft06's durations
    }

    void jobShopAllFixtures_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("ops");
        QTest::newRow("ft10") << "ft10" << 100;
        for (const char* la : {"la01", "la02", "la03", "la04", "la05"}) QTest::newRow(la) << la << 50;
    }
    void jobShopAllFixtures() {
        QFETCH(QString, name);
        QFETCH(int, ops);
        const LoadedGraph lg = loadGraph(kData + "/jobshop/" + name.toStdString() + ".txt");
        QCOMPARE(lg.graph->opCount(), ops);
        lg.platform->checkCompatible(*lg.graph);
        // each job visits each machine once (docs/formats.md, "Format details we rely on")
        const int machines = lg.platform->deviceCount();
        for (int j = 0; j * machines < ops; ++j) {
            std::set<int> seen;
            for (int k = 0; k < machines; ++k)
                seen.insert(lg.graph->op(lg.graph->findOp("j" + std::to_string(j) + "_o" + std::to_string(k))).machineType);
            QCOMPARE(static_cast<int>(seen.size()), machines);
        }
    }

    // ---------------- STG ----------------
    void stgFiles_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : QDir(QString::fromStdString(kData + "/stg")).entryList({QStringLiteral("*.stg")}))
            QTest::newRow(qPrintable(f)) << f;
        QVERIFY(QDir(QString::fromStdString(kData + "/stg")).entryList({QStringLiteral("*.stg")}).size() >= 20);
    }
    void stgFiles() {
        QFETCH(QString, file);
        const std::string path = kData + "/stg/" + file.toStdString();
        const std::string text = readText(path);
        const int tasks = std::stoi(text);
        const LoadedGraph lg = loadGraph(path);
        QCOMPARE(lg.format, GraphFormat::Stg);
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), tasks + 2);
        QCOMPARE(g.op(0).name, std::string("0"));
        QCOMPARE(g.op(0).duration, 0.0);
        QCOMPARE(g.op(g.opCount() - 1).name, std::to_string(tasks + 1));
        QCOMPARE(g.op(g.opCount() - 1).duration, 0.0);
        for (const Tensor& t : g.tensors()) QCOMPARE(t.bytes, 0.0);
        QVERIFY(!lg.platform);
        const QRegularExpression cp(QStringLiteral("CP Length\\s*:\\s*(\\d+)"));
        const auto m = cp.match(QString::fromStdString(text));
        if (m.hasMatch()) QCOMPARE(longestPath(g), m.captured(1).toDouble());
        if (file == QLatin1String("rand0000.stg")) {
            QVERIFY(m.hasMatch());
            QCOMPARE(longestPath(g), 55.0);   // rand0000's footer: "CP Length : 55"
            QCOMPARE(g.op(1).duration, 9.0);  // "1  9  1  0"
            QCOMPARE(g.predecessors(1).size(), size_t(1));
            QCOMPARE(g.predecessors(1)[0], 0);
        }
    }

    void stgAndJobShopVariants() {
        // header counting the dummies (robot/fpppp style), a predecessor list wrapped over two lines
        const LoadedGraph stg = parseGraph("4\n0 0 0\n1 5 1 0\n2 7 2\n 0 1\n3 0 1 2\n# CP Length : 12\n",
                                           GraphFormat::Stg, "wrapped.stg");
        QCOMPARE(stg.graph->opCount(), 4);
        QCOMPARE(stg.graph->predecessors(2).size(), size_t(2));
        QCOMPARE(longestPath(*stg.graph), 12.0);
        QVERIFY(stg.warnings.empty());
        // dummies that are not zero-time: loaded, with a warning
        QCOMPARE(parseGraph("1\n0 1 0\n1 2 1 0\n2 0 1 1\n", GraphFormat::Stg, "w.stg").warnings.size(), size_t(1));
        // job-shop: comment and blank lines, decimal durations
        const LoadedGraph js = parseGraph("# a comment\n\n2 2\n0 1.5 1 2\n\n1 3 0 4\n", GraphFormat::JobShop, "c.txt");
        QCOMPARE(js.graph->opCount(), 4);
        QCOMPARE(js.graph->op(js.graph->findOp("j0_o0")).duration, 1.5);
        QCOMPARE(js.graph->op(js.graph->findOp("j1_o1")).machineType, 0);
        QCOMPARE(js.platform->deviceCount(), 2);
    }

    // ---------------- native JSON and platform ----------------
    void nativeJsonRoundTrip() {
        const Graph g = awkwardGraph();
        const Platform p = awkwardPlatform();
        const std::string text = graphToJson(g, &p);
        const LoadedGraph back = parseGraph(text, GraphFormat::Json, "mem.json");
        compareGraphs(g, *back.graph);
        QVERIFY(back.platform);
        comparePlatforms(p, *back.platform);
        QCOMPARE(graphToJson(*back.graph, &*back.platform), text);   // byte-identical second write
        // job-shop graph + platform through a file, with format detection
        const LoadedGraph ft06 = loadGraph(kData + "/jobshop/ft06.txt");
        const std::string path = QDir(m_dir.path()).filePath(QStringLiteral("ft06.json")).toStdString();
        saveGraphJson(*ft06.graph, &*ft06.platform, path);
        QCOMPARE(graphFormatFromPath(path), GraphFormat::Json);
        const LoadedGraph again = loadGraph(path);
        QCOMPARE(again.format, GraphFormat::Json);
        compareGraphs(*ft06.graph, *again.graph);
        comparePlatforms(*ft06.platform, *again.platform);
        // without a platform: none comes back
        QVERIFY(!parseGraph(graphToJson(g, nullptr), GraphFormat::Json, "x.json").platform);
    }

    /// Each format's documented unit, and the native JSON keeps a non-default one.
    void timeUnits() {
        QVERIFY(loadGraph(kData + "/jobshop/ft06.txt").graph->timeUnit() == TimeUnit::Abstract);
        QVERIFY(loadGraph(kData + "/onnx/light_squeezenet.onnx").graph->timeUnit() == TimeUnit::Microseconds);
        QVERIFY(loadGraph(kData + "/hlo/graphsage_tf.hlo").graph->timeUnit() == TimeUnit::Microseconds);
        QVERIFY(loadGraph(kData + "/wfcommons/blast-chameleon-small-001.json").graph->timeUnit() == TimeUnit::Seconds);
        Graph g = awkwardGraph();
        g.setTimeUnit(TimeUnit::Seconds);
        const std::string text = graphToJson(g, nullptr);
        QVERIFY(text.find("\"time_unit\": \"s\"") != std::string::npos);
        QVERIFY(parseGraph(text, GraphFormat::Json, "s.json").graph->timeUnit() == TimeUnit::Seconds);
        try {
            parseGraph(R"({"format": "schedlab-graph", "time_unit": "ms", "ops": [{"name": "a", "duration": 1}]})", GraphFormat::Json, "ms.json");
            QFAIL("an unknown time unit was accepted");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).find("ms.json") != std::string::npos && std::string(e.what()).find("time_unit") != std::string::npos, e.what());
        }
    }

    void platformJsonRoundTrip() {
        const Platform p = awkwardPlatform();
        const std::string text = platformToJson(p);
        comparePlatforms(p, parsePlatform(text, "p.json"));
        const Platform minimal = parsePlatform(R"({"devices": [{"name": "a"}, {}]})", "m.json");
        QCOMPARE(minimal.deviceCount(), 2);
        QCOMPARE(minimal.devices[1].name, std::string("dev1"));
        QCOMPARE(minimal.devices[0].memoryCapacity, kInfinity);
        QCOMPARE(minimal.link.bandwidth, kInfinity);
        const std::string bad = write("badplatform.json", R"({"devices": []})");
        try {
            loadPlatform(bad);
            QFAIL("empty device list accepted");
        } catch (const IoError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("badplatform.json")), e.what());
        }
        const std::string neg = write("negplatform.json", R"({"devices": [{"memory_bytes": -1}]})");
        QVERIFY_THROWS_EXCEPTION(IoError, loadPlatform(neg));
        const std::string typed = write("typedplatform.json", R"({"devices": [{"name": 3}]})");
        QVERIFY_THROWS_EXCEPTION(IoError, loadPlatform(typed));
    }

    // ---------------- DOT ----------------
    void dotRoundTrip() {
        const Graph g = awkwardGraph();
        const std::string dot = graphToDot(g);
        const LoadedGraph back = parseGraph(dot, GraphFormat::Dot, "g.dot");
        compareGraphs(g, *back.graph);
        // through a file, format from the extension
        const std::string path = write("awkward.gv", dot);
        QCOMPARE(graphFormatFromPath(path), GraphFormat::Dot);
        compareGraphs(g, *loadGraph(path).graph);
        // the ft06 chain survives DOT too
        const LoadedGraph ft06 = loadGraph(kData + "/jobshop/ft06.txt");
        compareGraphs(*ft06.graph, *parseGraph(graphToDot(*ft06.graph), GraphFormat::Dot, "ft06.dot").graph);
    }

    void dotHandWritten() {
        const std::string path = write("hand.dot", R"(digraph G {
            subgraph cluster0 { a [duration=2, type=Conv]; }
            a -> b [bytes=100];
            a -> c [bytes=100];
            b -> d; c -> d [bytes=5];
        })");
        const LoadedGraph lg = loadGraph(path);
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), 4);
        QCOMPARE(g.tensorCount(), 4);
        QCOMPARE(g.op(g.findOp("a")).duration, 2.0);
        QCOMPARE(g.op(g.findOp("a")).type, std::string("Conv"));
        QCOMPARE(g.outputBytes(g.findOp("a")), 200.0);
        QCOMPARE(lg.warnings.size(), size_t(1));   // b, c, d have no duration
        QVERIFY(QString::fromStdString(lg.warnings[0]).contains(QStringLiteral("3 ops")));
    }

    // ---------------- ONNX ----------------
    void onnxModels_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("ops");   // nodes minus the ConstantOfShape weight makers (docs/formats.md, ONNX)
        QTest::addColumn<QString>("lastType");
        QTest::newRow("alexnet") << "light_bvlc_alexnet.onnx" << 40 - 16 << "Softmax";
        QTest::newRow("squeezenet") << "light_squeezenet.onnx" << 105 - 39 << "Softmax";
        QTest::newRow("resnet50") << "light_resnet50.onnx" << 415 - 239 << "Softmax";
    }
    void onnxModels() {
        QFETCH(QString, file);
        QFETCH(int, ops);
        QFETCH(QString, lastType);
        const LoadedGraph lg = loadGraph(kData + "/onnx/" + file.toStdString());
        QCOMPARE(lg.format, GraphFormat::Onnx);
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), ops);
        QVERIFY2(lg.warnings.empty(), lg.warnings.empty() ? "" : lg.warnings[0].c_str());
        double params = 0;
        for (const Tensor& t : g.tensors()) QVERIFY2(t.bytes > 0, t.name.c_str());
        for (const Op& o : g.ops()) {
            params += o.paramBytes;
            QVERIFY(o.duration > 0 || o.type == "Reshape" || o.type == "Dropout");
            if (o.type == "Conv") QVERIFY2(o.paramBytes > 0, o.name.c_str());
            QVERIFY(!o.name.empty());
        }
        QVERIFY(params > 1e6);
        // one sink: the classifier's softmax, whose output is the declared [1, 1000] float graph output
        const OpId last = g.topologicalOrder().back();
        QCOMPARE(QString::fromStdString(g.op(last).type), lastType);
        QCOMPARE(g.outputBytes(last), 4000.0);
        // the input is float [1, 3, 224, 224]: the first op reads it, its output is an activation
        QVERIFY(g.outputBytes(g.topologicalOrder().front()) > 1e5);
    }

    void onnxAlexNetNumbers() {
        const LoadedGraph lg = loadGraph(kData + "/onnx/light_bvlc_alexnet.onnx");
        const Graph& g = *lg.graph;
        // bvlc AlexNet: conv1 has 96 filters 11x11x3 (+96 biases) and gives 96 x 54 x 54 floats;
        // fc6 is a 9216 -> 4096 Gemm: 37.7M weights.
        const OpId conv1 = g.topologicalOrder().front();
        QCOMPARE(g.op(conv1).type, std::string("Conv"));
        QCOMPARE(g.op(conv1).paramBytes, (96.0 * 3 * 11 * 11 + 96) * 4);
        QCOMPARE(g.outputBytes(conv1), 96.0 * 54 * 54 * 4);
        double maxParams = 0, totalParams = 0;
        for (const Op& o : g.ops()) {
            maxParams = std::max(maxParams, o.paramBytes);
            totalParams += o.paramBytes;
        }
        QCOMPARE(maxParams, (9216.0 * 4096 + 4096) * 4);
        QVERIFY(totalParams > 60e6 * 4 && totalParams < 62e6 * 4);   // AlexNet: ~61M parameters
        // conv1 FLOPs: 2 x 96*54*54 outputs x 363 MACs = 203 MFLOP -> 203 us at 1 TFLOP/s
        QVERIFY(std::abs(g.op(conv1).duration - 2.0 * 96 * 54 * 54 * 363 / 1e6) < 1.0);
    }

    void onnxHandCrafted() {
        // control: the writer makes a valid model
        const LoadedGraph ok = loadGraph(write("relu.onnx", reluModel(10)));
        QCOMPARE(ok.graph->opCount(), 1);
        QCOMPARE(ok.graph->op(0).name, std::string("relu"));
        QCOMPARE(ok.graph->outputBytes(0), 40.0);
        // unnamed nodes are <op_type>_<index>; a repeated name gets _<index> and a warning
        const LoadedGraph named = loadGraph(write("names.onnx", reluModel(10, {"", "a", "a", ""})));
        QCOMPARE(named.graph->opCount(), 4);
        QCOMPARE(named.graph->op(0).name, std::string("Relu_0"));
        QCOMPARE(named.graph->op(1).name, std::string("a"));
        QCOMPARE(named.graph->op(2).name, std::string("a_2"));
        QCOMPARE(named.graph->op(3).name, std::string("Relu_3"));
        QCOMPARE(named.warnings.size(), size_t(1));
        QCOMPARE(named.graph->edgeCount(), 3);
        QCOMPARE(named.graph->outputBytes(3), 40.0);   // y, a graph output
        // a dimension of 10^15 four-byte elements (4 PB) is refused with a clear message
        expectError(write("huge.onnx", reluModel(1'000'000'000'000'000ull)), {"tensor 'x'", "elements", "limit"});
    }

    // ---------------- WfCommons ----------------
    void wfcommonsBlast() {
        const std::string path = kData + "/wfcommons/blast-chameleon-small-001.json";
        QCOMPARE(graphFormatFromPath(path), GraphFormat::WfCommons);
        const LoadedGraph lg = loadGraph(path);
        QCOMPARE(lg.format, GraphFormat::WfCommons);
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), 43);
        QVERIFY(lg.warnings.empty());
        const OpId split = g.findOp("split_fasta_ID000001");
        QVERIFY(split != kNoOp);
        QCOMPARE(g.op(split).duration, 0.054023);   // execution.tasks[0].runtimeInSeconds
        QCOMPARE(g.op(split).type, std::string("split_fasta"));
        QCOMPARE(static_cast<int>(g.successors(split).size()), 40);   // splits to 40 blastall tasks
        QVERIFY(g.outputBytes(split) > 0);
        // split_fasta writes small.fasta.0 (6 bytes), which blastall_ID000002 reads
        const OpId blast2 = g.findOp("blastall_ID000002");
        bool found = false;
        for (TensorId t : g.outputs(split))
            if (g.tensor(t).name == "small.fasta.0") {
                found = true;
                QCOMPARE(g.tensor(t).bytes, 6.0);
                QVERIFY(g.tensor(t).consumers == std::vector<OpId>{blast2});
            }
        QVERIFY(found);
        // workflow inputs (files no task writes) are parameter bytes: the blastall binary and the nt database
        QCOMPARE(g.op(blast2).paramBytes, 7688.0 + 5112425635.0);
        QCOMPARE(static_cast<int>(g.predecessors(g.findOp("cat_blast_ID000042")).size()), 40);
        int withRuntime = 0;
        for (const Op& o : g.ops()) withRuntime += o.duration > 0;
        QCOMPARE(withRuntime, 43);
        QCOMPARE(static_cast<int>(g.topologicalOrder().size()), 43);
    }

    void wfcommonsSchema14() {
        // flat 1.4 layout: parents by name, ids short, files inline
        const std::string path = write("flat.json", R"({"schemaVersion": "1.4", "workflow": {"tasks": [
            {"name": "mProject_ID1", "id": "ID1", "runtimeInSeconds": 2.5, "category": "mProject", "parents": [],
             "children": ["mAdd_ID2"], "files": [{"link": "input", "name": "raw.fits", "sizeInBytes": 7},
                                               {"link": "output", "name": "p.fits", "sizeInBytes": 1000}]},
            {"name": "mAdd_ID2", "id": "ID2", "runtimeInSeconds": 1, "parents": ["mProject_ID1"], "children": [],
             "files": [{"link": "input", "name": "p.fits", "sizeInBytes": 1000}]}]}})");
        const LoadedGraph lg = loadGraph(path);
        QCOMPARE(lg.format, GraphFormat::WfCommons);
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), 2);
        QCOMPARE(g.op(0).name, std::string("ID1"));
        QCOMPARE(g.op(0).duration, 2.5);
        QCOMPARE(g.op(0).type, std::string("mProject"));
        QCOMPARE(g.op(0).paramBytes, 7.0);   // workflow input file
        QCOMPARE(g.tensorCount(), 1);
        QCOMPARE(g.tensor(0).name, std::string("p.fits"));
        QCOMPARE(g.tensor(0).bytes, 1000.0);
        QCOMPARE(g.tensor(0).consumers.size(), size_t(1));
    }

    // ---------------- XLA HLO ----------------
    void hloModules() {
        // ssd_mobilenet: 508 ENTRY instructions, of which 177 constants and 1 parameter
        const LoadedGraph ssd = loadGraph(kData + "/hlo/ssd_mobilenet_tf.hlo");
        QCOMPARE(ssd.format, GraphFormat::Hlo);
        const Graph& g = *ssd.graph;
        QCOMPARE(g.opCount(), 508 - 177 - 1);
        // line 66: %Conv2D.69 = bf16[1,150,150,32] convolution(%sub.6, %Conv2D.68) with the constant
        // kernel bf16[3,3,3,32]: 1.44 MB out, 1,728 parameter bytes, 2 x 720,000 x 27 FLOPs
        const OpId conv = g.findOp("Conv2D.69");
        QVERIFY(conv != kNoOp);
        QCOMPARE(g.op(conv).type, std::string("convolution"));
        QCOMPARE(g.outputBytes(conv), 150.0 * 150 * 32 * 2);
        QCOMPARE(g.op(conv).paramBytes, 3.0 * 3 * 3 * 32 * 2);
        QCOMPARE(g.op(conv).duration, 2.0 * 720000 * 27 / 1e6);
        QCOMPARE(g.predecessors(conv).size(), size_t(1));
        QCOMPARE(g.op(g.predecessors(conv)[0]).name, std::string("sub.6"));
        QCOMPARE(g.findOp("Conv2D.68"), kNoOp);   // constants are weights, not ops
        QCOMPARE(g.op(g.topologicalOrder().back()).name, std::string("XLA_Retvals.5"));
        for (const Tensor& t : g.tensors())   // folded ops (tuple, get-tuple-element, bitcasts) own no buffer
            if (g.op(t.producer).work.opClass != OpClass::Alias) QVERIFY2(t.bytes > 0, t.name.c_str());

        // graphsage: 126 instructions, 32 constants, 3 parameters; the ROOT is a get-tuple-element
        const LoadedGraph sage = loadGraph(kData + "/hlo/graphsage_tf.hlo");
        QCOMPARE(sage.graph->opCount(), 126 - 32 - 3);
        // %MatMul_1.10 = bf16[1,128] dot(bf16[1,50], constant bf16[50,128]), lhs_contracting_dims={1}
        const Graph& h = *sage.graph;
        const OpId dot = h.findOp("MatMul_1.10");
        QCOMPARE(h.op(dot).paramBytes, 50.0 * 128 * 2);
        QCOMPARE(h.outputBytes(dot), 256.0);
        // memory bound: (100 in + 12,800 weights + 256 out) bytes at 1e5 B/us beats 12,800 FLOPs at 1e6/us
        QCOMPARE(h.op(dot).duration, (100.0 + 12800 + 256) / 1e5);
    }

    /// XLA dumps HLO text as *.hlo.txt: the content decides, a job-shop .txt stays job-shop.
    void hloTextDumpByContent() {
        std::ifstream in(kData + "/hlo/graphsage_tf.hlo", std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string path = write("module.hlo.txt", text);
        QCOMPARE(graphFormatFromPath(path), GraphFormat::Hlo);
        QCOMPARE(loadGraph(path).graph->opCount(), loadGraph(kData + "/hlo/graphsage_tf.hlo").graph->opCount());
        QCOMPARE(graphFormatFromPath(kData + "/jobshop/ft06.txt"), GraphFormat::JobShop);
    }

    void hloFaults() {
        const std::string text = readText(kData + "/hlo/graphsage_tf.hlo");
        expectError(write("trunc.hlo", text.substr(0, text.size() / 2)), {"ENTRY", "not closed", "truncated"});
        expectError(write("undef.hlo", "HloModule m\n\nENTRY %e (a: f32[2]) -> f32[2] {\n  %a = f32[2]{0} parameter(0)\n"
                                       "  ROOT %b = f32[2]{0} add(%a, %ghost)\n}\n"),
                    {"undef.hlo:5:", "'b'", "%ghost"});
        expectError(write("huge.hlo", "HloModule m\nENTRY %e () -> f32[] {\n  ROOT %c = f32[1000000000000000]{0} iota(), iota_dimension=0\n}\n"),
                    {"huge.hlo:3:", "1000000000000000", "limit"});
        expectError(write("neg.hlo", "HloModule m\nENTRY %e () -> f32[] {\n  ROOT %c = f32[-5]{0} iota(), iota_dimension=0\n}\n"),
                    {"neg.hlo:3:", "'-5'"});
        expectError(write("nomodule.hlo", "ENTRY %e () -> f32[] {\n}\n"), {"nomodule.hlo:1:", "HloModule"});
        expectError(write("cycle.hlo", "HloModule m\nENTRY %e () -> f32[] {\n  %a = f32[] negate(%b)\n  ROOT %b = f32[] negate(%a)\n}\n"),
                    {"cycle", "a, b"});
    }

    void formatDetection() {
        QCOMPARE(graphFormatFromPath("a.txt"), GraphFormat::JobShop);
        QCOMPARE(graphFormatFromPath("a.jss"), GraphFormat::JobShop);
        QCOMPARE(graphFormatFromPath("a.STG"), GraphFormat::Stg);
        QCOMPARE(graphFormatFromPath("a.onnx"), GraphFormat::Onnx);
        QCOMPARE(graphFormatFromPath("a.hlo"), GraphFormat::Hlo);
        QCOMPARE(graphFormatFromString("wfcommons"), GraphFormat::WfCommons);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, graphFormatFromString("xml"));
        // no extension: sniffed from the content
        QCOMPARE(loadGraph(write("noext", readText(kData + "/jobshop/ft06.txt"))).format, GraphFormat::JobShop);
        QCOMPARE(loadGraph(write("noext2", readText(kData + "/stg/rand0001.stg"))).format, GraphFormat::Stg);
        QCOMPARE(parseGraph("digraph { a -> b }", GraphFormat::Auto, "s").format, GraphFormat::Dot);
    }

    void concurrentLoads() {
        // the GUI and the CLI load on worker threads: DOT goes through the Graphviz lock, ONNX through
        // libonnx's schema registry; every thread must get the same graphs
        const std::string dot = write("conc.dot", graphToDot(awkwardGraph()));
        const std::vector<std::string> files = {kData + "/onnx/light_squeezenet.onnx", dot, kData + "/jobshop/ft10.txt",
                                                kData + "/hlo/graphsage_tf.hlo", kData + "/wfcommons/blast-chameleon-small-001.json",
                                                kData + "/stg/rand0003.stg"};
        std::vector<std::future<std::vector<int>>> runs;
        for (int t = 0; t < 4; ++t)
            runs.push_back(std::async(std::launch::async, [&files, t] {
                std::vector<int> counts;
                for (int round = 0; round < 3; ++round)
                    for (std::size_t i = 0; i < files.size(); ++i) {
                        const auto& f = files[(i + static_cast<std::size_t>(t)) % files.size()];
                        const LoadedGraph lg = loadGraph(f);
                        counts.push_back(lg.graph->opCount() * 100000 + lg.graph->tensorCount());
                    }
                return counts;
            }));
        std::vector<std::multiset<int>> results;
        for (auto& r : runs) {
            const auto v = r.get();
            results.emplace_back(v.begin(), v.end());
        }
        for (const auto& r : results) QVERIFY(r == results.front());
        QCOMPARE(results.front().count(66 * 100000 + 66), size_t(3));   // squeezenet every round
    }

    // ---------------- malformed inputs ----------------
    void cycles() {
        expectError(write("cycle.dot", "digraph { a -> b; b -> c; c -> a; c -> d; }"), {"cycle", "a", "b", "c"});
        expectError(write("cycle.json", R"({"format": "schedlab-graph", "version": 1,
            "ops": [{"name": "p", "duration": 1}, {"name": "q", "duration": 1}],
            "tensors": [{"name": "t1", "producer": "p", "consumers": ["q"], "bytes": 4},
                        {"name": "t2", "producer": "q", "consumers": ["p"], "bytes": 4}]})"),
                    {"cycle", "p, q"});
        expectError(write("selfloop.dot", "digraph { a -> a; }"), {"cycle", "'a'"});
        expectError(write("cycle.stg", "2\n0 0 0\n1 1 1 2\n2 1 1 1\n3 0 1 2\n"), {"cycle", "1", "2"});
    }

    void truncatedFiles() {
        const std::string json = graphToJson(awkwardGraph(), nullptr);
        expectError(write("trunc.json", json.substr(0, json.size() / 2)), {"truncated", ":"});
        const std::string onnx = readFile(kData + "/onnx/light_resnet50.onnx");
        expectError(write("trunc.onnx", onnx.substr(0, onnx.size() / 2)), {"truncated"});
        expectError(write("trunc2.onnx", onnx.substr(0, 40)), {"ONNX"});
        const std::string stg = readText(kData + "/stg/rand0000.stg");
        std::string firstLines;   // header + 30 task lines: a record boundary
        for (std::size_t pos = 0, n = 0; n < 31; ++n) {
            const auto end = stg.find('\n', pos);
            firstLines += stg.substr(pos, end - pos + 1);
            pos = end + 1;
        }
        expectError(write("trunc.stg", firstLines), {"50 tasks", "30 records", "truncated"});
        std::string fifty;   // header + exactly 50 records: passes the count check, but task 49 is no exit task
        for (std::size_t pos = 0, n = 0; n < 51; ++n) {
            const auto end = stg.find('\n', pos);
            fifty += stg.substr(pos, end - pos + 1);
            pos = end + 1;
        }
        expectError(write("trunc50.stg", fifty), {"50 records", "exit task", "truncated"});
        expectError(write("cut.stg", "2\n0 0 0\n1 5 2 0\n"), {"task 1", "predecessors", "truncated"});
        const std::string ft06 = readText(kData + "/jobshop/ft06.txt");
        expectError(write("trunc.txt", ft06.substr(0, ft06.find("1  5  0  5"))), {"6 jobs", "3 job lines", "truncated"});
        expectError(write("cutline.txt", ft06.substr(0, ft06.size() - 10)), {":7:", "job 5", "expected 12"});
        expectError(write("empty.txt", "\n\n"), {"empty"});
    }

    void wrongTypes() {
        expectError(write("types.json", R"({"format": "schedlab-graph", "version": 1,
            "ops": [{"name": "a", "duration": "fast"}], "tensors": []})"),
                    {"op #0 ('a')", "\"duration\" must be a number", "string"});
        expectError(write("types2.json", R"({"format": "schedlab-graph", "version": 1, "ops": {"name": "a"}})"),
                    {"\"ops\" must be an array"});
        expectError(write("types3.json", R"({"format": "schedlab-graph", "version": 1,
            "ops": [{"name": "a", "duration": 1, "machine_type": 1.5}]})"),
                    {"machine_type", "whole number", "1.5"});
        expectError(write("missing.json", R"({"format": "schedlab-graph", "version": 1, "ops": [{"duration": 1}]})"),
                    {"op #0", "missing field \"name\""});
        expectError(write("version.json", R"({"format": "schedlab-graph", "version": 9, "ops": []})"),
                    {"version 9", "newer"});
        expectError(write("types.txt", "2 2\n0 1 1 x\n0 1 1 1\n"), {":2:", "j0_o1", "'x'"});
        expectError(write("types.stg", "1\n0 0 0\n1 abc 1 0\n2 0 1 1\n"), {":3:", "task 1", "'abc'"});
        expectError(write("types.dot", "digraph { a [duration=\"slow\"]; }"), {"node 'a'", "duration", "slow"});
        expectError(write("syntax.dot", "digraph {\n a -> b\n b -> ;\n}"), {"syntax.dot:3:", "syntax error", "line 3"});
        expectError(write("wftypes.json", R"({"workflow": {"specification": {"tasks": [{"id": "t", "parents": "x"}],
            "files": []}, "execution": {"tasks": []}}})"),
                    {"'t'", "\"parents\" must be an array"});
        expectError(write("wfrun.json", R"({"workflow": {"specification": {"tasks": [{"id": "t"}], "files": []},
            "execution": {"tasks": [{"id": "t", "runtimeInSeconds": "long"}]}}})"),
                    {"'t'", "runtimeInSeconds", "number"});
        expectError(write("notjson.json", "{\"ops\": [1, 2,\n 3,, 4]}"), {":2:", "invalid JSON"});
        expectError(write("list.json", "[1, 2]"), {"JSON object", "array"});
    }

    void negativeNumbers() {
        expectError(write("neg.json", R"({"format": "schedlab-graph", "version": 1,
            "ops": [{"name": "a", "duration": -1}]})"),
                    {"op 'a'", "duration -1"});
        expectError(write("negbytes.json", R"({"format": "schedlab-graph", "version": 1,
            "ops": [{"name": "a", "duration": 1}, {"name": "b", "duration": 1}],
            "tensors": [{"name": "t", "producer": "a", "consumers": ["b"], "bytes": -5}]})"),
                    {"tensor 't'", "-5"});
        expectError(write("neg.txt", "1 2\n0 4 1 -3\n"), {":2:", "j0_o1", "'-3'"});
        expectError(write("neg.stg", "1\n0 0 0\n1 -4 1 0\n2 0 1 1\n"), {":3:", "task 1", "'-4'"});
        expectError(write("neg.dot", "digraph { a [duration=-2]; }"), {"op 'a'", "duration -2"});
        expectError(write("negwf.json", R"({"workflow": {"specification": {"tasks": [{"id": "t"}], "files": []},
            "execution": {"tasks": [{"id": "t", "runtimeInSeconds": -3}]}}})"),
                    {"op 't'", "duration -3"});
    }

    void danglingReferences() {
        expectError(write("dangling.json", R"({"format": "schedlab-graph", "version": 1,
            "ops": [{"name": "a", "duration": 1}],
            "tensors": [{"name": "t", "producer": "a", "consumers": ["ghost"], "bytes": 1}]})"),
                    {"tensor #0 ('t')", "'ghost'", "dangling"});
        expectError(write("dangling.stg", "1\n0 0 0\n1 3 1 7\n2 0 1 1\n"), {":3:", "predecessor 7", "does not exist"});
        expectError(write("danglingwf.json", R"({"workflow": {"specification": {"tasks": [
            {"id": "t", "parents": ["nobody"]}], "files": []}}})"),
                    {"task 't'", "'nobody'", "dangling"});
        expectError(write("danglingfile.json", R"({"workflow": {"specification": {"tasks": [
            {"id": "t", "inputFiles": ["f"]}], "files": []}}})"),
                    {"'t'", "file 'f'", "dangling"});
        expectError(write("dup.json", R"({"format": "schedlab-graph", "version": 1,
            "ops": [{"name": "a", "duration": 1}, {"name": "a", "duration": 2}]})"),
                    {"duplicate op name 'a'"});
    }

    void absurdSizes() {
        expectError(write("huge1.txt", "1e30 6\n"), {":1:", "jobs", "'1e30'"});
        expectError(write("huge2.txt", "-4 6\n"), {":1:", "jobs", "positive"});
        expectError(write("huge3.txt", "100000 100000\n"), {":1:", "100000 machines", "more than", "devices"});
        expectError(write("huge4.txt", "999999999999 3\n"), {":1:", "999999999999 jobs", "more than"});
        expectError(write("huge.stg", "99999999999\n0 0 0\n"), {":1:", "99999999999 tasks", "more than"});
        expectError(write("huge2.stg", "1e30\n0 0 0\n"), {":1:", "'1e30'"});
        expectError(write("huge3.stg", "1\n0 0 0\n1 1 99999999 0\n"), {":3:", "task 1", "99999999 predecessors"});
        expectError(write("hugewf.json", R"({"workflow": {"specification": {"tasks": [{"id": "t", "outputFiles": ["f"]}],
            "files": [{"id": "f", "sizeInBytes": -1}]}}})"),
                    {"file #0", "sizeInBytes"});
        expectError(write("huge.json", R"({"format": "schedlab-graph", "version": 1,
            "ops": [{"name": "a", "duration": 1, "machine_type": 1e30}]})"),
                    {"machine_type"});
    }

    void otherFaults() {
        expectError(write("unknown.bin", "hello world, not a graph"), {"cannot tell"});
        expectError(write("nothing.stg", "   \n"), {"empty"});
        expectError(write("extra.txt", "1 1\n0 5\n0 5\n"), {":3:", "unexpected data"});
        expectError(write("wrongfmt.json", R"({"format": "schedlab-schedule", "version": 1})"), {"schedlab-schedule"});
        QVERIFY_THROWS_EXCEPTION(IoError, loadGraph(QDir(m_dir.path()).filePath(QStringLiteral("missing.txt")).toStdString()));
        // a folder is not a file
        expectError(m_dir.path().toStdString(), {"folder"}, GraphFormat::JobShop);
        expectError(m_dir.path().toStdString(), {"folder"});
        expectError(QDir(m_dir.path()).filePath(QStringLiteral("nosuchfile")).toStdString(), {"no such file"});
        // cgraph returns what it read before running out of parser stack: an error, not a partial graph
        std::string chain = "digraph {\n n0";
        for (int i = 1; i < 20000; ++i) chain += " -> n" + std::to_string(i);
        expectError(write("chain.dot", chain + "\n}\n"), {"chain.dot:2:", "edge-chain"});
        expectError(write("nested.dot", "digraph {" + std::string(50000, '{') + "a" + std::string(50000, '}') + "}"),
                    {"nested.dot:1:", "invalid DOT"});
        // a bad DOT file leaves cgraph usable for the next one
        expectError(write("bad.dot", "digraph { a -> }"), {"syntax error"});
        QCOMPARE(parseGraph("digraph { x -> y }", GraphFormat::Dot, "ok.dot").graph->opCount(), 2);
    }
};

SCHEDLAB_TEST_MAIN(importers, TestImporters)
#include "tst_importers.moc"
