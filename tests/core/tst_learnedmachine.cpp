// SPDX-License-Identifier: MIT
// A machine learned from profiles (core/timing/timefit.h, core/profile/learnedmachine.h): a fit
// gives back rates planted exactly in synthetic samples and in a synthetic profile of a real
// model, the learned entry estimates those ops exactly and survives its file, an op of a kind
// never measured keeps the roofline, and profiles of two runtimes are refused, naming both.
#include "common/testmain.h"
#include "core/io/graphio.h"
#include "core/profile/learnedmachine.h"
#include "core/timing/catalog.h"
#include "core/timing/devicespec.h"

#include <QTest>

#include <cmath>

using namespace sl;

namespace {

const std::string kMachineData = SCHEDLAB_TEST_DATA;

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

/// Planted per op type: Conv 12 µs + 0.7 x body, Relu 0.5 µs + 2 x body^0.8, others 3 x body.
double planted(const std::string& type, double body) {
    if (type == "Conv") return 12 + 0.7 * body;
    if (type == "Relu") return 0.5 + 2 * std::pow(body, 0.8);
    return 3 * body;
}

/// A profile of `model` whose every op with a roofline body on `base` took planted(type, body).
ProfiledModel plantedProfile(const std::string& model, const DeviceSpec& base, const std::string& tool) {
    ProfiledModel m{model, model + ".profile.json", loadGraph(model).graph, {}};
    m.profile.tool = tool;
    m.profile.device = "a test machine";
    const Graph& g = *m.graph;
    for (OpId v = 0; v < g.opCount(); ++v) {
        const double body = rooflineBodyMicroseconds(base, g.op(v).work);
        if (body > 0) m.profile.ops.push_back({g.op(v).name, g.op(v).type, planted(g.op(v).type, body), 0, 20});
    }
    return m;
}

}   // namespace

class TestLearnedMachine : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Samples exactly on launch + scale x body^e (e on the fit's grid) give the term back; a type
    /// with fewer than 3 samples gets none, its class's term stands in. Catches a fit that drops the
    /// launch, the exponent or the relative weights, or keys types by class.
    void plantedRatesComeBackExactly() {
        std::vector<FitSample> samples;
        for (double body : {1.0, 3.0, 10.0, 40.0, 150.0}) {
            samples.push_back({"Conv", OpClass::Conv, body, 12 + 0.7 * body});
            samples.push_back({"Relu", OpClass::Elementwise, body, 0.5 + 2 * std::pow(body, 0.8)});
        }
        samples.push_back({"Tanh", OpClass::Elementwise, 5, 99});   // one sample: no type term
        const TimeFit fit = fitTimes(samples);
        QVERIFY(fit.byType.count("Conv") && fit.byType.count("Relu") && !fit.byType.count("Tanh"));
        const FitTerm& conv = fit.byType.at("Conv");
        QVERIFY(near(conv.launchUs, 12) && near(conv.scale, 0.7) && conv.exponent == 1.0);
        QCOMPARE(conv.samples, 5);
        const FitTerm& relu = fit.byType.at("Relu");
        QVERIFY2(near(relu.launchUs, 0.5) && near(relu.scale, 2) && std::abs(relu.exponent - 0.8) < 1e-12,
                 qPrintable(QString("%1 + %2 x body^%3").arg(relu.launchUs).arg(relu.scale).arg(relu.exponent)));
        QCOMPARE(fit.termFor("Tanh", OpClass::Elementwise), &fit.byClass.at(OpClass::Elementwise));
        QCOMPARE(fit.termFor("LRN", OpClass::Normalization), static_cast<const FitTerm*>(nullptr));
    }

    /// The whole path on a real model: a synthetic profile of AlexNet with planted times, the
    /// learned entry estimates every measured op exactly; an op of a class never measured keeps
    /// the base roofline; the entry's file reads back with the same fit. Catches estimates that
    /// ignore the fit, a fit keyed on names instead of types, a fit lost in the file.
    void learnedEntryEstimatesWhatItWasFittedOn() {
        const DeviceSpec& base = DeviceCatalog::instance().device("a100-sxm4-80gb");
        const ProfiledModel alexnet =
            plantedProfile(kMachineData + "/onnx/light_bvlc_alexnet.onnx", base, "onnxruntime");
        const DeviceSpec learned = learnedDevice(base, {alexnet}, "ort-test");
        QCOMPARE(learned.id, std::string("ort-test"));
        QCOMPARE(learned.fit.sources.size(), size_t(1));
        QVERIFY(learned.fit.sources.front().find("light_bvlc_alexnet.onnx") != std::string::npos);
        const Graph& g = *alexnet.graph;
        int checked = 0;
        for (const OpMeasurement& m : alexnet.profile.ops) {
            const Op& op = g.op(g.findOp(m.name));
            if (!learned.fit.byType.count(op.type)) continue;   // fewer than 3 of its type
            const double estimate = estimatedMicroseconds(learned, op.type, op.work);
            QVERIFY2(near(estimate, m.medianUs), qPrintable(QString::fromStdString(m.name + " " + op.type)));
            ++checked;
        }
        QVERIFY(checked >= 10);
        OpWork norm{.opClass = OpClass::Normalization,
                    .dtype = DType::F32,
                    .flops = 1e6,
                    .bytesRead = 1e6,
                    .bytesWritten = 1e6};
        QCOMPARE(estimatedMicroseconds(learned, "BatchNormalization", norm), rooflineMicroseconds(base, norm));
        const DeviceSpec back = parseDeviceSpec(deviceSpecToJson(learned), "ort-test.json");
        QVERIFY(back.fit == learned.fit);
    }

    /// Profiles of two runtimes are not mixed: refused, naming both files.
    void twoRuntimesRefused() {
        const DeviceSpec& base = DeviceCatalog::instance().device("a100-sxm4-80gb");
        const ProfiledModel ort = plantedProfile(kMachineData + "/onnx/light_bvlc_alexnet.onnx", base, "onnxruntime");
        const ProfiledModel torch =
            plantedProfile(kMachineData + "/onnx/light_squeezenet.onnx", base, "schedlab-cli profile");
        try {
            (void)learnedDevice(base, {ort, torch}, "mixed");
            QFAIL("two runtimes fitted together");
        } catch (const IoError& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains("light_squeezenet.onnx.profile.json") &&
                         what.contains("light_bvlc_alexnet.onnx.profile.json") && what.contains("one runtime"),
                     qPrintable(what));
        }
    }
};

SCHEDLAB_TEST_MAIN(learnedmachine, TestLearnedMachine)
#include "tst_learnedmachine.moc"
