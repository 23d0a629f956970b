// SPDX-License-Identifier: MIT
// Invariants of every classic / exact optimizer on ~200 random DAGs and platforms: valid schedules,
// topological orders, lower bounds below every makespan, both memory clocks equal to independent
// recomputations from their definitions (tests/common/reference.h), exact-memory below every
// heuristic, reproducible seeds, prompt cancellation.
#include "common/testmain.h"
#include "core/analysis/bounds.h"
#include "core/costmodel/validator.h"
#include "core/generators/generators.h"
#include "core/heuristics/evaluate.h"
#include "core/optimizer/optimizer.h"
#include "core/util/random.h"
#include "common/reference.h"

#include <QTest>

#include <algorithm>
#include <thread>

using namespace sl;
using reference::Case;
using reference::randomCase;

namespace {

const char* const kMethods[] = {"list-cp", "list-mopnr", "list-spt", "heft", "mem-dfs", "mem-bfs",
                                "mem-postorder", "mem-xla-list", "random-search", "exact-memory"};
const char* const kMemoryOrders[] = {"mem-dfs", "mem-bfs", "mem-postorder", "mem-xla-list"};

/// Step peak of a single-device order, from the definition: tensors produced earlier and still
/// read at or after the step, plus the op's outputs and parameters.
double definitionPeak(const Graph& g, const std::vector<OpId>& order) {
    std::vector<int> pos(static_cast<size_t>(g.opCount()));
    for (size_t i = 0; i < order.size(); ++i) pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
    double peak = 0;
    for (int t = 0; t < static_cast<int>(order.size()); ++t) {
        double m = g.op(order[static_cast<size_t>(t)]).paramBytes;
        for (const Tensor& x : g.tensors()) {
            const int made = pos[static_cast<size_t>(x.producer)];
            bool live = made == t;
            for (OpId c : x.consumers) live |= made < t && pos[static_cast<size_t>(c)] >= t;
            if (live) m += x.bytes;
        }
        peak = std::max(peak, m);
    }
    return peak;
}

} // namespace

class TestProperty : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    void everyScheduleIsValidAndAboveTheBounds() {
        auto& reg = OptimizerRegistry::instance();
        for (std::uint64_t seed = 1; seed <= 200; ++seed) {
            Case c = randomCase(seed);
            for (Objective objective : {Objective::Makespan, Objective::Memory}) {
                c.problem.objective.kind = objective;
                const Problem& p = c.problem;
                const LowerBounds lb = lowerBounds(p);
                for (const char* m : kMethods) {
                    RunOptions o;
                    o.seed = seed;
                    o.values["samples"] = 10;
                    const RunResult r = reg.create(m)->run(p, o, {}, {});
                    const ValidationReport v = validateSchedule(p, r.schedule);
                    const QString where = QString("%1 on case %2: ").arg(m).arg(seed);
                    QVERIFY2(v.ok(), qPrintable(where + QString::fromStdString(v.errors.empty() ? "" : v.errors.front())));
                    QVERIFY2(r.schedule.makespan >= lb.makespan - 1e-9, qPrintable(where + "makespan below the bound"));
                    QVERIFY2(std::isfinite(r.cost), qPrintable(where + "cost"));
                    QCOMPARE(r.schedule.method, std::string(m));
                    QVERIFY(r.evaluations >= 1);
                    QVERIFY2(r.schedule.stepMemory.peak >= lb.memory, qPrintable(where + "step peak below the bound"));
                    if (c.positiveDurations)
                        QVERIFY2(r.schedule.timeMemory.peak >= lb.memory, qPrintable(where + "time peak below the bound"));
                    QVERIFY2(r.schedule.stepMemory.devices == reference::stepPeaks(p, r.schedule),
                             qPrintable(where + "step clock differs from its definition"));
                    QVERIFY2(r.schedule.timeMemory.devices == reference::timePeaks(p, r.schedule),
                             qPrintable(where + "time clock differs from its definition"));
                }
            }
        }
    }

    void memoryOrdersMatchTheDefinitionAndExactIsBest() {
        auto& reg = OptimizerRegistry::instance();
        for (std::uint64_t seed = 1; seed <= 200; ++seed) {
            Case c = randomCase(seed);
            c.problem.platform = Platform::identical(1);
            for (OpId v = 0; v < c.problem.g().opCount(); ++v)
                if (c.problem.g().op(v).machineType != 0) goto next;   // one device needs one type
            {
                c.problem.objective.kind = Objective::Memory;
                const Problem& p = c.problem;
                const RunResult exact = reg.create("exact-memory")->run(p, {}, {}, {});
                QVERIFY(exact.note.rfind("optimal", 0) == 0);
                for (const char* m : kMemoryOrders) {
                    const RunResult r = reg.create(m)->run(p, {}, {}, {});
                    QCOMPARE(r.schedule.stepMemory.peak, definitionPeak(p.g(), r.schedule.order));
                    QCOMPARE(r.cost, r.schedule.stepMemory.peak);   // the default clock is the step clock
                    QVERIFY(exact.cost <= r.cost);
                    // Back to back on one device: the makespan is the total work.
                    QCOMPARE(r.schedule.makespan, p.g().totalWork());
                }
                QCOMPARE(exact.schedule.stepMemory.peak, definitionPeak(p.g(), exact.schedule.order));
                RunOptions o;
                o.seed = seed;
                o.values["samples"] = 20;
                const RunResult random = reg.create("random-search")->run(p, o, {}, {});
                QVERIFY(exact.cost <= random.cost);
                QCOMPARE(random.schedule.stepMemory.peak, definitionPeak(p.g(), random.schedule.order));
            }
        next:;
        }
    }

    void randomSearchIsReproducible() {
        const GeneratedInstance inst = generateInstance("layered", 150, 5);
        Problem p{inst.graph, Platform::identical(2), {}};
        RunOptions o;
        o.seed = 42;
        o.values["samples"] = 30;
        auto& reg = OptimizerRegistry::instance();
        const RunResult a = reg.create("random-search")->run(p, o, {}, {});
        const RunResult b = reg.create("random-search")->run(p, o, {}, {});
        QCOMPARE(a.cost, b.cost);
        QCOMPARE(a.schedule.order, b.schedule.order);
        QCOMPARE(a.evaluations, std::int64_t(30));
        QVERIFY(!a.history.empty());
        // More samples never do worse: the first 30 streams are the same.
        o.values["samples"] = 60;
        QVERIFY(reg.create("random-search")->run(p, o, {}, {}).cost <= a.cost);
    }

    void cancellationReturnsTheBestSoFar() {
        const GeneratedInstance inst = generateInstance("layered", 1000, 3);
        auto& reg = OptimizerRegistry::instance();
        for (const char* m : {"random-search", "exact-memory"}) {
            Problem p{inst.graph, Platform::identical(1), {}};
            p.objective.kind = std::string(m) == "exact-memory" ? Objective::Memory : Objective::Makespan;
            RunOptions o;
            o.values["samples"] = 1e9;
            o.values["time"] = 1e6;
            o.values["max-states"] = 1e8;
            std::stop_source source;
            std::jthread canceller([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                source.request_stop();
            });
            const RunResult r = reg.create(m)->run(p, o, {}, source.get_token());
            canceller.join();
            QVERIFY2(r.cancelled, m);
            QVERIFY(validateSchedule(p, r.schedule).ok());
            if (std::string(m) == "exact-memory") QVERIFY(r.note.find("cancelled") != std::string::npos);
        }
        // A stop requested before the run: one evaluation, still a valid schedule.
        Problem p{inst.graph, Platform::identical(2), {}};
        std::stop_source source;
        source.request_stop();
        const RunResult r = reg.create("random-search")->run(p, {}, {}, source.get_token());
        QVERIFY(r.cancelled);
        QCOMPARE(r.evaluations, std::int64_t(1));
        QVERIFY(validateSchedule(p, r.schedule).ok());
    }
};

SCHEDLAB_TEST_MAIN(property, TestProperty)
#include "tst_property.moc"
