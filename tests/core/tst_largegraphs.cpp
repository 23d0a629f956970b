// SPDX-License-Identifier: MIT
// Every registered method on generated networks of 1,000 to 100,000 ops whose durations spread over
// six orders of magnitude: the schedule it returns validates, and re-scoring it gives its cost to
// the bit. Times there reach 1e7 to 1e10 units, where `start + duration` rounds at the magnitude of
// `start`: a validator whose slack scales with the duration only refuses these schedules (list-cp
// on a 10,000-op network did). Each method runs under a short time limit, so the search methods
// stop early with a valid best-so-far; the 100,000-op rows are their own CTest label ("large").
#include "common/testmain.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/generators/generators.h"
#include "core/optimizer/optimizer.h"
#include "core/util/random.h"

#include <QTest>

#include <cmath>

using namespace sl;

namespace {

/// The "nn" network of `ops` ops with its durations redrawn log-uniformly over [1, 1e6] (a
/// microsecond to a second, in microseconds): sums reach 1e7 to 1e10.
std::shared_ptr<Graph> spreadDurations(int ops, std::uint64_t seed) {
    auto g = std::make_shared<Graph>(*generateNetworkLike(ops, seed).graph);
    Rng rng(seed);
    for (OpId v = 0; v < g->opCount(); ++v) g->mutableOp(v).duration = std::pow(10.0, rng.uniform(0, 6));
    g->finalize();
    return g;
}

/// Methods that refuse these graphs by design, with a message saying why: exact-memory (a dynamic
/// program over op sets, for small graphs) and exact-makespan (whole-number durations only).
bool declinesByDesign(const std::string& method) { return method == "exact-memory" || method == "exact-makespan"; }

} // namespace

class TestLargeGraphs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    void everyMethodReturnsAValidSchedule_data() {
        QTest::addColumn<int>("ops");
        QTest::addColumn<int>("devices");
        const int largest = qEnvironmentVariableIntValue("SCHEDLAB_LARGEST_GRAPH");
        for (int ops : {1000, 10000, 100000})
            if (ops <= (largest > 0 ? largest : 10000))
                for (int devices : {1, 4}) QTest::addRow("%d ops, %d devices", ops, devices) << ops << devices;
    }
    // Catches a duration check whose slack ignores the magnitude of the times (every method fails
    // at 10,000 ops), a method whose end times drift from start + duration, and a cost that the
    // one cost model does not reproduce.
    void everyMethodReturnsAValidSchedule() {
        QFETCH(int, ops);
        QFETCH(int, devices);
        Problem p;
        p.graph = spreadDurations(ops, 5);
        p.platform = Platform::identical(devices);
        for (const OptimizerInfo& m : OptimizerRegistry::instance().list()) {
            if (m.devices != 0 && m.devices != devices) continue;
            p.objective.kind = m.objectives.front();
            RunOptions o;
            o.timeLimit = 1.0;
            o.budget = 200;
            RunResult r;
            try {
                r = OptimizerRegistry::instance().create(m.name)->run(p, o, {}, {});
            } catch (const std::exception& e) {
                QVERIFY2(declinesByDesign(m.name), qPrintable(QString::fromStdString(m.name + " threw: " + e.what())));
                continue;
            }
            const ValidationReport v = validateSchedule(p, r.schedule);
            QVERIFY2(v.ok(), qPrintable(QString::fromStdString(m.name + ": " + (v.ok() ? "" : v.errors.front()))));
            Schedule rescored = r.schedule;
            QCOMPARE(scoreSchedule(p, rescored), r.cost);
        }
    }
};

SCHEDLAB_TEST_MAIN(largegraphs, TestLargeGraphs)
#include "tst_largegraphs.moc"
