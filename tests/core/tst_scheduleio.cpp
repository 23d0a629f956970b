// SPDX-License-Identifier: MIT
// Schedule files (core/io/scheduleio.h): JSON round trip and contract, CSV, Chrome trace, annotated
// DOT, atomic writes and the errors malformed schedule files give.
#include "common/testmain.h"
#include "core/analysis/levels.h"
#include "core/brkga/regaldecoder.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/util/random.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/memorytimeline.h"
#include "core/generators/generators.h"
#include "core/graph/fingerprint.h"
#include "core/heuristics/evaluate.h"
#include "core/io/graphio.h"
#include "core/io/scheduleio.h"
#include "core/util/atomicfile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

using namespace sl;
using nlohmann::json;

namespace {

/// A 60-op layered graph on 3 devices with a slow interconnect: timed transfers, memory on every device.
Problem layeredProblem() {
    GeneratedInstance inst = generateLayered(60, 11);
    Problem p{inst.graph, Platform::identical(3), {}};
    p.platform.devices[1].name = "GPU \"one\"";   // a name that needs escaping
    p.platform.link.latency = 0.5;
    p.platform.link.bandwidth = 1e6;
    p.check();
    return p;
}

Schedule listSchedule(const Problem& p) {
    ListScheduler ls(p);
    Schedule s = ls.schedule(bottomLevels(p.g()));
    scoreSchedule(p, s);
    s.method = "list-cp";
    s.seed = 18446744073709551615ull;   // the largest seed survives the round trip
    return s;
}

/// Two ops whose names need quoting in CSV and DOT.
Problem quotedNamesProblem() {
    auto g = std::make_shared<Graph>();
    const OpId a = g->addOp({.name = "conv, \"1\"", .type = "Conv", .duration = 2, .paramBytes = 8});
    const OpId b = g->addOp({.name = "relu\\N", .type = "Relu", .duration = 1});
    g->addEdge(a, b, 16);
    g->finalize();
    return Problem{g, Platform::identical(2), {}};
}

std::string readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

QStringList csvFields(const QString& line) {
    QStringList out;
    QString cur;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                cur += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                cur += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            out << cur;
            cur.clear();
        } else {
            cur += c;
        }
    }
    out << cur;
    return out;
}

} // namespace

class TestScheduleIo : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString file(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

    /// Parses `text` for the problem and expects an IoError naming the file and containing `fault`.
    void expectFault(const Problem& p, const std::string& text, const std::string& fault) {
        const std::string source = "bad-schedule.json";
        try {
            parseScheduleJson(p, text, source);
            QFAIL(("no error for a schedule that should give: " + fault).c_str());
        } catch (const IoError& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.rfind(source + ": ", 0) == 0, msg.c_str());
            QVERIFY2(msg.find(fault) != std::string::npos, (msg + "  (expected: " + fault + ")").c_str());
        }
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void jsonRoundTrip() {
        const Problem p = layeredProblem();
        const Schedule s = listSchedule(p);
        QVERIFY(!s.transfers.empty());
        const QString path = file("round.json");
        saveScheduleJson(p, s, path.toStdString());
        Schedule r = loadScheduleJson(p, path.toStdString());
        QVERIFY(validateSchedule(p, r).ok());
        scoreSchedule(p, r);   // reading takes no objective value from the file
        QCOMPARE(r.ops.size(), s.ops.size());
        for (size_t v = 0; v < s.ops.size(); ++v) {
            QCOMPARE(r.ops[v].device, s.ops[v].device);
            QCOMPARE(r.ops[v].start, s.ops[v].start);
            QCOMPARE(r.ops[v].end, s.ops[v].end);
        }
        QVERIFY(r.order == s.order);
        QCOMPARE(r.transfers.size(), s.transfers.size());
        for (size_t k = 0; k < s.transfers.size(); ++k) {
            QCOMPARE(r.transfers[k].tensor, s.transfers[k].tensor);
            QCOMPARE(r.transfers[k].from, s.transfers[k].from);
            QCOMPARE(r.transfers[k].to, s.transfers[k].to);
            QCOMPARE(r.transfers[k].start, s.transfers[k].start);
            QCOMPARE(r.transfers[k].end, s.transfers[k].end);
        }
        QCOMPARE(r.makespan, s.makespan);
        QVERIFY(r.stepMemory.devices == s.stepMemory.devices);
        QVERIFY(r.timeMemory.devices == s.timeMemory.devices);
        QVERIFY(r.memoryClock == s.memoryClock);
        QCOMPARE(r.method, s.method);
        QCOMPARE(r.seed, s.seed);
        // Writing what was read gives the same bytes.
        QCOMPARE(scheduleToJson(p, r), scheduleToJson(p, s));
    }

    // REGAL's chromosome orders transfers too: their steps survive the file, so the step clock
    // `evaluate` computes is the one the decoder minimised, to the bit.
    void jsonTransferStepsRoundTrip() {
        Problem p = layeredProblem();
        p.objective.kind = Objective::Memory;
        RegalDecoder dec(p);
        Rng rng(5);
        std::vector<double> keys(dec.layout().size());
        for (double& k : keys) k = rng.uniform();
        const double cost = dec.decode(keys);
        const Schedule s = dec.schedule(keys);
        QVERIFY(!s.transfers.empty());
        Schedule r = parseScheduleJson(p, scheduleToJson(p, s), "steps.json");
        QVERIFY(validateSchedule(p, r).ok());
        QVERIFY(scoreSchedule(p, r) == cost);
        for (size_t k = 0; k < s.transfers.size(); ++k) QCOMPARE(r.transfers[k].step, s.transfers[k].step);
        QVERIFY(r.order == s.order);
        // A transfer step out of the sequence is refused, naming the tensor.
        Schedule bad = r;
        const ScheduledTransfer& x = bad.transfers.front();
        bad.transfers.front().step = static_cast<int>(bad.order.size() + bad.transfers.size());
        const ValidationReport v = validateSchedule(p, bad);
        QVERIFY(!v.ok());
        QVERIFY2(v.errors.front().find(p.g().tensor(x.tensor).name) != std::string::npos, v.errors.front().c_str());
    }

    void jsonContract() {
        const Problem p = layeredProblem();
        const Schedule s = listSchedule(p);
        const json j = json::parse(scheduleToJson(p, s));
        QCOMPARE(j.at("format").get<std::string>(), std::string("schedlab-schedule"));
        QCOMPARE(j.at("version").get<int>(), 1);
        QVERIFY(j.at("makespan").is_number());
        QCOMPARE(j.at("makespan").get<double>(), s.makespan);
        QVERIFY(j.at("peak_memory_bytes").is_number());
        QCOMPARE(j.at("memory_clock").get<std::string>(), std::string("step"));   // the default
        QCOMPARE(j.at("peak_memory_bytes").get<double>(), s.stepMemory.peak);
        QCOMPARE(j.at("peak_memory_step_bytes").get<double>(), s.stepMemory.peak);
        QCOMPARE(j.at("peak_memory_time_bytes").get<double>(), s.timeMemory.peak);
        QCOMPARE(j.at("method").get<std::string>(), std::string("list-cp"));
        QVERIFY(j.at("seed").is_number_unsigned());
        QCOMPARE(j.at("devices").size(), size_t(3));
        QCOMPARE(j.at("devices")[1].get<std::string>(), std::string("GPU \"one\""));
        QCOMPARE(j.at("order").size(), size_t(p.g().opCount()));
        QCOMPARE(j.at("order")[0].get<std::string>(), p.g().op(s.order[0]).name);
        const json& ops = j.at("ops");
        QCOMPARE(ops.size(), size_t(p.g().opCount()));
        for (const json& o : ops) {
            QVERIFY(o.at("id").is_string());
            QVERIFY(o.at("device").is_number_integer());
            QVERIFY(o.at("start").is_number() && o.at("end").is_number());
            const OpId v = p.g().findOp(o.at("id").get<std::string>());
            QVERIFY(v != kNoOp);
            QCOMPARE(o.at("end").get<double>(), s.ops[static_cast<size_t>(v)].end);
        }
        QCOMPARE(j.at("transfers").size(), s.transfers.size());
        QVERIFY(j.at("transfers")[0].at("tensor").is_string());
    }

    void jsonOptionalFields() {
        // A hand-written schedule with only "ops": order from the start times, transfers and
        // memory from the cost model.
        const Problem p = layeredProblem();
        const Schedule s = listSchedule(p);
        json j = json::parse(scheduleToJson(p, s));
        json minimal = {{"ops", j.at("ops")}};
        Schedule r = parseScheduleJson(p, minimal.dump(), "minimal.json");
        QVERIFY(validateSchedule(p, r).ok());
        scoreSchedule(p, r);
        QCOMPARE(r.makespan, s.makespan);
        QCOMPARE(r.transfers.size(), s.transfers.size());
        QCOMPARE(r.timeMemory.peak, computeMemoryTimeline(p, s).peak);
        std::vector<int> pos(r.order.size());
        for (size_t i = 0; i < r.order.size(); ++i) pos[static_cast<size_t>(r.order[i])] = static_cast<int>(i);
        for (OpId v = 0; v < p.g().opCount(); ++v)
            for (OpId q : p.g().predecessors(v)) QVERIFY(pos[static_cast<size_t>(q)] < pos[static_cast<size_t>(v)]);
    }

    // The fingerprint (core/graph/fingerprint.h) changes with any one field an op or tensor
    // carries, and survives the native JSON round trip, so a schedule knows its graph.
    void fingerprintSeesEveryField_data() {
        QTest::addColumn<int>("field");
        const char* names[] = {"op name", "op type", "duration", "param bytes", "resource demand", "machine type",
                               "per-device durations", "tensor name", "tensor bytes", "an extra consumer", "an extra op"};
        for (int i = 0; i < int(std::size(names)); ++i) QTest::addRow("%s", names[i]) << i;
    }
    void fingerprintSeesEveryField() {
        QFETCH(int, field);
        auto build = [](int change) {
            Graph g;
            const OpId a = g.addOp({.name = "a", .type = "Conv", .duration = 2, .paramBytes = 8});
            const OpId b = g.addOp({.name = "b", .type = "Relu", .duration = 1});
            const OpId c = g.addOp({.name = "c", .type = "Add", .duration = 3});
            const TensorId t = g.addTensor(change == 7 ? "a:out" : "a:0", a, change == 8 ? 65 : 64);
            g.addConsumer(t, b);
            g.addEdge(b, c, 16);
            switch (change) {
            case 0: g.mutableOp(a).name = "a2"; break;
            case 1: g.mutableOp(a).type = "MatMul"; break;
            case 2: g.mutableOp(b).duration = 1.0000001; break;
            case 3: g.mutableOp(a).paramBytes = 9; break;
            case 4: g.mutableOp(c).resourceDemand = 0.5; break;
            case 5: g.mutableOp(c).machineType = 1; break;
            case 6: g.mutableOp(a).deviceDurations = {2, 3}; break;
            case 9: g.addConsumer(t, c); break;
            case 10: g.addOp({.name = "d", .duration = 1}); break;
            default: break;
            }
            g.finalize();
            return graphFingerprint(g);
        };
        QVERIFY(build(-1) == build(-1));   // deterministic
        QVERIFY2(build(field) != build(-1), "the fingerprint missed a change");
    }

    void fingerprintSurvivesTheJsonRoundTrip() {
        const Problem p = layeredProblem();
        const std::uint64_t before = graphFingerprint(p.g());
        const LoadedGraph back = parseGraph(graphToJson(p.g(), &p.platform), GraphFormat::Json, "round.json");
        QCOMPARE(graphFingerprint(*back.graph), before);
        QCOMPARE(parseFingerprint(fingerprintText(before)), std::optional<std::uint64_t>(before));
        QCOMPARE(fingerprintText(0x0123456789abcdefULL), std::string("fnv1a64:0123456789abcdef"));
        QVERIFY(!parseFingerprint("fnv1a64:xyz"));
        QVERIFY(!parseFingerprint("0123456789abcdef"));
        // another graph of the same family and size differs
        QVERIFY(graphFingerprint(*generateLayered(60, 12).graph) != before);
    }

    // The schedule says where it belongs: its platform and its graph; older files without either still read.
    void jsonRecordsPlatformAndGraph() {
        const Problem p = layeredProblem();
        const Schedule s = listSchedule(p);
        const std::string text = scheduleToJson(p, s);
        const json j = json::parse(text);
        QCOMPARE(j.at("platform").at("devices").size(), size_t(3));
        QCOMPARE(j.at("platform").at("devices")[1].at("name").get<std::string>(), std::string("GPU \"one\""));
        QCOMPARE(j.at("platform").at("interconnect").at("bandwidth").get<double>(), 1e6);
        QCOMPARE(j.at("graph").at("ops").get<int>(), p.g().opCount());
        QCOMPARE(j.at("graph").at("fingerprint").get<std::string>(), fingerprintText(graphFingerprint(p.g())));
        const ScheduleOrigin o = parseScheduleOrigin(text, "s.json");
        QVERIFY(o.platform);
        QCOMPARE(o.platform->deviceCount(), 3);
        QCOMPARE(o.platform->devices[1].name, std::string("GPU \"one\""));
        QCOMPARE(o.platform->link.latency, 0.5);
        QCOMPARE(o.platform->link.bandwidth, 1e6);
        QCOMPARE(o.graphFingerprint, std::optional<std::uint64_t>(graphFingerprint(p.g())));
        QCOMPARE(o.graphOps, p.g().opCount());
        QCOMPARE(o.deviceCount, 3);
        // an older file: no platform, no graph
        json old = j;
        old.erase("platform");
        old.erase("graph");
        const ScheduleOrigin none = parseScheduleOrigin(old.dump(), "old.json");
        QVERIFY(!none.platform && !none.graphFingerprint);
        QCOMPARE(none.deviceCount, 3);
        QVERIFY(parseScheduleJson(p, old.dump(), "old.json").order == s.order);
        // a damaged fingerprint is named
        json bad = j;
        bad["graph"]["fingerprint"] = "fnv1a64:nothex";
        try {
            parseScheduleOrigin(bad.dump(), "bad.json");
            QFAIL("a malformed fingerprint was accepted");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).find("bad.json") != std::string::npos && std::string(e.what()).find("fingerprint") != std::string::npos, e.what());
        }
    }

    void csv() {
        const Problem p = layeredProblem();
        const Schedule s = listSchedule(p);
        const QString path = file("s.csv");
        saveScheduleCsv(p, s, path.toStdString());
        const QStringList lines = QString::fromStdString(readText(path)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), p.g().opCount() + 1);
        QCOMPARE(lines[0], QStringLiteral("op,type,device,start,end,duration,position"));
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList f = csvFields(lines[i]);
            QCOMPARE(f.size(), 7);
            const OpId v = p.g().findOp(f[0].toStdString());
            QVERIFY(v != kNoOp);
            QCOMPARE(f[2].toInt(), s.ops[static_cast<size_t>(v)].device);
            QCOMPARE(f[4].toDouble(), s.ops[static_cast<size_t>(v)].end);
            QCOMPARE(f[6].toInt(), i - 1);   // rows follow the schedule's order
            QCOMPARE(s.order[static_cast<size_t>(i - 1)], v);
        }

        // Names with commas and quotes are quoted (RFC 4180).
        const Problem q = quotedNamesProblem();
        const Schedule qs = sequentialSchedule(q, q.g().topologicalOrder());
        saveScheduleCsv(q, qs, file("q.csv").toStdString());
        const QStringList ql = QString::fromStdString(readText(file("q.csv"))).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(ql.size(), 3);
        QCOMPARE(csvFields(ql[1]).value(0), QStringLiteral("conv, \"1\""));
        QCOMPARE(csvFields(ql[1]).size(), 7);
    }

    void chromeTrace() {
        const Problem p = layeredProblem();
        const Schedule s = listSchedule(p);
        const QString path = file("trace.json");
        saveChromeTrace(p, s, path.toStdString());
        const json trace = json::parse(readText(path));   // valid JSON, or this throws
        const json& events = trace.at("traceEvents");
        QVERIFY(events.is_array());

        std::map<int, std::string> threads;                    // pid 1: tid -> name
        std::map<int, std::vector<std::pair<double, double>>> slices;
        std::map<std::string, double> counterMax;
        int opSlices = 0, transferSlices = 0, flowStarts = 0, flowEnds = 0;
        for (const json& e : events) {
            const std::string ph = e.at("ph").get<std::string>();
            QVERIFY(e.at("pid").is_number_integer());
            if (ph == "M" && e.at("name") == "thread_name" && e.at("pid") == 1)
                threads[e.at("tid").get<int>()] = e.at("args").at("name").get<std::string>();
            if (ph == "X") {
                QVERIFY(e.at("tid").is_number_integer());
                QVERIFY(e.at("dur").get<double>() >= 0);
                if (e.at("pid") == 1) {
                    ++opSlices;
                    slices[e.at("tid").get<int>()].emplace_back(e.at("ts").get<double>(),
                                                                e.at("ts").get<double>() + e.at("dur").get<double>());
                } else {
                    ++transferSlices;
                    slices[1000 + e.at("tid").get<int>()].emplace_back(e.at("ts").get<double>(),
                                                                       e.at("ts").get<double>() + e.at("dur").get<double>());
                }
            }
            if (ph == "C") {
                const std::string name = e.at("name").get<std::string>();
                const double bytes = e.at("args").at("bytes").get<double>();
                counterMax[name] = std::max(counterMax[name], bytes);
            }
            flowStarts += ph == "s";
            flowEnds += ph == "f";
        }
        // One thread per device, named after it; every op once; no overlap on a device's track.
        QCOMPARE(int(threads.size()), p.platform.deviceCount());
        for (int d = 0; d < p.platform.deviceCount(); ++d) QCOMPARE(threads[d], p.platform.devices[static_cast<size_t>(d)].name);
        QCOMPARE(opSlices, p.g().opCount());
        for (auto& [tid, list] : slices) {   // devices, then transfer lanes (1000 + lane)
            QVERIFY(tid < p.platform.deviceCount() || tid >= 1000);
            std::sort(list.begin(), list.end());
            for (size_t i = 1; i < list.size(); ++i) QVERIFY(list[i].first >= list[i - 1].second);
        }
        // Transfers take time here: slices and arrows.
        QCOMPARE(transferSlices, int(s.transfers.size()));
        QCOMPARE(flowStarts, int(s.transfers.size()));
        QCOMPARE(flowEnds, flowStarts);
        // A memory counter per device; their max is the schedule's peak memory.
        QCOMPARE(int(counterMax.size()), p.platform.deviceCount());
        double peak = 0;
        for (int d = 0; d < p.platform.deviceCount(); ++d) {
            const std::string name = "memory " + p.platform.devices[static_cast<size_t>(d)].name;
            QVERIFY2(counterMax.count(name), name.c_str());
            QCOMPARE(counterMax[name], s.timeMemory.devices[static_cast<size_t>(d)]);
            peak = std::max(peak, counterMax[name]);
        }
        QVERIFY(s.timeMemory.peak > 0);
        QCOMPARE(peak, s.timeMemory.peak);   // the counters draw the time clock
    }

    void annotatedDot() {
        const Problem p = layeredProblem();
        const Schedule s = listSchedule(p);
        const QString path = file("s.dot");
        saveAnnotatedDot(p, s, path.toStdString());
        const QString text = QString::fromStdString(readText(path));
        QVERIFY(text.contains(QLatin1String("digraph schedule {")));
        QVERIFY(text.trimmed().endsWith(QLatin1Char('}')));
        int tensorEdges = 0;   // one edge per (tensor, consumer), as the DOT reader reads them
        for (const Tensor& t : p.g().tensors()) tensorEdges += int(t.consumers.size());
        QCOMPARE(int(text.count(QLatin1String(" -> "))), tensorEdges);
        // Each op labelled with its position in the order and filled with its device's colour.
        const OpId first = s.order[0];
        QVERIFY(text.contains(QString::fromStdString("label=\"#0 " + p.g().op(first).name + "\"")));
        QVERIFY(text.contains(QLatin1String("fillcolor=\"#4e79a7\"")));
        QVERIFY(text.contains(QLatin1String("fillcolor=\"#f28e2b\"")));
        QVERIFY(text.contains(QLatin1String("GPU &quot;one&quot;")));   // legend, HTML-escaped

        // The DOT reader reads it back as the same graph (every tensor here has a consumer or is
        // an output nobody reads, which DOT cannot carry).
        const LoadedGraph back = parseGraph(text.toStdString(), GraphFormat::Dot, "s.dot");
        const Graph& g = p.g();
        QCOMPARE(back.graph->opCount(), g.opCount());
        QCOMPARE(back.graph->edgeCount(), g.edgeCount());
        int consumed = 0;
        for (const Tensor& t : g.tensors()) consumed += !t.consumers.empty();
        QCOMPARE(back.graph->tensorCount(), consumed);
        for (OpId v = 0; v < g.opCount(); ++v) {
            const OpId w = back.graph->findOp(g.op(v).name);
            QVERIFY(w != kNoOp);
            QCOMPARE(back.graph->op(w).duration, g.op(v).duration);
            QCOMPARE(back.graph->op(w).type, g.op(v).type);
            QCOMPARE(back.graph->outputBytes(w) <= g.outputBytes(v), true);
        }

        // Quotes in names are escaped; backslashes are doubled in labels only (cgraph keeps them in IDs).
        const Problem q = quotedNamesProblem();
        saveAnnotatedDot(q, sequentialSchedule(q, q.g().topologicalOrder()), file("q.dot").toStdString());
        const QString qt = QString::fromStdString(readText(file("q.dot")));
        const QLatin1String edge("\"conv, \\\"1\\\"\" -> \"relu\\N\"");    // "conv, \"1\"" -> "relu\N"
        const QLatin1String relu("label=\"#1 relu\\\\N\"");                  // label="#1 relu\\N"
        QVERIFY2(qt.contains(edge), qPrintable(qt));
        QVERIFY2(qt.contains(relu), qPrintable(qt));
        const LoadedGraph qback = parseGraph(qt.toStdString(), GraphFormat::Dot, "q.dot");
        QVERIFY(qback.graph->findOp("conv, \"1\"") != kNoOp);
        QVERIFY(qback.graph->findOp("relu\\N") != kNoOp);
        QCOMPARE(qback.graph->op(qback.graph->findOp("conv, \"1\"")).paramBytes, 8.0);
    }

    void atomicWrites() {
        const Problem p = layeredProblem();
        const Schedule s = listSchedule(p);
        // Into a missing folder: IoError naming the path, and no file.
        const std::string missing = file("no-such-folder/s.json").toStdString();
        for (auto save : {&saveScheduleJson, &saveScheduleCsv, &saveChromeTrace, &saveAnnotatedDot}) {
            try {
                save(p, s, missing);
                QFAIL("writing into a missing folder did not throw");
            } catch (const IoError& e) {
                QVERIFY2(std::string(e.what()).find(missing) != std::string::npos, e.what());
            }
            QVERIFY(!QFile::exists(QString::fromStdString(missing)));
        }
        QVERIFY(!QDir(file("no-such-folder")).exists());

        // A failed export leaves an existing target as it was, and no temporary file beside it.
        QDir sub(file("keep"));
        QVERIFY(QDir().mkpath(sub.path()));
        const std::string target = sub.filePath(QStringLiteral("target.json")).toStdString();
        writeFileAtomically(target, "old content\n");
        Schedule broken = s;
        broken.ops[3].device = 7;   // the platform has 3 devices
        for (auto save : {&saveScheduleJson, &saveScheduleCsv, &saveChromeTrace, &saveAnnotatedDot}) {
            QVERIFY_THROWS_EXCEPTION(IoError, save(p, broken, target));
            QCOMPARE(readText(QString::fromStdString(target)), std::string("old content\n"));
        }
        // A folder where the file should be: the rename fails, nothing is left behind.
        QVERIFY(QDir().mkpath(sub.filePath(QStringLiteral("folder.json/inner"))));
        QVERIFY_THROWS_EXCEPTION(IoError, saveScheduleJson(p, s, sub.filePath(QStringLiteral("folder.json")).toStdString()));
        QCOMPARE(sub.entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("target.json")});
        // A successful write replaces it whole.
        saveScheduleJson(p, s, target);
        QCOMPARE(parseScheduleJson(p, readText(QString::fromStdString(target)), target).order, s.order);
    }

    void malformedSchedules() {
        const Problem p = layeredProblem();
        const Schedule s = listSchedule(p);
        const std::string good = scheduleToJson(p, s);
        const json j = json::parse(good);
        const std::string op0 = j["ops"][0]["id"].get<std::string>();
        const std::string op1 = j["ops"][1]["id"].get<std::string>();
        auto edit = [&](auto change) {
            json k = j;
            change(k);
            return k.dump();
        };

        expectFault(p, good.substr(0, good.size() / 2), "not valid JSON");
        expectFault(p, "", "not valid JSON");
        expectFault(p, "[1, 2]", "JSON object");
        expectFault(p, edit([](json& k) { k.erase("ops"); }), "\"ops\"");
        expectFault(p, edit([](json& k) { k["ops"] = "none"; }), "\"ops\" must be an array");
        expectFault(p, edit([](json& k) { k["format"] = "something-else"; }), "not a SchedLab schedule");
        expectFault(p, edit([](json& k) { k["version"] = 3; }), "version 3 is newer");
        expectFault(p, edit([](json& k) { k["ops"][0]["id"] = "no-such-op"; }), "unknown op 'no-such-op'");
        expectFault(p, edit([&](json& k) { k["ops"][1]["id"] = op0; }), "op '" + op0 + "' appears twice in \"ops\"");
        expectFault(p, edit([](json& k) { k["ops"].erase(1); }), "no entry for op '" + op1 + "'");
        expectFault(p, edit([](json& k) { k["ops"][0]["device"] = 3; }), "device 3 is out of range");
        expectFault(p, edit([](json& k) { k["ops"][0]["device"] = -1; }), "device -1 is out of range");
        expectFault(p, edit([](json& k) { k["ops"][0]["device"] = 1.5; }), "must be a device index");
        expectFault(p, edit([](json& k) { k["ops"][0]["device"] = "0"; }), "must be a device index (an integer), not a string");
        expectFault(p, edit([](json& k) { k["ops"][0]["start"] = "soon"; }), "op '" + op0 + "': \"start\" must be a number");
        expectFault(p, edit([](json& k) { k["ops"][0].erase("end"); }), "op '" + op0 + "' has no \"end\"");
        expectFault(p, edit([](json& k) { k["ops"][0] = 5; }), "\"ops\"[0] must be an object");
        expectFault(p, edit([](json& k) { k["ops"][0]["id"] = 5; }), "\"ops\"[0].id must be a string");
        expectFault(p, edit([](json& k) { k["order"][0] = "ghost"; }), "unknown op 'ghost'");
        expectFault(p, edit([](json& k) { k["order"].erase(0); }), "\"order\" does not contain op");
        expectFault(p, edit([&](json& k) { k["order"][1] = k["order"][0]; }), "appears twice in \"order\"");
        expectFault(p, edit([](json& k) { k["makespan"] = "long"; }), "\"makespan\" must be a number");
        expectFault(p, edit([](json& k) { k["memory_clock"] = "wall"; }), "\"memory_clock\" must be");
        expectFault(p, edit([](json& k) { k["seed"] = -3; }), "\"seed\" must be a non-negative integer");
        expectFault(p, edit([](json& k) { k["devices"].push_back("extra"); }), "uses 4 devices, the platform has 3");
        expectFault(p, edit([](json& k) { k["transfers"][0]["tensor"] = "nothing"; }), "unknown tensor 'nothing'");
        expectFault(p, edit([](json& k) { k["transfers"][0]["to"] = 9; }), "device 9 is out of range");

        // A missing file names the path.
        const std::string missing = file("absent.json").toStdString();
        try {
            loadScheduleJson(p, missing);
            QFAIL("no error for a missing file");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).find(missing) != std::string::npos, e.what());
        }
    }
};

SCHEDLAB_TEST_MAIN(scheduleio, TestScheduleIo)
#include "tst_scheduleio.moc"
