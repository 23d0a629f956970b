// SPDX-License-Identifier: MIT
// The Temperature panel's work without a screen (widgets/session/temperaturejobs.h): a sampling
// gives the sampler's own draws, the latest of two samplings wins, and a sweep stops when asked.
#include "common/testmain.h"
#include "core/generators/generators.h"
#include "core/optimizer/optimizer.h"
#include "core/optimizer/sampler.h"
#include "widgets/session/temperaturejobs.h"

#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::gui;

namespace {

std::shared_ptr<const Problem> layeredProblem(int ops, int devices) {
    auto p = std::make_shared<Problem>();
    p->graph = generateLayered(ops, 5).graph;
    p->platform = Platform::identical(devices);
    return p;
}

SamplingJob listGumbelJob(std::shared_ptr<const Problem> problem, double temperature, int count) {
    SamplingJob job{.problem = std::move(problem),
                    .sampler = "list-gumbel",
                    .request = {.temperature = temperature, .count = count, .seed = 3, .threads = 1}};
    job.summary.topK = 10;
    job.summary.targets.clear();
    return job;
}

}   // namespace

class TestTemperatureJobs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        registerCoreOptimizers();
        QVERIFY(SamplerRegistry::instance().find("list-gumbel"));
    }

    // A sampling lands with exactly the draws the sampler makes for the same request, and its best
    // record is the best of them. Mutation caught: the request (seed, count, σ) not passed on.
    void aSamplingGivesTheSamplersOwnDraws() {
        const auto problem = layeredProblem(120, 3);
        TemperatureJobs jobs;
        QSignalSpy sampled(&jobs, &TemperatureJobs::sampled);
        jobs.sample(listGumbelJob(problem, 0.05, 64));
        QVERIFY(sampled.wait(60000));
        const TemperatureSample s = sampled.takeFirst().at(0).value<TemperatureSample>();
        const SampleSet direct =
            SamplerRegistry::instance()
                .create("list-gumbel")
                ->sample(*problem, {.temperature = 0.05, .count = 64, .seed = 3, .threads = 1}, {}, {});
        QVERIFY(s.speedups == direct.proxySpeedups);
        QCOMPARE(s.temperature, 0.05);
        QVERIFY(jobs.current() && jobs.current()->speedups == s.speedups);
        QVERIFY(!jobs.isSampling());
    }

    // Two samplings asked back to back: only the second lands, the first neither lands nor says it
    // ended. Deterministic: both are asked before the event loop runs. Mutation caught: the
    // ticket not checked (the first σ lands too, or last).
    void theLatestOfTwoSamplingsWins() {
        const auto problem = layeredProblem(120, 3);
        TemperatureJobs jobs;
        QSignalSpy sampled(&jobs, &TemperatureJobs::sampled);
        QSignalSpy ended(&jobs, &TemperatureJobs::samplingEnded);
        jobs.sample(listGumbelJob(problem, 0.5, 400));
        jobs.sample(listGumbelJob(problem, 0.01, 64));
        QVERIFY(sampled.wait(60000));
        QVERIFY(QTest::qWaitFor([&jobs] { return !jobs.isSampling(); }, 60000));
        QTest::qWait(50);   // a stale outcome would land in this pass of the loop
        QCOMPARE(sampled.size(), 1);
        QCOMPARE(sampled.takeFirst().at(0).value<TemperatureSample>().temperature, 0.01);
        QCOMPARE(ended.size(), 0);
    }

    // A sweep far too long to finish is stopped: it lands marked cancelled. No clock in the
    // verdict. Mutation caught: cancel() not reaching the sweep's stop token.
    void cancelStopsASweep() {
        TemperatureJobs jobs;
        QSignalSpy swept(&jobs, &TemperatureJobs::swept);
        SweepOptions o;
        o.temperatures = logSpacedTemperatures(20, 0.001, 1);
        o.samples = 1000000;
        o.targets.clear();
        QVERIFY(jobs.sweep(layeredProblem(300, 4), "list-gumbel", o));
        QVERIFY(!jobs.sweep(layeredProblem(30, 2), "list-gumbel", o));   // one at a time
        jobs.cancel();
        QVERIFY(swept.wait(60000));
        const auto sweep = swept.takeFirst().at(0).value<std::shared_ptr<const Sweep>>();
        QVERIFY(sweep);
        QVERIFY(sweep->cancelled);
        QVERIFY(sweep->points.size() < 20);
    }
};

SCHEDLAB_TEST_MAIN(temperaturejobs, TestTemperatureJobs)
#include "tst_temperaturejobs.moc"
