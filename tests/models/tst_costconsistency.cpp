// SPDX-License-Identifier: MIT
// One cost model in fact: every registered method (classic, search, exact and neural), for every
// objective it declares and both memory clocks, on random graphs and platforms, reports the cost
// that `schedlab-cli evaluate` computes from its schedule file, to the last bit; its memory peaks
// equal the clocks' definitions (tests/common/reference.h); and no progress report claims a
// better cost than the one reported.
#include "common/testmain.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/io/scheduleio.h"
#include "core/optimizer/optimizer.h"
#include "models/register.h"
#include "common/reference.h"

#include <QTest>

#include <bit>

using namespace sl;

namespace {

/// What `evaluate` does with a schedule file: parse, validate, score.
double evaluateAsTheCliDoes(const Problem& p, const Schedule& s, QString* error) {
    Schedule read = parseScheduleJson(p, scheduleToJson(p, s), "result.json");
    const ValidationReport v = validateSchedule(p, read);
    if (!v.ok()) {
        *error = QString::fromStdString(v.errors.front());
        return kInfinity;
    }
    return scoreSchedule(p, read);
}

RunOptions smallBudget(std::uint64_t seed) {
    RunOptions o;
    o.seed = seed;
    o.budget = 120;
    o.values = {{"population", 20}, {"elites", 4}, {"mutants", 4}, {"samples", 8}, {"max-states", 20000}};
    return o;
}

bool refusedAsInexact(const OptimizerInfo& info, const std::exception& e) {
    return info.name == "exact-makespan" && dynamic_cast<const std::invalid_argument*>(&e) &&
           std::string(e.what()).find("cannot solve this problem exactly") != std::string::npos;
}

bool isTyped(const Graph& g) {
    for (const Op& op : g.ops())
        if (op.machineType != 0) return true;
    return false;
}

} // namespace

class TestCostConsistency : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        registerCoreOptimizers();
        registerNeuralOptimizers();
        QVERIFY(OptimizerRegistry::instance().find("topoformer"));
        QVERIFY(OptimizerRegistry::instance().find("priority-sampler"));
    }

    void everyMethodReportsTheCostEvaluateComputes() {
        int runs = 0, refusals = 0;
        for (const OptimizerInfo& info : OptimizerRegistry::instance().list())
            for (Objective objective : info.objectives)
                for (MemoryClock clock : {MemoryClock::Step, MemoryClock::Time})
                    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
                        reference::Case c = reference::randomCase(seed * 7919 + runs, 4, 16);
                        // A method whose model fixes the device count (REGAL's 2) gets an untyped case
                        // on that many identical devices.
                        for (std::uint64_t k = 1; info.devices > 0 && isTyped(c.problem.g()); ++k)
                            c = reference::randomCase(seed * 7919 + runs + k * 1000003, 4, 16);
                        Problem& p = c.problem;
                        if (info.devices > 0) p.platform = Platform::identical(info.devices);
                        p.objective.kind = objective;
                        p.objective.memoryClock = clock;
                        if (seed % 3 == 0)   // a memory cap below the peaks: the capacity penalty
                            for (Device& d : p.platform.devices) d.memoryCapacity = 12;
                        const QString where = QString("%1 %2 %3 clock, case %4: ")
                                                  .arg(QString::fromStdString(info.name), QString::fromStdString(toString(objective)),
                                                       QString::fromStdString(toString(clock)))
                                                  .arg(seed);
                        RunResult r;
                        try {
                            r = OptimizerRegistry::instance().create(info.name)->run(p, smallBudget(seed), {}, {});
                        } catch (const std::exception& e) {
                            // exact-makespan refuses what its model would not solve exactly (memory
                            // caps, costly transfers between identical devices): core/exact/cpinstance.h
                            if (refusedAsInexact(info, e)) {
                                ++refusals;
                                continue;
                            }
                            QFAIL(qPrintable(where + e.what()));
                        }
                        ++runs;
                        QString error;
                        const double evaluated = evaluateAsTheCliDoes(p, r.schedule, &error);
                        QVERIFY2(error.isEmpty(), qPrintable(where + error));
                        QVERIFY2(std::bit_cast<std::uint64_t>(evaluated) == std::bit_cast<std::uint64_t>(r.cost),
                                 qPrintable(where + QString("reported %1, evaluate computes %2").arg(r.cost, 0, 'g', 17).arg(evaluated, 0, 'g', 17)));
                        QVERIFY2(r.schedule.stepMemory.devices == reference::stepPeaks(p, r.schedule),
                                 qPrintable(where + "step clock differs from its definition"));
                        QVERIFY2(r.schedule.timeMemory.devices == reference::timePeaks(p, r.schedule),
                                 qPrintable(where + "time clock differs from its definition"));
                        // The search's own best (what it minimised) is the reported cost.
                        for (const Progress& h : r.history)
                            QVERIFY2(h.best >= r.cost, qPrintable(where + QString("a report claims %1").arg(h.best, 0, 'g', 17)));
                        if (info.family == "search" && !r.history.empty())
                            QVERIFY2(r.history.back().best == r.cost, qPrintable(where + "the search's best is not the reported cost"));
                    }
        QVERIFY(runs > 100);
        QVERIFY(refusals < runs / 10);
    }
};

SCHEDLAB_TEST_MAIN(costconsistency, TestCostConsistency)
#include "tst_costconsistency.moc"
