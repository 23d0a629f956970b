// SPDX-License-Identifier: MIT
// Measured op times (core/profile): the model fingerprint, median/IQR of repetitions, the profile
// JSON (round trip and the errors of bad files), applyProfile's matching and refusals, and the
// ONNX Runtime trace import on tests/data/profiles/ort_small.json (two runs of
// light_bvlc_alexnet.onnx, hand-written in ORT's profiler layout: fence events, a fused Conv+Relu
// "fused n0", an inserted "ReorderOutput", Dropouts n18/n21 removed, n8/n9 on a second thread).
#include "common/testmain.h"
#include "core/graph/fingerprint.h"
#include "core/io/graphio.h"
#include "core/profile/ortprofile.h"
#include "core/profile/profile.h"
#include "core/profile/repetitions.h"
#include "core/util/atomicfile.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace sl;

namespace profiletest {

const std::string kData = SCHEDLAB_TEST_DATA;

Graph alexnet() { return *loadGraph(kData + "/onnx/light_bvlc_alexnet.onnx").graph; }
Graph squeezenet() { return *loadGraph(kData + "/onnx/light_squeezenet.onnx").graph; }

QStringList qNames(const std::vector<std::string>& names) {
    QStringList out;
    for (const std::string& n : names) out << QString::fromStdString(n);
    return out;
}

QStringList qOpNames(const Graph& g, const std::vector<OpId>& ops) {
    QStringList out;
    for (OpId v : ops) out << QString::fromStdString(g.op(v).name);
    return out;
}

/// Enum values as text for QCOMPARE (sl::toString returns std::string_view, which QtTest cannot print).
template <typename E>
QString qText(E value) {
    const std::string_view t = toString(value);
    return QString::fromUtf8(t.data(), static_cast<qsizetype>(t.size()));
}

/// "a:b:c" -> {"a", "b", "c"}
QStringList qSplit(const char* text) { return QString::fromLatin1(text).split(QLatin1Char(':')); }

const OpMeasurement* measurementOf(const Profile& p, const std::string& name) {
    for (const OpMeasurement& m : p.ops)
        if (m.name == name) return &m;
    return nullptr;
}

/// Everything applyProfile may change, to show a refused profile changed nothing.
struct GraphTimes {
    std::uint64_t fingerprint = 0;
    std::vector<TimeSource> sources;
    TimeUnit unit = TimeUnit::Abstract;
    bool finalized = false;
    explicit GraphTimes(const Graph& g) : fingerprint(graphFingerprint(g)), unit(g.timeUnit()), finalized(g.finalized()) {
        for (const Op& o : g.ops()) sources.push_back(o.timeSource);
    }
    bool operator==(const GraphTimes&) const = default;
};

/// a -> b -> c, durations 2, 3, 4; b has per-device durations.
Graph smallChain(TimeUnit unit) {
    Graph g;
    const OpId a = g.addOp({.name = "a", .type = "MatMul", .duration = 2});
    const OpId b = g.addOp({.name = "b", .type = "Relu", .duration = 3, .deviceDurations = {3, 6}});
    const OpId c = g.addOp({.name = "c", .type = "Softmax", .duration = 4});
    g.addEdge(a, b, 64);
    g.addEdge(b, c, 64);
    g.setTimeUnit(unit);
    g.finalize();
    return g;
}

Profile profileNaming(std::initializer_list<const char*> names, double medianUs = 7) {
    Profile p;
    for (const char* n : names) p.ops.push_back({.name = n, .type = "", .medianUs = medianUs, .spreadUs = 0, .repetitions = 3});
    return p;
}

/// A profile file as JSON to mutate: two ops and one unmeasured op.
nlohmann::json goodProfileJson() {
    return nlohmann::json::parse(R"({"format": "schedlab-profile", "version": 1, "model": "m.onnx", "fingerprint": "",
        "device": "cpu", "created": "2026-01-02T03:04:05", "tool": "test",
        "ops": [{"name": "n2", "type": "LRN", "median_us": 42, "spread_us": 2, "repetitions": 5},
                {"name": "n3", "type": "MaxPool", "median_us": 20.5, "spread_us": 0, "repetitions": 5}],
        "unmeasured": [{"name": "n1", "type": "Relu", "reason": "no ATen equivalent"}]})");
}

/// One ORT kernel event, as ORT writes it (built with nlohmann: moc misreads raw strings here).
std::string ortKernel(const std::string& node, double ts, double dur, int tid = 1) {
    const nlohmann::json event = {{"cat", "Node"}, {"pid", 1}, {"tid", tid}, {"dur", dur}, {"ts", ts}, {"ph", "X"},
                                  {"name", node + "_kernel_time"},
                                  {"args", {{"op_name", "Op"}, {"provider", "CPUExecutionProvider"}}}};
    return event.dump();
}

/// The whole test lives in this namespace: in a unity batch, other tests' helpers (kData, ...)
/// in their anonymous namespaces must not clash with these.
class TestProfile : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string file(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)).toStdString(); }

    /// Expects IoError starting with `source` and containing every piece of `faults`.
    template <typename F>
    void expectIoError(F&& f, const std::string& source, std::initializer_list<const char*> faults) {
        try {
            f();
            QFAIL(("no error; expected one with: " + std::string(*faults.begin())).c_str());
        } catch (const IoError& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.rfind(source + ":", 0) == 0, ("does not start with the source: " + msg).c_str());
            for (const char* fault : faults)
                QVERIFY2(msg.find(fault) != std::string::npos, (msg + "   (expected: " + fault + ")").c_str());
        }
    }
    void expectBadProfile(const std::string& text, std::initializer_list<const char*> faults) {
        expectIoError([&] { parseProfile(text, "bad.profile.json"); }, "bad.profile.json", faults);
    }
    void expectBadProfile(const nlohmann::json& doc, std::initializer_list<const char*> faults) {
        expectBadProfile(doc.dump(), faults);
    }
    void expectBadOrt(const std::string& text, std::initializer_list<const char*> faults) {
        const Graph g = alexnet();
        OrtImportReport report;
        expectIoError([&] { importOrtProfile(text, "trace.json", g, report); }, "trace.json", faults);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // ---- model fingerprint ----

    /// New durations (another device, a profile) keep the model fingerprint; the graph one changes.
    void modelFingerprintIgnoresTimes() {
        const Graph g = alexnet();
        Graph h = g;
        const OpId v = h.findOp("n4");
        h.mutableOp(v).duration = 1234;
        h.mutableOp(v).deviceDurations = {1, 2};
        h.mutableOp(v).timeSource = TimeSource::Measured;
        h.finalize();
        QCOMPARE(modelFingerprint(h), modelFingerprint(g));
        QVERIFY(graphFingerprint(h) != graphFingerprint(g));
    }

    /// Names, types and tensors are the model: each changes it.
    void modelFingerprintSeesTheModel() {
        const Graph g = alexnet();
        const std::uint64_t fp = modelFingerprint(g);
        Graph renamed = g;
        renamed.mutableOp(renamed.findOp("n4")).name = "conv2";
        QVERIFY(modelFingerprint(renamed) != fp);
        Graph retyped = g;
        retyped.mutableOp(retyped.findOp("n4")).type = "ConvTranspose";
        QVERIFY(modelFingerprint(retyped) != fp);
        QVERIFY(modelFingerprint(squeezenet()) != fp);
        QVERIFY(modelFingerprint(g) != graphFingerprint(g));
    }

    /// Its own prefix: never read as a graph fingerprint, nor the other way round.
    void modelFingerprintText() {
        const std::uint64_t fp = modelFingerprint(alexnet());
        const std::string text = sl::modelFingerprintText(fp);
        QVERIFY(text.starts_with("model-fnv1a64:"));
        QCOMPARE(text.size(), std::string("model-fnv1a64:").size() + 16);
        QVERIFY(parseModelFingerprint(text) == fp);
        QVERIFY(!parseFingerprint(text));
        QVERIFY(!parseModelFingerprint(fingerprintText(fp)));
        QVERIFY(!parseModelFingerprint("model-fnv1a64:123"));
    }

    // ---- repetitions ----

    /// Median and IQR by linear interpolation (numpy's default), as repetitions.h documents.
    void medianAndInterquartileRange() {
        const OpMeasurement m = summarizeRepetitions("x", "Conv", {12, 10, 11, 30});
        QCOMPARE(m.medianUs, 11.5);
        QCOMPARE(m.spreadUs, 5.75);   // q3 16.5 - q1 10.75
        QCOMPARE(m.repetitions, 4);
        const OpMeasurement odd = summarizeRepetitions("x", "", {5, 1, 9, 3, 7});
        QCOMPARE(odd.medianUs, 5.0);
        QCOMPARE(odd.spreadUs, 4.0);   // 7 - 3
        const OpMeasurement one = summarizeRepetitions("x", "", {8});
        QCOMPARE(one.medianUs, 8.0);
        QCOMPARE(one.spreadUs, 0.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, summarizeRepetitions("x", "", {}));
    }

    // ---- profile JSON ----

    /// Write -> read gives back every field and every double bit for bit; the text is stable.
    void profileJsonRoundTrip() {
        Profile p;
        p.model = "light_bvlc_alexnet.onnx";
        p.fingerprint = sl::modelFingerprintText(modelFingerprint(alexnet()));
        p.device = "this CPU (\"test\" CPU, 1 thread)";
        p.created = "2026-11-28T21:00:00";
        p.tool = "schedlab-cli profile";
        p.ops = {{"n0", "Conv", 0.1, 1.0 / 3, 7},
                 {"n2 \"quoted\" ✓", "LRN", 5e-324, 0, 1},
                 {"n4", "Conv", 1e15, 123456.789, 2147483647}};
        p.unmeasured = {{"n18", "Dropout", "no ATen equivalent"}, {"n21", "", ""}};
        const std::string text = profileToJson(p);
        const Profile r = parseProfile(text, "round.json");
        QCOMPARE(r.version, kProfileVersion);
        QCOMPARE(r.model, p.model);
        QCOMPARE(r.fingerprint, p.fingerprint);
        QCOMPARE(r.device, p.device);
        QCOMPARE(r.created, p.created);
        QCOMPARE(r.tool, p.tool);
        QCOMPARE(r.ops.size(), p.ops.size());
        for (std::size_t i = 0; i < p.ops.size(); ++i) {
            QCOMPARE(r.ops[i].name, p.ops[i].name);
            QCOMPARE(r.ops[i].type, p.ops[i].type);
            QVERIFY(r.ops[i].medianUs == p.ops[i].medianUs);   // exact, not fuzzy
            QVERIFY(r.ops[i].spreadUs == p.ops[i].spreadUs);
            QCOMPARE(r.ops[i].repetitions, p.ops[i].repetitions);
        }
        QCOMPARE(r.unmeasured.size(), p.unmeasured.size());
        for (std::size_t i = 0; i < p.unmeasured.size(); ++i) {
            QCOMPARE(r.unmeasured[i].name, p.unmeasured[i].name);
            QCOMPARE(r.unmeasured[i].type, p.unmeasured[i].type);
            QCOMPARE(r.unmeasured[i].reason, p.unmeasured[i].reason);
        }
        QCOMPARE(profileToJson(r), text);

        const std::string path = file("round.profile.json");
        saveProfile(p, path);
        QCOMPARE(profileToJson(loadProfile(path)), text);
    }

    /// Optional fields may be left out; "format", "version" and "ops" may not.
    void profileJsonDefaults() {
        const Profile p = parseProfile(R"({"format": "schedlab-profile", "version": 1,
            "ops": [{"name": "n2", "median_us": 3, "repetitions": 1}]})", "min.json");
        QCOMPARE(p.ops.size(), std::size_t(1));
        QCOMPARE(p.ops[0].spreadUs, 0.0);
        QVERIFY(p.fingerprint.empty());
        QVERIFY(p.unmeasured.empty());
    }

    /// Every refusal names the file and the field.
    void profileJsonErrors() {
        nlohmann::json doc = goodProfileJson();
        QCOMPARE(parseProfile(doc.dump(), "good.json").ops.size(), std::size_t(2));

        doc = goodProfileJson();
        doc["ops"][1]["median_us"] = -1;
        expectBadProfile(doc, {"ops[1] ('n3').median_us", "must not be negative"});
        doc = goodProfileJson();
        doc["ops"][0]["spread_us"] = -0.5;
        expectBadProfile(doc, {"ops[0] ('n2').spread_us", "negative"});
        doc = goodProfileJson();
        doc["ops"][0]["median_us"] = "fast";
        expectBadProfile(doc, {"ops[0] ('n2').median_us", "must be a number"});
        doc = goodProfileJson();
        doc["ops"][0].erase("median_us");
        expectBadProfile(doc, {"ops[0] ('n2').median_us is missing"});
        // JSON has no NaN or infinity: the parser refuses them, and the message names the field
        std::string text = goodProfileJson().dump();
        std::string nan = text;
        nan.replace(nan.find("42"), 2, "NaN");
        expectBadProfile(nan, {"invalid JSON", "\"median_us\""});
        std::string inf = text;
        inf.replace(inf.find("42"), 2, "1e999");
        expectBadProfile(inf, {"invalid JSON", "\"median_us\"", "above the largest double"});
        std::string infinity = text;
        infinity.replace(infinity.find("42"), 2, "Infinity");
        expectBadProfile(infinity, {"invalid JSON", "\"median_us\""});

        doc = goodProfileJson();
        doc["ops"][0]["repetitions"] = 0;
        expectBadProfile(doc, {"ops[0] ('n2').repetitions must be at least 1, got 0"});
        doc["ops"][0]["repetitions"] = 2.5;
        expectBadProfile(doc, {"ops[0] ('n2').repetitions must be a whole number"});

        doc = goodProfileJson();
        doc["ops"][1]["name"] = "n2";
        expectBadProfile(doc, {"ops[1] names op 'n2' again (first in ops[0])"});
        doc = goodProfileJson();
        doc["unmeasured"][0]["name"] = "n3";
        expectBadProfile(doc, {"unmeasured[0] names op 'n3' again (first in ops[1])"});
        doc = goodProfileJson();
        doc["ops"][0]["name"] = "";
        expectBadProfile(doc, {"ops[0].name is empty"});

        doc = goodProfileJson();
        doc["version"] = 2;
        expectBadProfile(doc, {"version 2 was written by a newer SchedLab"});
        doc["version"] = 0;
        expectBadProfile(doc, {"unknown version 0"});
        doc.erase("version");
        expectBadProfile(doc, {"version is missing"});
        doc = goodProfileJson();
        doc["format"] = "schedlab-graph";
        expectBadProfile(doc, {"format is \"schedlab-graph\", expected \"schedlab-profile\""});
        doc = goodProfileJson();
        doc["fingerprint"] = fingerprintText(1234);
        expectBadProfile(doc, {"is not a model fingerprint", "graph fingerprint"});
        doc = goodProfileJson();
        doc.erase("ops");
        expectBadProfile(doc, {"ops is missing"});
        expectBadProfile(std::string("[1, 2]"), {"must be a JSON object"});

        expectBadProfile(text.substr(0, text.size() / 2), {"truncated"});
        expectBadProfile(std::string(), {"truncated"});
    }

    /// A profile the reader would refuse is never written; the old file stays.
    void saveRefusesBadProfile() {
        const std::string path = file("kept.profile.json");
        writeFileAtomically(path, "old content\n");
        Profile p = profileNaming({"n2"});
        p.ops[0].medianUs = std::numeric_limits<double>::quiet_NaN();
        expectIoError([&] { saveProfile(p, path); }, path, {"median_us"});
        p.ops[0].medianUs = 1;
        p.ops[0].repetitions = 0;
        expectIoError([&] { saveProfile(p, path); }, path, {"repetitions"});
        QCOMPARE(readFile(path), std::string("old content\n"));
    }

    // ---- applyProfile ----

    /// A fingerprint that matches is enough, however few ops the profile names.
    void applyWithMatchingFingerprint() {
        Graph g = alexnet();
        Profile p = profileNaming({"n4", "n16", "elsewhere"}, 99);
        p.fingerprint = sl::modelFingerprintText(modelFingerprint(g));
        const ProfileMatch m = applyProfile(g, p, "own.json");
        QCOMPARE(m.graphOps, 24);
        QCOMPARE(m.matched, 2);
        QCOMPARE(qNames(m.unknownNames), QStringList{"elsewhere"});
        QCOMPARE(m.unmeasured.size(), std::size_t(22));
        QVERIFY(g.finalized());
        QCOMPARE(g.op(g.findOp("n16")).duration, 99.0);
        QCOMPARE(qText(g.op(g.findOp("n16")).timeSource), qText(TimeSource::Measured));
        QCOMPARE(qText(g.op(g.findOp("n0")).timeSource), qText(TimeSource::Estimated));
        QCOMPARE(modelFingerprint(g), parseModelFingerprint(p.fingerprint).value());
    }

    /// Same op names (squeezenet's nodes are n0..n65 too), another model: the fingerprint says so.
    void refuseAnotherModelByFingerprint() {
        Profile p;
        p.fingerprint = sl::modelFingerprintText(modelFingerprint(alexnet()));
        for (int i = 0; i < 24; ++i) p.ops.push_back({"n" + std::to_string(i), "", 5, 0, 1});
        Graph g = squeezenet();
        const GraphTimes before(g);
        expectIoError([&] { applyProfile(g, p, "alexnet.profile.json"); }, "alexnet.profile.json",
                      {"another model", "24 of 66 ops match"});
        QVERIFY(GraphTimes(g) == before);
    }

    /// Without a fingerprint, fewer than half the ops matched by name is another model; half is enough.
    void refuseAnotherModelByCount() {
        Graph g = alexnet();
        const GraphTimes before(g);
        const Profile few = profileNaming({"n0", "n1", "n2", "conv1", "conv2"});
        expectIoError([&] { applyProfile(g, few, "few.json"); }, "few.json", {"another model", "3 of 24 ops match"});
        QVERIFY(GraphTimes(g) == before);

        Profile half;
        for (int i = 0; i < 12; ++i) half.ops.push_back({"n" + std::to_string(i), "", 5, 0, 1});
        QCOMPARE(applyProfile(g, half, "half.json").matched, 12);
    }

    /// Measured times replace per-device tables; a graph in seconds gets seconds.
    void applyClearsDeviceDurationsAndConverts() {
        Graph g = smallChain(TimeUnit::Microseconds);
        applyProfile(g, profileNaming({"a", "b"}, 7), "p.json");
        QCOMPARE(g.op(1).duration, 7.0);
        QVERIFY(g.op(1).deviceDurations.empty());
        QCOMPARE(g.op(2).duration, 4.0);
        QCOMPARE(qText(g.op(2).timeSource), qText(TimeSource::Given));

        Graph s = smallChain(TimeUnit::Seconds);
        applyProfile(s, profileNaming({"a", "b", "c"}, 2.5e6), "p.json");
        QCOMPARE(s.op(0).duration, 2.5);
        QCOMPARE(qText(s.timeUnit()), qText(TimeUnit::Seconds));
    }

    /// Abstract units cannot mix with microseconds: all ops or nothing, and then the unit is µs.
    void applyToAbstractUnits() {
        Graph g = smallChain(TimeUnit::Abstract);
        const GraphTimes before(g);
        expectIoError([&] { applyProfile(g, profileNaming({"a", "b"}), "p.json"); }, "p.json", {"abstract units", "2 of 3 ops match"});
        QVERIFY(GraphTimes(g) == before);
        applyProfile(g, profileNaming({"a", "b", "c"}, 9), "p.json");
        QCOMPARE(qText(g.timeUnit()), qText(TimeUnit::Microseconds));
        QCOMPARE(g.op(2).duration, 9.0);
    }

    /// A bad time in a Profile built in code refuses the whole profile, before any change.
    void applyRefusesBadTimesWhole() {
        Graph g = smallChain(TimeUnit::Microseconds);
        const GraphTimes before(g);
        Profile p = profileNaming({"a", "b", "c"});
        p.ops[2].medianUs = -3;
        expectIoError([&] { applyProfile(g, p, "p.json"); }, "p.json", {"op 'c'", "-3"});
        p.ops[2].medianUs = 2e15;   // above the duration limit
        expectIoError([&] { applyProfile(g, p, "p.json"); }, "p.json", {"op 'c'"});
        p.ops[2] = p.ops[0];
        expectIoError([&] { applyProfile(g, p, "p.json"); }, "p.json", {"op 'a' is measured twice"});
        QVERIFY(GraphTimes(g) == before);
        QCOMPARE(g.op(0).duration, 2.0);
    }

    // ---- ONNX Runtime traces ----

    /// The fixture: medians over two runs, fences skipped, fused/inserted nodes listed, removed
    /// ops left estimated, the per-thread order of the first run.
    void ortImport() {
        const Graph g = alexnet();
        OrtImportReport r;
        const Profile p = loadOrtProfile(kData + "/profiles/ort_small.json", g, r);
        QCOMPARE(r.runs, 2);
        QCOMPARE(r.kernelEvents, 44);   // 22 nodes x 2 runs; 88 fence events not counted
        QCOMPARE(r.graphOps, 24);
        QCOMPARE(r.matched, 20);
        QCOMPARE(r.unknownNodes.size(), std::size_t(2));
        QCOMPARE(r.unknownNodes[0].name, std::string("fused n0"));
        QCOMPARE(r.unknownNodes[0].type, std::string("FusedConv"));
        QCOMPARE(r.unknownNodes[0].events, 2);
        QCOMPARE(r.unknownNodes[1].name, std::string("ReorderOutput"));
        QCOMPARE(r.unknownNodes[1].events, 2);
        QCOMPARE(qNames(r.notRun), qSplit("n0:n1:n18:n21"));
        QCOMPARE(qNames(r.providers), QStringList{"CPUExecutionProvider"});

        // hand-computed from the fixture's two durations a, b: median (a+b)/2, IQR |b-a|/2
        const struct { const char* name; double median, spread; } expected[] = {
            {"n2", 42, 2},      {"n3", 20, 0},    {"n4", 510, 10}, {"n5", 11, 1},   {"n6", 30.5, 0.5},
            {"n7", 15, 0},      {"n8", 255, 5},   {"n9", 6, 1},    {"n10", 205, 5}, {"n11", 5, 0},
            {"n12", 135, 5},    {"n13", 3, 0},    {"n14", 5, 1},   {"n15", 1, 0},   {"n16", 1550, 50},
            {"n17", 2, 0},      {"n19", 710, 10}, {"n20", 2, 0},   {"n22", 175, 5}, {"n23", 2, 1},
            {"fused n0", 290, 10}, {"ReorderOutput", 8.5, 0.5}};
        QCOMPARE(p.ops.size(), std::size(expected));
        for (const auto& e : expected) {
            const OpMeasurement* m = measurementOf(p, e.name);
            QVERIFY2(m, e.name);
            QCOMPARE(m->medianUs, e.median);
            QCOMPARE(m->spreadUs, e.spread);
            QCOMPARE(m->repetitions, 2);
        }
        QCOMPARE(measurementOf(p, "n4")->type, std::string("Conv"));
        QCOMPARE(p.unmeasured.size(), std::size_t(4));
        QCOMPARE(p.unmeasured[0].name, std::string("n0"));
        QVERIFY2(p.unmeasured[0].reason.find("fused by ONNX Runtime into 'fused n0' (FusedConv)") != std::string::npos,
                 p.unmeasured[0].reason.c_str());
        QVERIFY(p.unmeasured[2].reason.find("not run by ONNX Runtime") != std::string::npos);
        QVERIFY(p.fingerprint.empty());
        QCOMPARE(p.tool, std::string("onnxruntime"));
        QCOMPARE(p.device, std::string("ONNX Runtime (CPUExecutionProvider)"));

        QCOMPARE(qNames(r.threadIds), qSplit("4242:4243"));
        QCOMPARE(r.measuredOrderPerThread.size(), std::size_t(2));
        QCOMPARE(qOpNames(g, r.measuredOrderPerThread[0]),
                 qSplit("n2:n3:n4:n5:n6:n7:n10:n11:n12:n13:n14:n15:n16:n17:n19:n20:n22:n23"));
        QCOMPARE(qOpNames(g, r.measuredOrderPerThread[1]), qSplit("n8:n9"));

        // and as a profile: saved, read back, applied to a copy
        const std::string path = file("ort.profile.json");
        saveProfile(p, path);
        Graph h = g;
        const ProfileMatch m = applyProfile(h, loadProfile(path), path);
        QCOMPARE(m.matched, 20);
        QCOMPARE(qNames(m.unknownNames), qSplit("fused n0:ReorderOutput"));
        QCOMPARE(qNames(m.unmeasured), qSplit("n0:n1:n18:n21"));
        QCOMPARE(h.op(h.findOp("n16")).duration, 1550.0);
        QCOMPARE(qText(h.op(h.findOp("n16")).timeSource), qText(TimeSource::Measured));
        QCOMPARE(h.op(h.findOp("n0")).duration, g.op(g.findOp("n0")).duration);
        QCOMPARE(qText(h.op(h.findOp("n0")).timeSource), qText(TimeSource::Estimated));
        QCOMPARE(modelFingerprint(h), modelFingerprint(g));
    }

    /// Without "model_run" events all events are one run: medians over all, order by first appearance.
    void ortWithoutRuns() {
        const Graph g = alexnet();
        const std::string text = "[" + ortKernel("n2", 5, 3) + "," + ortKernel("n4", 10, 12, 2) + "," +
                                 ortKernel("n4", 40, 10) + "," + ortKernel("n3", 60, 1) + "," + ortKernel("n4", 70, 11, 2) +
                                 "," + ortKernel("n4", 100, 30, 2) + "]";
        OrtImportReport r;
        const Profile p = importOrtProfile(text, "onnxruntime_profile__2024-05-01_10-20-30.json", g, r);
        QCOMPARE(r.runs, 0);
        QCOMPARE(r.matched, 3);
        QCOMPARE(measurementOf(p, "n4")->medianUs, 11.5);
        QCOMPARE(measurementOf(p, "n4")->spreadUs, 5.75);
        QCOMPARE(measurementOf(p, "n4")->repetitions, 4);
        QCOMPARE(measurementOf(p, "n2")->spreadUs, 0.0);
        QCOMPARE(p.created, std::string("2024-05-01T10:20:30"));
        QCOMPARE(qNames(r.threadIds), qSplit("1:2"));
        QCOMPARE(qOpNames(g, r.measuredOrderPerThread[0]), qSplit("n2:n3"));
        QCOMPARE(qOpNames(g, r.measuredOrderPerThread[1]), QStringList{"n4"});

        // the Chrome trace's object form holds the same events
        OrtImportReport r2;
        importOrtProfile(R"({"traceEvents": )" + text + "}", "t.json", g, r2);
        QCOMPARE(r2.matched, 3);
        QVERIFY(importOrtProfile(text, "t.json", g, r2).created.empty());
    }

    void ortErrors() {
        expectBadOrt("{}", {"JSON array of trace events"});
        expectBadOrt(R"([{"cat": "Node", "name": "n2_kernel_time", "ts": 1}])", {"event #0 ('n2_kernel_time')", "\"dur\""});
        expectBadOrt("[" + ortKernel("n2", 1, -4) + "]", {"event #0", "must not be negative"});
        expectBadOrt(R"([{"cat": "Node", "name": "n2_fence_before", "ts": 1, "dur": 1}])", {"no \"<node>_kernel_time\" events"});
        expectBadOrt("[]", {"no \"<node>_kernel_time\" events"});
        expectBadOrt("[" + ortKernel("n2", 1, 4) + "," + ortKernel("n3", 9, 4).substr(0, 30), {"truncated"});
        expectBadOrt("[" + ortKernel("", 1, 4) + "]", {"without a node name"});
    }
};

} // namespace profiletest

SCHEDLAB_TEST_MAIN(profile, profiletest::TestProfile)
#include "tst_profile.moc"
