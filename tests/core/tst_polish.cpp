// SPDX-License-Identifier: MIT
// core/localsearch/polish.h: improvement mode on any schedule (the priority sampler's --polish):
// never worse, valid, scored by the one cost model; the tabu stage is what moves list schedules.
#include "common/testmain.h"
#include "core/localsearch/polish.h"

#include "core/costmodel/validator.h"
#include "core/generators/generators.h"
#include "core/io/graphio.h"
#include "core/heuristics/classicoptimizers.h"
#include "core/optimizer/optimizer.h"
#include "common/reference.h"

#include <QTest>

using namespace sl;

namespace {

Problem jobShopFixture(const char* name) {
    const LoadedGraph lg = loadGraph(std::string(SCHEDLAB_TEST_DATA) + "/jobshop/" + name + ".txt");
    return Problem{lg.graph, *lg.platform, {}};
}

Schedule listCp(const Problem& p) {
    return classicSchedules(p).front().schedule;   // list-cp comes first
}

} // namespace

class TestPolish : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Random job-shops and DAGs (typed machines, identical devices, costly links): valid, scored
    /// by the cost model, never worse than the start. Catches keeping a worse polished schedule.
    void neverWorseAndValid() {
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const Problem p = seed % 2 ? reference::randomCase(seed, 4, 24).problem : [&] {
                const GeneratedInstance j = generateJobShop(3 + static_cast<int>(seed % 4), 3, seed);
                return Problem{j.graph, j.platform, {}};
            }();
            Schedule start = listCp(p);
            const double startCost = scoreSchedule(p, start);
            const PolishResult r = polishSchedule(p, start, 500, seed);
            QCOMPARE(r.startCost, startCost);
            QVERIFY2(r.cost <= startCost, qPrintable(QString("seed %1: %2 > %3").arg(seed).arg(r.cost).arg(startCost)));
            QVERIFY(validateSchedule(p, r.schedule).ok());
            Schedule again = r.schedule;
            QCOMPARE(scoreSchedule(p, again), r.cost);
        }
    }

    /// From list-cp: descent alone reaches ft06's optimum (61 -> 55) but stops at an N5 local
    /// optimum at once on ft10 (1108 stays); the tabu stage goes on (20,000 evaluations: 969, the
    /// optimum being 930). Catches dropping the tabu stage or its budget.
    void tabuStageGoesPastTheDescent() {
        const Problem ft06 = jobShopFixture("ft06");
        QCOMPARE(polishSchedule(ft06, listCp(ft06), 0, 1).cost, 55.0);
        const Problem ft10 = jobShopFixture("ft10");
        const Schedule start = listCp(ft10);
        QCOMPARE(start.makespan, 1108.0);
        QCOMPARE(polishSchedule(ft10, start, 0, 1).cost, 1108.0);
        const double tabu = polishSchedule(ft10, start, 20000, 1).cost;
        QVERIFY2(tabu <= 1000 && tabu >= 930, qPrintable(QString::number(tabu)));
    }

    /// brkga-order --local-search: every decode is polished (descent), the run is still valid,
    /// scored by the cost model, the same for 1 or 2 threads, and better than without on ft10 at
    /// 2,000 evaluations. Catches the option not reaching the decoder, or a final schedule decoded
    /// without the descent its cost had.
    void brkgaOrderWithLocalSearch() {
        registerCoreOptimizers();
        const Problem p = jobShopFixture("ft10");
        auto run = [&](bool localSearch, int threads) {
            RunOptions o;
            o.budget = 2000;
            o.threads = threads;
            o.values["local-search"] = localSearch;
            return OptimizerRegistry::instance().create("brkga-order")->run(p, o, {}, {});
        };
        const RunResult plain = run(false, 1), improved = run(true, 1), twoThreads = run(true, 2);
        QVERIFY2(improved.cost < plain.cost, qPrintable(QString("%1 vs %2").arg(improved.cost).arg(plain.cost)));
        QCOMPARE(twoThreads.cost, improved.cost);
        QVERIFY(validateSchedule(p, improved.schedule).ok());
        Schedule again = improved.schedule;
        QCOMPARE(scoreSchedule(p, again), improved.cost);
    }

    /// Interrupted before the first evaluation: the schedule comes back as it was.
    void interruptedKeepsTheSchedule() {
        const Problem p = jobShopFixture("la03");
        const Schedule start = listCp(p);
        const PolishResult r = polishSchedule(p, start, 1'000'000, 1, [] { return true; });
        QCOMPARE(r.evaluations, std::int64_t(0));
        QCOMPARE(r.moves, std::int64_t(0));
        QCOMPARE(r.cost, r.startCost);
        QCOMPARE(r.schedule.makespan, start.makespan);
    }
};

SCHEDLAB_TEST_MAIN(polish, TestPolish)
#include "tst_polish.moc"
