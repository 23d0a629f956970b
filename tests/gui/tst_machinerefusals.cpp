// SPDX-License-Identifier: MIT
// One rule names a machine (sl::resolveMachine): each refusal says the same words from the CLI, a
// study file and the Platform dock. One row per refusal; each row asks all three surfaces and
// checks core's message in each. Mutations caught: a surface with a rule of its own (the dock's
// silent clamp, a study's own count check), and a message reworded on one surface only.
#include "common/testmain.h"
#include "core/optimizer/optimizer.h"
#include "core/study/studyspec.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/platformpanel.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace sl;
using namespace sl::gui;

namespace {

const QString kModel = QStringLiteral(SCHEDLAB_TEST_DATA "/onnx/light_squeezenet.onnx");

/// The study's refusal when it makes the model's problem on the machine named.
QString studyRefusal(const QString& preset, const QString& device, int devices) {
    QString json = QStringLiteral(R"({"format": "schedlab-study", "version": 1, "graphs": ["%1"],)"
                                  R"( "methods": [{"name": "list-cp"}], "seeds": [1])")
                       .arg(kModel);
    if (!preset.isEmpty()) json += QStringLiteral(R"(, "preset": "%1")").arg(preset);
    if (!device.isEmpty()) json += QStringLiteral(R"(, "device": "%1")").arg(device);
    if (devices != 0) json += QStringLiteral(R"(, "devices": %1)").arg(devices);
    json += QLatin1Char('}');
    try {
        const StudySpec spec = parseStudySpec(json.toStdString(), "refusal.study.json");
        (void)spec.problemFor(kModel.toStdString());
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

/// The Platform dock's refusal when the machine is chosen there.
QString dockRefusal(const QString& preset, const QString& device, int devices) {
    MainWindow w;
    const QString key = preset.isEmpty() ? QStringLiteral("device:") + device : QStringLiteral("preset:") + preset;
    const QString before = w.platformPanel()->machineKey();
    try {
        w.platformPanel()->selectMachine(key, devices);
    } catch (const std::exception& e) {
        if (w.platformPanel()->machineKey() != before) return QStringLiteral("refused, yet the machine changed");
        return QString::fromUtf8(e.what());
    }
    return {};
}

/// schedlab-cli's refusal (its stderr; empty when it exits 0).
QString cliRefusal(const QString& preset, const QString& device, int devices) {
    QStringList args{QStringLiteral("info"), kModel};
    if (!preset.isEmpty()) args << QStringLiteral("--preset") << preset;
    if (!device.isEmpty()) args << QStringLiteral("--device") << device;
    if (devices != 0) args << QStringLiteral("--devices") << QString::number(devices);
    QProcess cli;
    cli.start(qEnvironmentVariable("SCHEDLAB_CLI"), args);
    if (!cli.waitForFinished(60000)) return QStringLiteral("schedlab-cli did not finish");
    return cli.exitCode() == 0 ? QString() : QString::fromUtf8(cli.readAllStandardError());
}

}   // namespace

class TestMachineRefusals : public QObject {
    Q_OBJECT
    QTemporaryDir m_home;

private Q_SLOTS:
    void initTestCase() {
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());   // the catalogue as shipped, no user entries
        QCoreApplication::setOrganizationName(QStringLiteral("SchedLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_machinerefusals"));
        registerCoreOptimizers();
        QVERIFY2(QFileInfo(qEnvironmentVariable("SCHEDLAB_CLI")).isExecutable(), "SCHEDLAB_CLI names schedlab-cli");
    }

    void sameWordsEverywhere_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("device");
        QTest::addColumn<int>("devices");
        QTest::addColumn<QString>("message");
        QTest::newRow("more devices than the preset has") << "dgx-a100"
                                                          << "" << 9 << "preset 'dgx-a100' has 8 devices, not 9";
        QTest::newRow("unknown preset") << "dgx-z9"
                                        << "" << 0 << "unknown preset 'dgx-z9'";
        QTest::newRow("unknown device") << ""
                                        << "h900" << 0 << "unknown device 'h900'";
    }
    void sameWordsEverywhere() {
        QFETCH(QString, preset);
        QFETCH(QString, device);
        QFETCH(int, devices);
        QFETCH(QString, message);
        const QString study = studyRefusal(preset, device, devices);
        QVERIFY2(study.contains(message), qPrintable(QStringLiteral("study: ") + study));
        const QString dock = dockRefusal(preset, device, devices);
        QVERIFY2(dock.startsWith(message), qPrintable(QStringLiteral("dock: ") + dock));
        const QString cli = cliRefusal(preset, device, devices);
        QVERIFY2(cli.contains(message), qPrintable(QStringLiteral("cli: ") + cli));
    }

    // A count below 1: the study and the dock give core's words; the CLI's option parser refuses
    // it first, naming --devices and its range (a generic check of every numeric option).
    void aCountBelowOne() {
        const QString message = QStringLiteral("a machine of -1 devices: give 1 or more");
        QVERIFY2(studyRefusal({}, QStringLiteral("l4"), -1).contains(message),
                 qPrintable(studyRefusal({}, QStringLiteral("l4"), -1)));
        QCOMPARE(dockRefusal({}, QStringLiteral("l4"), -1), message);
        QVERIFY(cliRefusal({}, QStringLiteral("l4"), -1).contains(QStringLiteral("--devices expects 1..")));
    }
};

SCHEDLAB_TEST_MAIN(machinerefusals, TestMachineRefusals)
#include "tst_machinerefusals.moc"
