// SPDX-License-Identifier: MIT
// The Run panel's weight file row: shown for neural methods only, kept across method changes, and
// handed to the optimizer as the "weights" option (what `optimize --weights FILE` does).
#include "common/testmain.h"
#include "core/optimizer/optimizer.h"
#include "widgets/panels/runpanel.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QtTest>

using namespace sl;
using namespace sl::gui;

namespace {

class NoOptimizer final : public Optimizer {
public:
    RunResult run(const Problem&, const RunOptions&, const ProgressFn&, std::stop_token) override { return {}; }
};

void addMethod(const char* name, const char* family, int devices = 0) {
    OptimizerRegistry::instance().add(
        {.name = name, .summary = name, .family = family, .objectives = {Objective::Makespan}, .devices = devices},
        [] { return std::make_unique<NoOptimizer>(); });
}

/// A platform setting method `info` cannot run on: {objective, device count}; none if it runs on any.
std::optional<std::pair<Objective, int>> unsupportedSetting(const OptimizerInfo& info) {
    if (info.devices > 0) return std::pair{info.objectives.front(), info.devices + 4};
    for (const Objective o : {Objective::Makespan, Objective::Memory, Objective::Weighted})
        if (std::find(info.objectives.begin(), info.objectives.end(), o) == info.objectives.end()) return std::pair{o, 4};
    return std::nullopt;
}

} // namespace

class TestRunPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SchedLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_runpanel"));
        addMethod("test-neural", "neural");
        addMethod("test-neural-2", "neural");
        addMethod("test-heuristic", "heuristic");
        addMethod("test-two-devices", "neural", 2);   // a model trained for one device count
        registerCoreOptimizers();
    }

    /// Every registered method, on a platform it cannot run on, says why in the panel before Run
    /// is pressed, and Run is off. Mutations caught: the device-count check dropped (once REGAL's case:
    /// no run and no word), a reason left out of the summary line, Run left enabled.
    void everyRefusalIsShownInThePanel() {
        RunPanel panel;
        panel.reloadMethods();
        panel.setGraphOpen(true);
        auto* summary = panel.findChild<QLabel*>(QStringLiteral("runSummary"));
        auto* run = panel.findChild<QPushButton*>(QStringLiteral("runButton"));
        QVERIFY(summary && run);
        int refused = 0;
        for (const OptimizerInfo& info : OptimizerRegistry::instance().list()) {
            const auto setting = unsupportedSetting(info);
            if (!setting) continue;   // it runs on any platform and objective
            QVERIFY(panel.setMethod(QString::fromStdString(info.name)));
            panel.setDeviceCount(setting->second);
            panel.setObjective(setting->first);
            const QString why = panel.unavailableReason(QString::fromStdString(info.name));
            QVERIFY2(!why.isEmpty(), info.name.c_str());
            QVERIFY2(why.contains(QString::fromStdString(info.name)), qPrintable(why));   // it names the method
            QCOMPARE(summary->text(), why);
            QVERIFY2(!run->isEnabled() && run->toolTip() == why, info.name.c_str());
            ++refused;
            panel.setDeviceCount(info.devices > 0 ? info.devices : 4);   // and on one it supports, Run comes back
            panel.setObjective(info.objectives.front());
            QVERIFY2(run->isEnabled(), info.name.c_str());
        }
        QVERIFY(refused >= 3);   // the memory orders, exact-makespan's objective, the two-device method
    }

    /// Mutations caught: the row on every method (or none), the path dropped from the options, the
    /// text lost when switching between two neural methods.
    void weightsRowForNeuralMethods() {
        RunPanel panel;
        panel.reloadMethods();
        QVERIFY(panel.setMethod(QStringLiteral("test-heuristic")));
        QVERIFY(!panel.findChild<QLineEdit*>(QStringLiteral("weightsField")));
        QVERIFY(!panel.options().strings.count("weights"));
        QVERIFY(panel.setMethod(QStringLiteral("test-neural")));
        auto* field = panel.findChild<QLineEdit*>(QStringLiteral("weightsField"));
        QVERIFY(field);
        QVERIFY(!panel.options().strings.count("weights"));   // empty: the shipped weights
        field->setText(QStringLiteral("/tmp/mine.slw"));
        QCOMPARE(panel.options().strings.at("weights"), std::string("/tmp/mine.slw"));
        QVERIFY(panel.setMethod(QStringLiteral("test-neural-2")));
        field = panel.findChild<QLineEdit*>(QStringLiteral("weightsField"));
        QVERIFY(field);
        QCOMPARE(field->text(), QStringLiteral("/tmp/mine.slw"));
    }
};

SCHEDLAB_TEST_MAIN(runpanel, TestRunPanel)
#include "tst_runpanel.moc"
