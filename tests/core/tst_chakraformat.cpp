// SPDX-License-Identifier: MIT
// Chakra execution traces (core/io/chakra/chakraformat.cpp): the hand-checked trace of
// tests/data/chakra (make_fixtures.py) reads to the same graph from its protobuf, gzipped and
// JSON forms; send/recv and unmodelled collectives; broken traces give an IoError naming the file
// and the node or byte at fault.
#include "common/protobufwriter.h"
#include "common/testmain.h"
#include "core/io/graphio.h"
#include "core/util/atomicfile.h"
#include "core/util/limits.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace sl;

// A namespace of its own, not anonymous nor `using`: the area's tests are built in unity batches.
namespace chakratest {

const std::string kChakraData = std::string(SCHEDLAB_TEST_DATA) + "/chakra";

/// One length-prefixed record of a .et stream.
std::string record(const std::string& message) { return test::varint(message.size()) + message; }
std::string metadataRecord() { return record(test::field(1, std::string("0.0.4"))); }

/// A Node message: id, name, type (NodeType), duration_micros, then whatever `extra` adds.
std::string nodeRecord(std::uint64_t id, const std::string& name, std::uint64_t type, std::uint64_t duration,
                       const std::string& extra = {}) {
    return record(test::field(1, id) + test::field(2, name) + test::field(3, type) + test::field(7, duration) + extra);
}
/// data_deps (field 5), packed.
std::string dataDeps(std::initializer_list<std::uint64_t> ids) {
    std::string packed;
    for (std::uint64_t id : ids) packed += test::varint(id);
    return test::field(5, packed);
}
/// An AttributeProto with int64_val (9) or bool_val (27).
std::string intAttr(const std::string& name, std::uint64_t v) { return test::field(10, test::field(1, name) + test::field(9, v)); }
std::string boolAttr(const std::string& name, bool v) { return test::field(10, test::field(1, name) + test::field(27, std::uint64_t{v})); }

/// Bytes of the tensors `from` produces that `to` reads; -1 when no tensor links them.
double bytesBetween(const Graph& g, OpId from, OpId to) {
    double bytes = -1;
    for (TensorId t : g.inputs(to))
        if (g.tensor(t).producer == from) bytes = std::max(bytes, 0.0) + g.tensor(t).bytes;
    return bytes;
}

class TestChakraFormat : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string write(const std::string& name, const std::string& content) {
        const std::string path = QDir(m_dir.path()).filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }

    /// loadGraph(path) must throw IoError whose message starts with the path and contains every `needle`.
    void expectError(const std::string& path, std::initializer_list<const char*> needles, GraphFormat format = GraphFormat::Auto) {
        try {
            loadGraph(path, format);
        } catch (const IoError& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(QString::fromStdString(path)), qPrintable("does not start with the path: " + msg));
            for (const char* n : needles)
                QVERIFY2(msg.contains(QString::fromUtf8(n), Qt::CaseInsensitive),
                         qPrintable(QStringLiteral("'%1' not in: %2").arg(QString::fromUtf8(n), msg)));
            return;
        }
        QFAIL(qPrintable(QString::fromStdString("no IoError for " + path)));
    }

    /// The trace of tests/data/chakra/make_fixtures.py, checked by hand.
    static void checkSmallTrace(const LoadedGraph& lg) {
        QVERIFY(lg.format == GraphFormat::Chakra);
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), 6);
        QVERIFY(g.timeUnit() == TimeUnit::Microseconds);
        // the rank's machine: its GPU (type 0) and its host CPU (type 1), so the trace runs as is
        QVERIFY(lg.platform);
        QCOMPARE(lg.platform->deviceCount(), 2);
        QCOMPARE(lg.platform->devices[0].machineType, 0);
        QCOMPARE(lg.platform->devices[1].machineType, 1);
        // shared names get "#<id>"; kernels are typed by their name's operator, collectives by their kind
        const OpId linear10 = g.findOp("aten::linear#10"), linear11 = g.findOp("aten::linear#11");
        const OpId gemm = g.findOp("ampere_sgemm_128x64_tn");
        const OpId gelu = g.findOp("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>(int, float)");
        const OpId allReduce = g.findOp("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
        const OpId memcpy = g.findOp("Memcpy DtoH (Device -> Pinned)");
        for (OpId v : {linear10, linear11, gemm, gelu, allReduce, memcpy}) QVERIFY(v != kNoOp);
        const struct {
            OpId op;
            const char* type;
            double duration;
            int machineType;
        } expected[] = {{linear10, "linear", 15, 1}, {linear11, "linear", 12, 1}, {gemm, "ampere_sgemm_128x64_tn", 120, 0},
                        {gelu, "vectorized_elementwise_kernel", 30, 0}, {allReduce, "all-reduce", 250, 0}, {memcpy, "Memcpy", 8, 0}};
        for (const auto& e : expected) {
            const Op& op = g.op(e.op);
            QCOMPARE(op.type, std::string(e.type));
            QCOMPARE(op.duration, e.duration);
            QCOMPARE(op.machineType, e.machineType);   // CPU ops (is_cpu_op) on 1, GPU ops on 0
            QVERIFY(op.timeSource == TimeSource::Measured);
            QVERIFY(op.deviceDurations.empty());
            QCOMPARE(op.work.known(), e.op == allReduce);   // computation keeps its measured time only
        }
        const OpWork& w = g.op(allReduce).work;
        QVERIFY(w.opClass == OpClass::Collective);
        QVERIFY(w.collective == Collective::AllReduce);
        QCOMPARE(w.commBytes, 4194304.0);   // comm_size: 4 MiB
        QCOMPARE(w.groupSize, 4);           // pg_ranks [0, 1, 2, 3]
        QVERIFY(w.dtype == DType::F32);     // its input is Tensor(float)

        // data deps carry the producer's outputs (shape x dtype), control deps 0 bytes; the gemm's
        // ctrl dep on the op that also feeds it data adds no second edge
        QCOMPARE(g.edgeCount(), 6);
        QCOMPARE(g.tensorCount(), 6);
        QCOMPARE(bytesBetween(g, linear10, gemm), 32768.0);         // float[8, 1024]
        QCOMPARE(bytesBetween(g, gemm, gelu), 65536.0);             // bf16[8, 4096]
        QCOMPARE(bytesBetween(g, gelu, allReduce), 65536.0);
        QCOMPARE(bytesBetween(g, allReduce, memcpy), 4194304.0);    // float[1048576]
        QCOMPARE(bytesBetween(g, linear10, linear11), 0.0);         // ctrl
        QCOMPARE(bytesBetween(g, linear11, memcpy), 0.0);           // ctrl, written unpacked
        QCOMPARE(g.predecessors(linear10).size(), std::size_t{0});
        QCOMPARE(g.predecessors(memcpy).size(), std::size_t{2});

        const auto warned = [&](const char* part) {
            return std::any_of(lg.warnings.begin(), lg.warnings.end(), [&](const std::string& s) { return s.find(part) != std::string::npos; });
        };
        QVERIFY(warned("machine type 1"));
        QVERIFY(warned("renamed"));
    }

    /// Same ops (every field), same tensors.
    static void compareGraphs(const Graph& a, const Graph& b) {
        QCOMPARE(b.opCount(), a.opCount());
        QCOMPARE(b.tensorCount(), a.tensorCount());
        for (OpId v = 0; v < a.opCount(); ++v) {
            QCOMPARE(b.op(v).name, a.op(v).name);
            QCOMPARE(b.op(v).type, a.op(v).type);
            QCOMPARE(b.op(v).duration, a.op(v).duration);
            QCOMPARE(b.op(v).machineType, a.op(v).machineType);
            QVERIFY(b.op(v).work == a.op(v).work);
            QVERIFY(b.op(v).timeSource == a.op(v).timeSource);
        }
        for (TensorId t = 0; t < a.tensorCount(); ++t) {
            QCOMPARE(b.tensor(t).name, a.tensor(t).name);
            QCOMPARE(b.tensor(t).producer, a.tensor(t).producer);
            QVERIFY(b.tensor(t).consumers == a.tensor(t).consumers);
            QCOMPARE(b.tensor(t).bytes, a.tensor(t).bytes);
        }
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void cleanup() { setLimits(sl::Limits{}); }

    // ---------------- the three forms of one trace ----------------
    void protobufTrace() { checkSmallTrace(loadGraph(kChakraData + "/small.et")); }

    void gzippedTrace() {
        const LoadedGraph gz = loadGraph(kChakraData + "/small.et.gz");
        checkSmallTrace(gz);
        compareGraphs(*loadGraph(kChakraData + "/small.et").graph, *gz.graph);
    }

    void jsonizerTrace() {
        // chakra_jsonizer's output: concatenated objects, lowerCamelCase, 64-bit integers as strings
        QVERIFY(graphFormatFromPath(kChakraData + "/small.json") == GraphFormat::Chakra);
        const LoadedGraph js = loadGraph(kChakraData + "/small.json");
        checkSmallTrace(js);
        compareGraphs(*loadGraph(kChakraData + "/small.et").graph, *js.graph);
    }

    void formatNames() {
        QVERIFY(graphFormatFromString("chakra") == GraphFormat::Chakra);
        QVERIFY(graphFormatFromString("Chakra") == GraphFormat::Chakra);
        QVERIFY(graphFormatFromPath("trace.et") == GraphFormat::Chakra);
        QVERIFY(graphFormatFromPath("rank0.ET.gz") == GraphFormat::Chakra);
        // a binary trace under another name needs --format chakra
        const std::string renamed = write("rank0.trace", readFile(kChakraData + "/small.et"));
        checkSmallTrace(loadGraph(renamed, GraphFormat::Chakra));
        // the JSON sniffing of native graphs and WfCommons is unchanged
        QVERIFY(graphFormatFromPath(std::string(SCHEDLAB_TEST_DATA) + "/wfcommons/blast-chameleon-small-001.json") == GraphFormat::WfCommons);
        const std::string native = write("native.json", R"({"format": "schedlab-graph", "version": 1, "ops": [{"name": "a", "duration": 1}]})");
        QVERIFY(graphFormatFromPath(native) == GraphFormat::Json);
    }

    void nodesObject() {
        // one object with "nodes", protobuf field names, plain numbers and {"name", "value"} attributes
        const LoadedGraph lg = parseGraph(R"js({"global_metadata": {"version": "0.0.4"}, "nodes": [
              {"id": 1, "name": "aten::mm", "type": "COMP_NODE", "duration_micros": 12.5,
               "outputs": {"shapes": [[4, 4]], "types": ["Tensor(double)"]}, "attr": [{"name": "is_cpu_op", "bool_val": true}]},
              {"id": 2, "name": "allreduce", "type": 7, "data_deps": [1], "duration_micros": 40,
               "attr": [{"name": "comm_type", "value": "ALL_GATHER"}, {"name": "comm_size", "int64_val": 1048576},
                        {"name": "pg_size", "value": 8}]}]})js",
                                          GraphFormat::Chakra, "nodes.json");
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), 2);
        QCOMPARE(g.op(0).name, std::string("aten::mm"));
        QCOMPARE(g.op(0).type, std::string("mm"));
        QCOMPARE(g.op(0).duration, 12.5);
        QCOMPARE(g.op(0).machineType, 1);
        QCOMPARE(bytesBetween(g, 0, 1), 128.0);   // double[4, 4]
        QVERIFY(g.op(1).work.collective == Collective::AllGather);
        QCOMPARE(g.op(1).work.commBytes, 1048576.0);
        QCOMPARE(g.op(1).work.groupSize, 8);
        QCOMPARE(g.op(1).type, std::string("all-gather"));
    }

    void pointToPointAndUnmodelled() {
        // COMM_SEND_NODE (5) / COMM_RECV_NODE (6) are permutes between two ranks; a REDUCE (comm_type 1)
        // has no network model and keeps its measured time only
        const std::string trace = metadataRecord() + nodeRecord(1, "send", 5, 7, intAttr("comm_size", 1024) + boolAttr("is_cpu_op", false)) +
                                  nodeRecord(2, "recv", 6, 9, dataDeps({1}) + intAttr("comm_size", 1024)) +
                                  nodeRecord(3, "ncclKernel_Reduce", 7, 11, dataDeps({2}) + intAttr("comm_type", 1));
        const LoadedGraph lg = loadGraph(write("p2p.et", trace));
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), 3);
        for (OpId v : {0, 1}) {
            QVERIFY(g.op(v).work.opClass == OpClass::Collective);
            QVERIFY(g.op(v).work.collective == Collective::Permute);
            QCOMPARE(g.op(v).work.commBytes, 1024.0);
            QCOMPARE(g.op(v).work.groupSize, 2);
        }
        QCOMPARE(g.op(0).type, std::string("send"));
        QCOMPARE(g.op(1).type, std::string("recv"));
        QVERIFY(!g.op(2).work.known());
        QCOMPARE(g.op(2).duration, 11.0);
        QCOMPARE(bytesBetween(g, 0, 1), 0.0);   // no IOInfo: 0 bytes, with a warning
        QVERIFY(std::any_of(lg.warnings.begin(), lg.warnings.end(), [](const std::string& s) { return s.find("without a network model") != std::string::npos; }));
        QVERIFY(std::any_of(lg.warnings.begin(), lg.warnings.end(), [](const std::string& s) { return s.find("carry 0 bytes") != std::string::npos; }));
    }

    // ---------------- broken traces ----------------
    void truncated() {
        const std::string full = readFile(kChakraData + "/small.et");
        expectError(write("cut.et", full.substr(0, full.size() - 5)), {"cut.et: byte", "record 6", "truncated"});
        // every prefix loads (a prefix that ends between records is a shorter trace) or fails cleanly
        for (std::size_t n = 0; n < full.size(); ++n) {
            try {
                parseGraph(std::string_view(full).substr(0, n), GraphFormat::Chakra, "prefix.et");
            } catch (const IoError& e) {
                QVERIFY2(std::string(e.what()).rfind("prefix.et", 0) == 0, e.what());
            }
        }
        const std::string gz = readFile(kChakraData + "/small.et.gz");
        expectError(write("cut.et.gz", gz.substr(0, gz.size() / 2)), {"gzip", "truncated"});
        const std::string js = readFile(kChakraData + "/small.json");
        expectError(write("cut.json", js.substr(0, js.size() - 40)), {"not closed", "truncated"}, GraphFormat::Chakra);
    }

    void badVarint() {
        // a field key whose varint never ends inside its record
        expectError(write("varint.et", metadataRecord() + record("\x08\xff\xff")), {"varint.et: byte", "truncated varint"});
    }

    /// As chakra_converter leaves them (make_fixtures.py): a control dependency on node 3 and a data
    /// dependency on node 5, neither in the trace, are dropped and counted; 217 keeps its data edge
    /// from 216. Catches a refusal (the old reader's), a silent drop, or a dropped op.
    void droppedDependencies() {
        const LoadedGraph lg = loadGraph(kChakraData + "/dangling.et");
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), 2);
        const OpId flatten = g.findOp("aten::flatten_dense_tensors(0)"), copy = g.findOp("aten::copy_");
        QCOMPARE(g.predecessors(flatten).size(), std::size_t{0});
        QVERIFY(g.predecessors(copy).size() == 1 && g.predecessors(copy)[0] == flatten);
        QCOMPARE(g.edgeCount(), 1);
        QVERIFY(std::any_of(lg.warnings.begin(), lg.warnings.end(), [](const std::string& w) {
            return w.rfind("1 data and 1 control dependencies name nodes the trace does not hold", 0) == 0;
        }));
        // the JSON form the same way
        const LoadedGraph js = parseGraph(R"({"version": "0.0.4"}{"id": "1", "name": "a", "type": "COMP_NODE", "ctrlDeps": ["42"], "dataDeps": ["7", "8"]})",
                                          GraphFormat::Chakra, "missing.json");
        QCOMPARE(js.graph->opCount(), 1);
        QVERIFY(std::any_of(js.warnings.begin(), js.warnings.end(),
                            [](const std::string& w) { return w.rfind("2 data and 1 control dependencies", 0) == 0; }));
    }

    /// The feeder's JSON by hand (make_fixtures.py): three nodes, the CPU one on machine type 1, a
    /// data dependency each, runtimes as durations, the all-reduce's kind and size. Catches the
    /// old reading (one op, no warning) and a runtime or is_cpu_op not read.
    void feederJson() {
        const LoadedGraph lg = loadGraph(kChakraData + "/feeder.json");
        QVERIFY(lg.format == GraphFormat::Chakra);
        const Graph& g = *lg.graph;
        QCOMPARE(g.opCount(), 3);
        const OpId embedding = g.findOp("aten::embedding"), gemm = g.findOp("sm90_gemm"), allReduce = g.findOp("allreduce");
        QCOMPARE(g.op(embedding).duration, 318.0);
        QCOMPARE(g.op(embedding).machineType, 1);
        QCOMPARE(g.op(gemm).duration, 90.0);
        QCOMPARE(g.op(gemm).machineType, 0);
        QVERIFY(g.predecessors(gemm).size() == 1 && g.predecessors(gemm)[0] == embedding);
        QVERIFY(g.predecessors(allReduce).size() == 1 && g.predecessors(allReduce)[0] == gemm);
        QVERIFY(g.op(allReduce).work.collective == Collective::AllReduce);
        QCOMPARE(g.op(allReduce).work.commBytes, 1048576.0);
        QCOMPARE(g.op(allReduce).duration, 40.0);
        expectError(write("feeder-bad.json", R"({"workload_graph": [{"Id": 1, "runtime": "slow"}]})"),
                    {"workload_graph[0]", "\"runtime\" must be a number of microseconds"});
        expectError(write("feeder-noid.json", R"({"workload_graph": [{"Name": "x", "data_deps": []}]})"),
                    {"workload_graph[0]", "no \"Id\""});
    }

    /// A JSON object the reader does not understand is refused with what it expected and what it
    /// found, never read as a one-op graph.
    void unknownJsonShapeRefused() {
        expectError(write("other.json", R"({"graph": {"ops": []}, "data_deps_note": 1})"),
                    {"other.json:1: not a Chakra trace node", "workload_graph", "found an object with members \"data_deps_note\", \"graph\""},
                    GraphFormat::Chakra);
    }

    void negativeDuration() {
        // duration_micros is uint64: a writer that stored -1 leaves 2^64 - 1
        expectError(write("negative.et", metadataRecord() + nodeRecord(1, "a", 4, 5) + nodeRecord(7, "bad", 4, ~std::uint64_t{0})),
                    {"node 7 ('bad')", "duration_micros -1"});
        expectError(write("negative.json", "{\"version\": \"0.0.4\"}\n{\"id\": \"3\",\n \"name\": \"k\", \"type\": \"COMP_NODE\",\n \"durationMicros\": -4}"),
                    {"negative.json:2:", "node 3 ('k')", "duration_micros -4"});
    }

    void cyclesAndIds() {
        expectError(write("cycle.et", metadataRecord() + nodeRecord(1, "a", 4, 5, dataDeps({2})) + nodeRecord(2, "b", 4, 5, dataDeps({1}))),
                    {"cycle", "a", "b"});
        expectError(write("self.et", metadataRecord() + nodeRecord(3, "s", 4, 5, dataDeps({3}))), {"node 3 ('s')", "names the node itself"});
        expectError(write("dupid.et", metadataRecord() + nodeRecord(1, "a", 4, 5) + nodeRecord(1, "b", 4, 5)),
                    {"node 1 ('b')", "a second node with this id"});
    }

    void notChakra() {
        // a PyTorch execution trace (the converter's input) is told apart from its converted form
        expectError(write("host.json", R"({"schema": "1.1.0-chakra.0.0.4", "pid": 1, "nodes": [
                          {"id": 1, "name": "[pytorch|profiler|execution_trace|thread]", "ctrl_deps": 0, "inputs": {}, "outputs": {}}]})"),
                    {"PyTorch execution trace", "chakra_converter"}, GraphFormat::Chakra);
        expectError(write("type.json", R"({"id": 1, "name": "a", "type": "GPU_NODE"})"), {"type.json:1:", "unknown node type \"GPU_NODE\""},
                    GraphFormat::Chakra);
    }

    void opsLimit() {
        setLimits(parseLimits("ops=5", sl::Limits{}));
        expectError(kChakraData + "/small.et", {"more than 5 nodes", "'ops' limit"});
    }
};

} // namespace chakratest

SCHEDLAB_TEST_MAIN(chakraformat, chakratest::TestChakraFormat)
#include "tst_chakraformat.moc"
