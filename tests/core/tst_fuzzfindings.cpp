// SPDX-License-Identifier: MIT
// Inputs the fuzz targets (tests/fuzz, docs/reliability.md) found crashing, each reduced and kept
// here as a plain unit test: the reader must refuse it with an IoError naming the fault, or read it
// into a graph that the writers take.
#include "common/workedexample.h"
#include "core/io/graphio.h"
#include "core/io/scheduleio.h"

#include <QTest>

#include <fstream>
#include <iterator>
#include <string>

using namespace sl;

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

    void validUtf8NamesStillRead() {
        const LoadedGraph g = parseGraph("digraph { \"\xC3\xA9t\xC3\xA9\" -> \"\xF0\x9F\x99\x82\" }", GraphFormat::Dot, "ok.dot");
        QCOMPARE(g.graph->ops().size(), std::size_t(2));
        QVERIFY(graphToJson(*g.graph, nullptr).find("\xF0\x9F\x99\x82") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestFuzzFindings)
#include "tst_fuzzfindings.moc"
