// SPDX-License-Identifier: MIT
// The Run panel's weight file row: shown for neural methods only, kept across method changes, and
// handed to the optimizer as the "weights" option (what `optimize --weights FILE` does).
#include "core/optimizer/optimizer.h"
#include "widgets/runpanel.h"

#include <QLineEdit>
#include <QtTest>

using namespace sl;
using namespace sl::gui;

namespace {

class NoOptimizer final : public Optimizer {
public:
    RunResult run(const Problem&, const RunOptions&, const ProgressFn&, std::stop_token) override { return {}; }
};

void addMethod(const char* name, const char* family) {
    OptimizerRegistry::instance().add({.name = name, .summary = name, .family = family, .objectives = {Objective::Makespan}},
                                      [] { return std::make_unique<NoOptimizer>(); });
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

QTEST_MAIN(TestRunPanel)
#include "tst_runpanel.moc"
