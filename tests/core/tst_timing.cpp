// SPDX-License-Identifier: MIT
// Real time (docs/time.md): roofline times of ops on catalogue devices checked against values
// computed by hand from the datasheets, preset topologies' routes, ring collectives by their
// formulas, re-timing a graph on another machine, the device and preset files' refusals, and the
// one cost model with topologies: the list scheduler, the chain timing and an independent
// re-computation agree to the bit on random problems.
#include "common/reference.h"
#include "common/testmain.h"
#include "core/costmodel/chaintiming.h"
#include "core/costmodel/validator.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"
#include "core/profile/measuredschedule.h"
#include "core/timing/catalog.h"
#include "core/timing/collectives.h"
#include "core/timing/devicespec.h"
#include "core/timing/machine.h"
#include "core/timing/retime.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace sl;

namespace timingtest {

bool nearlyEqual(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

OpWork work(OpClass c, DType t, double flops, double read, double written) {
    return {.opClass = c, .dtype = t, .flops = flops, .bytesRead = read, .bytesWritten = written};
}

const DeviceSpec& device(const char* id) { return DeviceCatalog::instance().device(id); }

/// A 1024^3 matmul in bf16 on two weights, an all-reduce of its result over 4 ranks, a reshape.
const char* const kHloStep = R"(HloModule step
ENTRY %main (p0: bf16[1024,1024], p1: bf16[1024,1024]) -> bf16[1024,1024] {
  %p0 = bf16[1024,1024]{1,0} parameter(0)
  %p1 = bf16[1024,1024]{1,0} parameter(1)
  %dot = bf16[1024,1024]{1,0} dot(%p0, %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %ar = bf16[1024,1024]{1,0} all-reduce(%dot), replica_groups={{0,1,2,3}}, to_apply=%sum
  ROOT %r = bf16[1024,1024]{1,0} reshape(%ar)
}
)";

} // namespace timingtest

using namespace timingtest;

class TestTiming : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    // Launch 4 us; the efficiency steps of Calculon's A100 file; peaks from the datasheets.
    void rooflineByHand_data() {
        QTest::addColumn<QString>("device");
        QTest::addColumn<int>("opClass");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<double>("flops");
        QTest::addColumn<double>("read");
        QTest::addColumn<double>("written");
        QTest::addColumn<double>("expected");
        const int mm = static_cast<int>(OpClass::Matmul), conv = static_cast<int>(OpClass::Conv),
                  ew = static_cast<int>(OpClass::Elementwise);
        const int f32 = static_cast<int>(DType::F32), bf16 = static_cast<int>(DType::BF16);
        // 1024^3 matmul: 2.147 GFLOP; bf16 6.29 MB moved (eff 0.6), fp32 12.58 MB (0.75).
        // bf16 runs on the tensor cores at 312 (A100) / 989.4 (H100) TFLOP/s, eff 0.6: 11.47 / 3.62 us.
        QTest::newRow("matmul bf16 A100") << "a100-sxm4-80gb" << mm << bf16 << 2147483648.0 << 4194304.0 << 2097152.0
                                          << 4 + 2147483648.0 / (312e12 * 0.6) * 1e6;   // 15.47 us
        QTest::newRow("matmul bf16 H100") << "h100-sxm5-80gb" << mm << bf16 << 2147483648.0 << 4194304.0 << 2097152.0
                                          << 4 + 2147483648.0 / (989.4e12 * 0.6) * 1e6;   // 7.62 us
        // fp32 has no tensor-core peak (TF32 is a choice of the framework): vector 19.5 / 67, eff 0.5.
        QTest::newRow("matmul fp32 A100") << "a100-sxm4-80gb" << mm << f32 << 2147483648.0 << 8388608.0 << 4194304.0
                                          << 4 + 2147483648.0 / (19.5e12 * 0.5) * 1e6;   // 224.25 us
        QTest::newRow("matmul fp32 H100") << "h100-sxm5-80gb" << mm << f32 << 2147483648.0 << 8388608.0 << 4194304.0
                                          << 4 + 2147483648.0 / (67e12 * 0.5) * 1e6;   // 68.10 us
        // 3x3 conv 64 -> 64 channels on 32 x 56 x 56: 7.40 GFLOP; fp32 51.5 MB, bf16 25.8 MB (eff 0.75).
        QTest::newRow("conv fp32 A100") << "a100-sxm4-80gb" << conv << f32 << 7398752256.0 << 25837568.0 << 25690112.0
                                        << 4 + 7398752256.0 / (19.5e12 * 0.5) * 1e6;   // 762.85 us
        QTest::newRow("conv bf16 A100") << "a100-sxm4-80gb" << conv << bf16 << 7398752256.0 << 12918784.0 << 12845056.0
                                        << 4 + 7398752256.0 / (312e12 * 0.6) * 1e6;   // 43.52 us
        // relu over 2^20 elements: memory-bound; 8.39 MB (fp32) and 4.19 MB (bf16) at eff 0.6.
        QTest::newRow("relu fp32 A100") << "a100-sxm4-80gb" << ew << f32 << 1048576.0 << 4194304.0 << 4194304.0
                                        << 4 + 8388608.0 / (2039e9 * 0.6) * 1e6;   // 10.86 us
        QTest::newRow("relu bf16 H100") << "h100-sxm5-80gb" << ew << bf16 << 1048576.0 << 2097152.0 << 2097152.0
                                        << 4 + 4194304.0 / (3350e9 * 0.6) * 1e6;   // 6.09 us
    }
    void rooflineByHand() {
        QFETCH(QString, device);
        QFETCH(int, opClass);
        QFETCH(int, dtype);
        QFETCH(double, flops);
        QFETCH(double, read);
        QFETCH(double, written);
        QFETCH(double, expected);
        const double us = rooflineMicroseconds(::device(device.toStdString().c_str()),
                                               work(static_cast<OpClass>(opClass), static_cast<DType>(dtype), flops, read, written));
        QVERIFY2(nearlyEqual(us, expected), qPrintable(QString("%1 us, expected %2").arg(us, 0, 'g', 12).arg(expected, 0, 'g', 12)));
    }

    // A batch-1 fully connected layer (x[1 x 4096] W[4096 x 4096]: 33.5 MFLOP over 67 MB, 0.5 FLOP
    // per byte) streams its weights at the entry's matrix-vector rate, 4 GB/s here: 1 us + (67,108,864
    // + 32,768) B / 4e9 B/s = 16,786 us; a 64-row GEMM of the same weights (about 32 FLOP per byte)
    // keeps the roofline (compute-bound at 0.1 TFLOP/s).
    void matrixVectorProductsStreamAtTheirOwnRate() {
        const std::string entry = R"({"id": "cpu", "name": "CPU", "kind": "cpu", "source": "s",
            "memory": {"bytes": 1e9, "bandwidth_GBps": 20, "source": "s"}, "launch_overhead_us": 1, "launch_source": "s",
            "peaks": [{"unit": "matrix", "dtype": "fp32", "tflops": 0.1, "source": "s"}],
            "matrix_vector": {"bandwidth_GBps": 4, "source": "s"}})";
        const DeviceSpec cpu = parseDeviceSpec(entry, "cpu.json");
        const double weights = 4096.0 * 4096 * 4;
        const OpWork gemv = work(OpClass::Matmul, DType::F32, 2.0 * 4096 * 4096, weights + 16384, 16384);
        QVERIFY(nearlyEqual(rooflineMicroseconds(cpu, gemv), 1 + (weights + 32768) / 4e9 * 1e6));
        const OpWork gemm = work(OpClass::Matmul, DType::F32, 2.0 * 64 * 4096 * 4096, weights + 64 * 16384, 64 * 16384);
        QVERIFY(nearlyEqual(rooflineMicroseconds(cpu, gemm), 1 + gemm.flops / 0.1e12 * 1e6));
        QVERIFY(parseDeviceSpec(deviceSpecToJson(cpu), "back.json").matrixVectorBandwidth == 4e9);   // kept on a round trip
    }

    void aliasesCostNothingAndViewsOnlyTheLaunch() {
        const DeviceSpec& a100 = device("a100-sxm4-80gb");
        QCOMPARE(rooflineMicroseconds(a100, work(OpClass::Alias, DType::BF16, 0, 0, 0)), 0.0);
        QCOMPARE(rooflineMicroseconds(a100, work(OpClass::Movement, DType::F32, 0, 0, 0)), 4.0);
        QCOMPARE(rooflineMicroseconds(a100, OpWork{}), 0.0);
    }

    void twoHostRoutes() {
        const auto& cat = DeviceCatalog::instance();
        const Platform p = presetPlatform(cat.preset("2x-dgx-h100"), cat, TimeUnit::Microseconds);
        QCOMPARE(p.deviceCount(), 16);
        QCOMPARE(p.devices[8].name, std::string("h1.gpu0"));
        QCOMPARE(p.devices[8].model, std::string("h100-sxm5-80gb"));
        // across hosts: the two GPUs' NICs (5 us, 50 GB/s = 50,000 bytes per us)
        const auto& across = p.topology.route(0, 8);
        QCOMPARE(across.size(), size_t(2));
        QCOMPARE(p.topology.links[static_cast<size_t>(across[0])].name, std::string("h0.gpu0.nic.out"));
        QCOMPARE(p.topology.links[static_cast<size_t>(across[1])].name, std::string("h1.gpu0.nic.in"));
        QVERIFY(nearlyEqual(p.transferTime(0, 8, 1e6), 5 + 1e6 / 50e3));   // 25 us
        // inside a host: NVSwitch ports, 2 us, 450 GB/s
        QCOMPARE(p.topology.links[static_cast<size_t>(p.topology.route(0, 1)[0])].name, std::string("h0.gpu0.out"));
        QVERIFY(nearlyEqual(p.transferTime(0, 1, 1e6), 2 + 1e6 / 450e3));   // 4.22 us
        QCOMPARE(p.transferTime(3, 3, 1e6), 0.0);
        const Platform four = firstDevices(p, 4);
        QCOMPARE(four.deviceCount(), 4);
        QCOMPARE(four.transferTime(0, 3, 1e6), p.transferTime(0, 3, 1e6));
    }

    // Ring algorithms on 4 L4s over PCIe (5 us, 32 GB/s per pair), a 64 MiB buffer.
    void ringCollectivesOnFourGpus() {
        const auto& cat = DeviceCatalog::instance();
        const Platform p = presetPlatform(cat.preset("4x-l4-pcie4"), cat, TimeUnit::Microseconds);
        OpWork w{.opClass = OpClass::Collective, .collective = Collective::AllReduce, .groupSize = 4, .commBytes = 67108864};
        QVERIFY(nearlyEqual(collectiveTime(p, w), 2 * 3 * 5 + 2 * 0.75 * 67108864 / 32e3));   // 3,175.728 us
        w.collective = Collective::AllGather;
        QVERIFY(nearlyEqual(collectiveTime(p, w), 3 * 5 + 0.75 * 67108864 / 32e3));   // 1,587.864 us
        w.collective = Collective::Permute;
        QVERIFY(nearlyEqual(collectiveTime(p, w), 5 + 67108864 / 32e3));
        w.groupSize = 1;
        w.collective = Collective::AllReduce;
        QCOMPARE(collectiveTime(p, w), 0.0);
    }

    void retimingAnHloStep() {
        const LoadedGraph hlo = parseGraph(kHloStep, GraphFormat::Hlo, "step.hlo");
        const Graph& g = *hlo.graph;
        const OpWork& dot = g.op(g.findOp("dot")).work;
        QVERIFY(dot.opClass == OpClass::Matmul);
        QVERIFY(dot.dtype == DType::BF16);
        QCOMPARE(dot.flops, 2147483648.0);
        QCOMPARE(dot.bytesRead, 4194304.0);
        const OpWork& ar = g.op(g.findOp("ar")).work;
        QVERIFY(ar.collective == Collective::AllReduce);
        QCOMPARE(ar.groupSize, 4);
        QCOMPARE(ar.commBytes, 2097152.0);
        QVERIFY(g.op(g.findOp("r")).work.opClass == OpClass::Alias);

        const auto& cat = DeviceCatalog::instance();
        const Platform dgx4 = firstDevices(presetPlatform(cat.preset("dgx-a100"), cat, TimeUnit::Microseconds), 4);
        const TimedGraph timed = retimeGraph(g, dgx4, cat);
        QVERIFY(timed.retimed);
        QCOMPARE(timed.estimated, 3);
        const Graph& t = *timed.retimed;
        QVERIFY(nearlyEqual(t.op(t.findOp("dot")).duration, 4 + 2147483648.0 / (312e12 * 0.6) * 1e6));
        // NVSwitch pairs: 2 us, 300 GB/s; ring all-reduce of 2 MiB over 4 + the launch
        QVERIFY(nearlyEqual(t.op(t.findOp("ar")).duration, 4 + 2 * 3 * 2 + 2 * 0.75 * 2097152 / 300e3));   // 26.49 us
        QCOMPARE(t.op(t.findOp("r")).duration, 0.0);
        QVERIFY(t.op(t.findOp("dot")).timeSource == TimeSource::Estimated);
        QVERIFY(t.finalized());

        // Another machine re-derives from the same work; a measured op keeps its time.
        Graph measured = t;
        measured.setTiming(measured.findOp("dot"), 99, {}, TimeSource::Measured);
        const Platform h100 = catalogPlatform("h100-sxm5-80gb", 1, cat);
        const TimedGraph again = retimeGraph(measured, h100, cat);
        QCOMPARE(again.retimed->op(again.retimed->findOp("dot")).duration, 99.0);
        QCOMPARE(again.measured, 1);
        QCOMPARE(again.retimed->op(again.retimed->findOp("ar")).duration, 4.0);   // one rank: the launch alone
    }

    void mixedDevicesGetPerDeviceTimes() {
        const LoadedGraph hlo = parseGraph(kHloStep, GraphFormat::Hlo, "step.hlo");
        const auto& cat = DeviceCatalog::instance();
        Platform p = catalogPlatform("a100-sxm4-80gb", 2, cat);
        p.devices[1].model = "h100-sxm5-80gb";
        const TimedGraph timed = retimeGraph(*hlo.graph, p, cat);
        const Op& dot = timed.retimed->op(timed.retimed->findOp("dot"));
        QCOMPARE(dot.deviceDurations.size(), size_t(2));
        QVERIFY(nearlyEqual(dot.deviceDurations[0], 4 + 2147483648.0 / (312e12 * 0.6) * 1e6));
        QVERIFY(nearlyEqual(dot.deviceDurations[1], 4 + 2147483648.0 / (989.4e12 * 0.6) * 1e6));
        QCOMPARE(timed.devices, std::string("2 device models"));
    }

    void graphsWithoutWorkKeepTheirTimes() {
        const LoadedGraph stg = parseGraph("2\n0 0 0\n1 5 1 0\n2 7 1 1\n3 0 1 2\n", GraphFormat::Stg, "w.stg");
        const auto& cat = DeviceCatalog::instance();
        const TimedGraph timed = retimeGraph(*stg.graph, catalogPlatform("l4", 2, cat), cat);
        QVERIFY(!timed.retimed);
        QCOMPARE(timed.given, stg.graph->opCount());
    }

    void workAndTopologySurviveJson() {
        const LoadedGraph hlo = parseGraph(kHloStep, GraphFormat::Hlo, "step.hlo");
        const auto& cat = DeviceCatalog::instance();
        const Platform p = presetPlatform(cat.preset("2x-dgx-h100"), cat, TimeUnit::Microseconds);
        const LoadedGraph back = parseGraph(graphToJson(*hlo.graph, &p), GraphFormat::Json, "back.json");
        for (OpId v = 0; v < hlo.graph->opCount(); ++v) {
            QVERIFY(back.graph->op(v).work == hlo.graph->op(v).work);
            QVERIFY(back.graph->op(v).timeSource == hlo.graph->op(v).timeSource);
        }
        QVERIFY(back.platform);
        QCOMPARE(back.platform->devices[9].model, std::string("h100-sxm5-80gb"));
        QCOMPARE(back.platform->name, p.name);
        for (int a = 0; a < 16; ++a)
            for (int b = 0; b < 16; ++b) QCOMPARE(back.platform->transferTime(a, b, 12345), p.transferTime(a, b, 12345));
    }

    void badCatalogueInputIsRefusedByName_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString ok = R"({"format": "schedlab-device", "version": 1, "id": "x", "name": "X", "kind": "gpu", "source": "s",
            "memory": {"bytes": 1e9, "bandwidth_GBps": BW, "source": "s"}, "launch_overhead_us": 1, "launch_source": "s",
            "peaks": [{"unit": "vector", "dtype": "fp32", "tflops": TF, "source": "s"}]})";
        QTest::newRow("negative bandwidth") << QString(ok).replace("BW", "-5").replace("TF", "1") << "x.json: memory: \"bandwidth_GBps\" must be positive";
        QTest::newRow("zero peak") << QString(ok).replace("BW", "5").replace("TF", "0") << "x.json: peaks #0: \"tflops\" must be positive";
        QTest::newRow("string peak") << QString(ok).replace("BW", "5").replace("TF", "\"fast\"") << "x.json: peaks #0: \"tflops\" must be a number";
        QTest::newRow("truncated") << QString(ok).replace("BW", "5").replace("TF", "1").left(120) << "x.json:";
        QTest::newRow("unknown dtype") << QString(ok).replace("BW", "5").replace("TF", "1").replace("fp32", "fp13")
                                       << "x.json: peaks #0: unknown \"dtype\" \"fp13\"";
    }
    void badCatalogueInputIsRefusedByName() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        try {
            parseDeviceSpec(text.toStdString(), "x.json");
            QFAIL("accepted");
        } catch (const IoError& e) {
            QVERIFY2(QString(e.what()).startsWith(message), e.what());
        }
    }

    void unknownPresetsAndMissingPathsAreRefused() {
        const auto& cat = DeviceCatalog::instance();
        try {
            cat.preset("dgx-z9");
            QFAIL("accepted");
        } catch (const IoError& e) {
            QVERIFY2(QString(e.what()).startsWith("unknown preset 'dgx-z9' (one of: "), e.what());
            QVERIFY(QString(e.what()).contains("dgx-a100"));
        }
        const std::string platform = R"({"devices": [{"name": "a"}, {"name": "b"}],
            "topology": {"links": [{"name": "l", "latency": 1, "bandwidth": 2}], "routes": [[], [0], [5], []]}})";
        try {
            parsePlatform(platform, "p.json");
            QFAIL("accepted");
        } catch (const IoError& e) {
            QCOMPARE(QString(e.what()), QString("p.json: topology: the route between devices 1 -> 0 names link #5, which does not exist"));
        }
        const std::string noPath = R"({"devices": [{"name": "a"}, {"name": "b"}],
            "topology": {"links": [{"name": "l", "latency": 1, "bandwidth": 2}], "routes": [[], [], [0], []]}})";
        try {
            parsePlatform(noPath, "p.json");
            QFAIL("accepted");
        } catch (const IoError& e) {
            QCOMPARE(QString(e.what()), QString("p.json: topology: the topology has no path between devices 0 -> 1"));
        }
    }

    // A user's entry written while the program runs (a machine learned in the explorer) is seen
    // after reload(); a reference taken before still reads the old catalogue (references stay
    // valid); an id that is no plain file name is refused before anything is written. Catches a
    // reload that frees the old catalogue or reads the directory once only.
    void reloadSeesANewUserEntry() {
        QTemporaryDir xdg;
        QVERIFY(xdg.isValid());
        qputenv("XDG_DATA_HOME", xdg.path().toUtf8());
        const DeviceCatalog& before = DeviceCatalog::reload();
        QVERIFY(!before.findDevice("written-later"));
        DeviceSpec d = before.device("l4");
        d.id = "written-later";
        saveDeviceSpec(d, DeviceCatalog::userEntryPath(d.id));   // makes schedlab/devices
        const DeviceCatalog& after = DeviceCatalog::reload();
        QVERIFY(after.findDevice("written-later"));
        QCOMPARE(&DeviceCatalog::instance(), &after);
        QVERIFY(!before.findDevice("written-later") && before.findDevice("l4"));
        QVERIFY_THROWS_EXCEPTION(IoError, DeviceCatalog::userEntryPath("../x"));
        QVERIFY_THROWS_EXCEPTION(IoError, DeviceCatalog::userEntryPath(""));
        qunsetenv("XDG_DATA_HOME");
        DeviceCatalog::reload();
    }

    // The one rule that names a machine (the CLI's --preset/--device/--devices, a study's fields,
    // the Platform dock): a preset whole or its first N, N of a device joined by the link given,
    // and more devices than the preset has refused in one message (the CLI had a usage error, a
    // study another message, the explorer a silent clamp). Catches a clamp, a device count of 0
    // taken literally, a link dropped.
    void oneRuleNamesAMachine() {
        const auto& cat = DeviceCatalog::instance();
        const TimeUnit us = TimeUnit::Microseconds;
        QCOMPARE(resolveMachine({.preset = "dgx-a100"}, cat, us).deviceCount(), 8);
        const Platform four = resolveMachine({.preset = "dgx-a100", .devices = 4}, cat, us);
        QCOMPARE(four.deviceCount(), 4);
        QVERIFY(four.topology.shared);
        QCOMPARE(resolveMachine({.device = "l4"}, cat, us).deviceCount(), 1);
        const Platform l4s = resolveMachine({.device = "l4", .devices = 3, .link = {2, 50}}, cat, us);
        QCOMPARE(l4s.deviceCount(), 3);
        QCOMPARE(l4s.link.latency, 2.0);
        QCOMPARE(l4s.link.bandwidth, 50.0);
        const auto refused = [&](const MachineName& name, const QString& message, bool size) {
            try {
                (void)resolveMachine(name, cat, us);
                QFAIL("accepted");
            } catch (const MachineSizeError& e) {
                QVERIFY2(size && QString(e.what()).startsWith(message), e.what());
            } catch (const IoError& e) {
                QVERIFY2(!size && QString(e.what()).startsWith(message), e.what());
            }
        };
        refused({.preset = "dgx-a100", .devices = 9}, "preset 'dgx-a100' has 8 devices, not 9", true);
        refused({.device = "l4", .devices = -1}, "a machine of -1 devices", true);
        refused({.preset = "dgx-z9"}, "unknown preset 'dgx-z9'", false);
        refused({.preset = "dgx-a100", .device = "l4"}, "name a machine by a preset or by a device", false);
        refused({}, "name a machine by a preset or by a device", false);
    }

    // ORT ran a, c on thread 0 and b on thread 1 and never showed d (fused): a and c stay on
    // device 0 in that order, b on device 1, d right after its predecessor c. Durations 1, 2, 3, 4;
    // a -> b, a -> c, c -> d; free transfers: a 0-1, b 1-3, c 1-4, d 4-8.
    void asMeasuredFollowsTheRunsOrder() {
        auto g = std::make_shared<Graph>();
        for (const char* name : {"a", "b", "c", "d"}) g->addOp({.name = name, .duration = static_cast<double>(g->opCount() + 1)});
        g->addEdge(0, 1);
        g->addEdge(0, 2);
        g->addEdge(2, 3);
        g->finalize();
        const Problem p{g, Platform::identical(2), {}};
        const Schedule s = asMeasuredSchedule(p, {{0, 2}, {1}});
        QCOMPARE(s.ops[0].device, 0);
        QCOMPARE(s.ops[2].device, 0);
        QCOMPARE(s.ops[1].device, 1);
        QCOMPARE(s.ops[1].start, 1.0);
        QCOMPARE(s.ops[2].start, 1.0);
        QCOMPARE(s.ops[3].start, 4.0);
        QCOMPARE(s.makespan, 8.0);
        QVERIFY(validateSchedule(p, s).ok());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, asMeasuredSchedule(p, {{0, 2}, {2}}));
    }

    // The list scheduler's times equal the chain timing's (what evaluate and the views use) and an
    // independent recomputation from the topology's fields, to the bit, on random problems.
    void oneCostModelWithTopologies() {
        auto& reg = OptimizerRegistry::instance();
        int withTopology = 0;
        for (std::uint64_t seed = 1; seed <= 300; ++seed) {
            const reference::Case c = reference::randomCase(seed);
            const Problem& p = c.problem;
            if (p.platform.topology.empty()) continue;
            ++withTopology;
            for (const char* method : {"list-cp", "heft", "random-search"}) {
                // HEFT may insert a zero-length op at the instant another op starts on its device,
                // which a chain cannot hold (so on any platform): positive durations only.
                if (std::string(method) == "heft" && !c.positiveDurations) continue;
                RunOptions o;
                o.seed = seed;
                o.values["samples"] = 5;
                const Schedule s = reg.create(method)->run(p, o, {}, {}).schedule;
                const QString where = QString("%1 on case %2").arg(method).arg(seed);
                QVERIFY2(validateSchedule(p, s).ok(), qPrintable(where));
                const Schedule again = timeChains(p, deviceChains(s, p.platform.deviceCount()));
                const Graph& g = p.g();
                for (OpId v = 0; v < g.opCount(); ++v) {
                    const ScheduledOp& o2 = again.ops[static_cast<size_t>(v)];
                    double ready = 0;
                    for (TensorId t : g.inputs(v)) {
                        const ScheduledOp& prod = again.ops[static_cast<size_t>(g.tensor(t).producer)];
                        ready = std::max(ready, prod.end + (prod.device == o2.device ? 0.0 : reference::transferTime(p.platform, prod.device, o2.device, g.tensor(t).bytes)));
                    }
                    QVERIFY2(o2.start >= ready, qPrintable(where + ": starts before its inputs arrive"));
                }
                QVERIFY2(again.makespan == s.makespan, qPrintable(where + QString(": %1 vs %2").arg(again.makespan).arg(s.makespan)));
            }
        }
        QVERIFY(withTopology >= 30);
    }
};

SCHEDLAB_TEST_MAIN(timing, TestTiming)
#include "tst_timing.moc"
