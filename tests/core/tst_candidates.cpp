// SPDX-License-Identifier: MIT
// The candidate protocol (Zhang et al. 2023, Fig. 1 and §5) on the worked example of
// docs/costmodel.md, whose target makespans tst_targetmodel checks by hand; and the methods that
// fill RunResult::candidates.
#include "common/testmain.h"
#include "core/costmodel/chaintiming.h"
#include "core/costmodel/validator.h"
#include "core/generators/generators.h"
#include "core/optimizer/candidates.h"

#include "common/workedexample.h"

#include <QTest>

#include <cmath>

using namespace sl;

namespace {

Problem candidatesExample() { return reference::gflownetWorkedExample(); }

// Proxy speedups A 1.4, B 1.4, one device 1. Bandwidth target makespans: A 7.675, B 15.675,
// one device 7 (tst_targetmodel).
const DeviceChains kA = {{0, 2}, {1, 3}};
const DeviceChains kB = {{1, 2}, {0, 3}};
const DeviceChains kOne = {{0, 1, 2, 3}, {}};

bool near(double a, double b) { return std::abs(a - b) < 1e-12; }

} // namespace

class TestCandidates : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches: an unstable sort or ties to the later index, k not applied.
    void topKIsStableBySampleOrder() {
        const std::vector<double> u = {2, 3, 3, 1, 3};
        QCOMPARE(topKByProxy(u, 3), (std::vector<int>{1, 2, 4}));
        QCOMPARE(topKByProxy(u, 10), (std::vector<int>{1, 2, 4, 0, 3}));
        QCOMPARE(topKByProxy(u, 1), (std::vector<int>{1}));
    }

    // Candidates [B, A, one device], k = 2: B and A tie on the proxy (B first, sample order); on
    // the bandwidth target A is best, B (the proxy's top-1) is not, and the one-device schedule,
    // better still there, is outside the top 2. Catches: reporting the proxy top-1's target value,
    // evaluating every candidate instead of the top k, ranking by the stored (wrong) times.
    void bestOfKOnTheTarget() {
        const Problem p = candidatesExample();
        std::vector<Schedule> c = {timeChains(p, kB), timeChains(p, kA), timeChains(p, kOne)};
        for (ScheduledOp& o : c[1].ops) {   // stored times are ignored: A is re-timed on the proxy
            o.start += 100;
            o.end += 100;
        }
        CandidateOptions o{.topK = 2, .targets = {TargetModel::Bandwidth, TargetModel::Proxy}};
        const CandidateReport r = evaluateCandidates(p, c, o);
        QCOMPARE(r.candidates, 3);
        QCOMPARE(r.kept, 2);
        QCOMPARE(r.keptIndices, (std::vector<int>{0, 1}));
        QCOMPARE(r.proxyTop1, 1.4);
        QCOMPARE(r.proxyTopKMean, 1.4);
        QCOMPARE(r.targets.size(), size_t(2));
        QVERIFY(r.targets[0].model == TargetModel::Bandwidth);
        QVERIFY(near(r.targets[0].bestOfK, 7 / 7.675));
        QCOMPARE(r.targets[0].best, 1);
        QVERIFY(near(r.targets[0].ofProxyTop1, 7 / 15.675));
        QCOMPARE(r.targets[1].bestOfK, 1.4);   // the proxy as a target: the proxy top-1
        QCOMPARE(r.targets[1].best, 0);
        // A and B: chain edges {1->3, 2->4} vs {2->3, 1->4}, proxy starts (0,0,2,1) vs (0,0,2,2).
        QCOMPARE(r.diversity.ged, 100.0);
        QCOMPARE(r.diversity.dInv, 1.0);
        QCOMPARE(r.diversity.distinct, 2);

        o.topK = 3;
        const CandidateReport all = evaluateCandidates(p, c, o);
        QCOMPARE(all.targets[0].bestOfK, 1.0);   // one device: no transfers, 7 / 7
        QCOMPARE(all.targets[0].best, 2);
        QVERIFY(near(all.proxyTopKMean, (1.4 + 1.4 + 1) / 3));
    }

    void badInputIsRefused() {
        const Problem p = candidatesExample();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, evaluateCandidates(p, {}, {}));
        const std::vector<Schedule> one = {timeChains(p, kA)};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, evaluateCandidates(p, one, {.topK = 0}));
    }

    // BRKGA's candidates are its final population's best, cheapest first, each a valid schedule,
    // the first as good as the result; none unless asked. One-shot methods give their schedule.
    void methodsFillCandidates() {
        registerCoreOptimizers();
        const GeneratedInstance inst = generateInstance("erdos-renyi-gfn", 20, 3);
        const Problem p{inst.graph, inst.platform, {}};
        RunOptions o;
        o.budget = 300;
        o.values["population"] = 20;
        o.values["elites"] = 4;
        o.values["mutants"] = 4;
        const RunResult cheap = OptimizerRegistry::instance().create("brkga-order")->run(p, o, {}, {});
        QVERIFY(cheap.candidates.empty());
        o.candidates = 8;
        const RunResult r = OptimizerRegistry::instance().create("brkga-order")->run(p, o, {}, {});
        QCOMPARE(r.candidates.size(), size_t(8));
        for (size_t i = 0; i < r.candidates.size(); ++i) {
            const ValidationReport v = validateSchedule(p, r.candidates[i]);
            QVERIFY2(v.ok(), v.errors.empty() ? "" : v.errors.front().c_str());
            if (i > 0) QVERIFY(r.candidates[i - 1].makespan <= r.candidates[i].makespan);
        }
        QCOMPARE(r.candidates.front().makespan, r.schedule.makespan);
        QCOMPARE(candidatesOf(cheap).size(), size_t(1));

        const RunResult cp = OptimizerRegistry::instance().create("list-cp")->run(p, o, {}, {});
        QCOMPARE(cp.candidates.size(), size_t(1));
        QCOMPARE(cp.candidates.front().makespan, cp.schedule.makespan);
    }
};

SCHEDLAB_TEST_MAIN(candidates, TestCandidates)
#include "tst_candidates.moc"
