// SPDX-License-Identifier: MIT
// The list-gumbel temperature sampler, the sweep engine and its files. Expected values come from
// independent computations (list-cp's schedule, target speedups re-timed here), never from the
// code under test.
#include "common/testmain.h"
#include "core/analysis/levels.h"
#include "core/costmodel/validator.h"
#include "core/generators/generators.h"
#include "core/heuristics/listgumbel.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"
#include "core/sweep/sweep.h"
#include "core/sweep/sweepio.h"
#include "core/util/random.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

using namespace sl;

namespace {

// 40 ops on 3 devices, random durations: bottom levels are all different (checked below), so a
// tiny temperature cannot reorder them; the devices are contended, so the order matters.
constexpr int kDevices = 3;
Problem fixedProblem() {
    const GeneratedInstance g = generateInstance("layered-gfn", 40, 5);
    return {g.graph, Platform::identical(kDevices), {}};
}

double minimumGap(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    double gap = INFINITY;
    for (size_t i = 1; i < v.size(); ++i) gap = std::min(gap, v[i] - v[i - 1]);
    return gap;
}

SampleSet draw(const Problem& p, double t, int n, std::uint64_t seed, int threads) {
    return makeListGumbelSampler()->sample(p, {.temperature = t, .count = n, .seed = seed, .threads = threads}, {}, {});
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

std::string writeText(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
    std::ofstream(path) << text;
    return path;
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    void registryKnowsListGumbel() {
        const SamplerInfo* info = SamplerRegistry::instance().find("list-gumbel");
        QVERIFY(info);
        QVERIFY(info->trainedTemperatureRange.contains(1e-6) && info->trainedTemperatureRange.contains(1e6));
        QVERIFY(SamplerRegistry::instance().create("list-gumbel"));
        try {
            SamplerRegistry::instance().create("no-such");
            QFAIL("an unknown sampler was created");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("list-gumbel") != std::string::npos);   // says what exists
        }
    }

    // Catches: a shared random stream (results then depend on which thread drew which sample),
    // a seed ignored, invalid schedules.
    void samplesAreReproducibleAcrossThreadCounts() {
        const Problem p = fixedProblem();
        const SampleSet one = draw(p, 0.3, 48, 7, 1);
        const SampleSet three = draw(p, 0.3, 48, 7, 3);
        QCOMPARE(one.schedules.size(), size_t(48));
        QVERIFY(one.proxySpeedups == three.proxySpeedups);
        for (size_t i = 0; i < one.schedules.size(); ++i) {
            QVERIFY(deviceChains(one.schedules[i], kDevices) == deviceChains(three.schedules[i], kDevices));
            QVERIFY(validateSchedule(p, one.schedules[i]).ok());
            QCOMPARE(one.proxySpeedups[i], proxySpeedup(p, one.schedules[i]));   // the reported U is the schedule's
        }
        QVERIFY(draw(p, 0.3, 48, 8, 1).proxySpeedups != one.proxySpeedups);
    }

    // σ → 0 is list-cp; σ = 1 is worse on average and far more diverse. Catches: noise not scaled
    // by σ, priorities inverted (lowest bottom level first), the wrong base priority.
    void lowerTemperatureIsBetterAndLessDiverse() {
        const Problem p = fixedProblem();
        QVERIFY2(minimumGap(bottomLevels(p.g())) > 1e-3 * p.g().totalWork() / p.g().opCount(), "precondition: no near-ties");
        RunOptions o;
        const RunResult cp = OptimizerRegistry::instance().create("list-cp")->run(proxyProblem(p), o, {}, {});
        const double cpSpeedup = proxySpeedup(p, cp.schedule);
        const SampleSet cold = draw(p, 1e-5, 100, 1, 2);
        const SampleSet warm = draw(p, 0.05, 100, 1, 2);
        const SampleSet hot = draw(p, 1.0, 100, 1, 2);
        for (const Schedule& s : cold.schedules) QVERIFY(deviceChains(s, kDevices) == deviceChains(cp.schedule, kDevices));
        QCOMPARE(mean(cold.proxySpeedups), cpSpeedup);
        QCOMPARE(distinctSchedules(cold.schedules).exact, 1);
        QVERIFY2(mean(hot.proxySpeedups) < cpSpeedup - 0.01, qPrintable(QString::number(mean(hot.proxySpeedups))));
        QVERIFY(mean(warm.proxySpeedups) > mean(hot.proxySpeedups));
        QVERIFY(distinctSchedules(warm.schedules).exact <= distinctSchedules(hot.schedules).exact);
        QVERIFY(distinctSchedules(hot.schedules).exact >= 50);
    }

    void stopKeepsAFinishedPrefix() {
        const Problem p = fixedProblem();
        std::stop_source stop;
        int reports = 0;
        const SampleSet s = makeListGumbelSampler()->sample(p, {.temperature = 0.1, .count = 5000, .seed = 1, .threads = 2},
                                                            stop.get_token(), [&](const SampleProgress&) {
                                                                if (++reports == 2) stop.request_stop();
                                                            });
        QVERIFY(s.cancelled);
        QVERIFY(!s.schedules.empty() && s.schedules.size() < 5000);
        QCOMPARE(s.proxySpeedups.size(), s.schedules.size());
        const SampleSet again = draw(p, 0.1, static_cast<int>(s.schedules.size()), 1, 1);
        QVERIFY(again.proxySpeedups == s.proxySpeedups);
    }

    void logSpacing() {
        const auto t = logSpacedTemperatures(4, 0.001, 1);
        QCOMPARE(t.size(), size_t(4));
        QCOMPARE(t[0], 0.001);
        QVERIFY(std::abs(t[1] - 0.01) < 1e-15 && std::abs(t[2] - 0.1) < 1e-15);
        QCOMPARE(t[3], 1.0);
        QCOMPARE(logSpacedTemperatures().size(), size_t(20));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, logSpacedTemperatures(3, 0, 1));
    }

    // Every number of a point against an independent recomputation from the same samples.
    // Catches: std over the top k instead of N, distinct over the top k, best-of-k over all N,
    // the best chains not the proxy top-1, per-temperature seeds not derived from the sweep seed.
    void sweepPointsMatchAnIndependentRecount() {
        const Problem p = fixedProblem();
        SweepOptions o;
        o.temperatures = {0.01, 0.3, 1.0};
        o.samples = 60;
        o.topK = 10;
        o.seed = 3;
        auto sampler = makeListGumbelSampler();
        int finishedReports = 0;
        double lastFraction = 0;
        const Sweep s = runSweep(p, "list-gumbel", *sampler, o, {}, [&](double f, const SweepPoint* done) {
            QVERIFY(f >= lastFraction);
            lastFraction = f;
            finishedReports += done != nullptr;
        });
        QCOMPARE(finishedReports, 3);
        QCOMPARE(lastFraction, 1.0);
        QVERIFY(!s.cancelled);
        QCOMPARE(s.points.size(), size_t(3));
        const Problem bandwidth = targetProblem(p, TargetModel::Bandwidth, o.targetSeed);
        for (size_t i = 0; i < 3; ++i) {
            const SweepPoint& pt = s.points[i];
            const SampleSet set = draw(p, o.temperatures[i], 60, deriveSeed(3, i), 1);
            std::vector<double> u = set.proxySpeedups;
            double sq = 0;
            for (double x : u) sq += (x - mean(u)) * (x - mean(u));
            QVERIFY(std::abs(pt.proxyMean - mean(u)) < 1e-12);
            QVERIFY(std::abs(pt.proxyStd - std::sqrt(sq / 60)) < 1e-12);
            std::vector<int> order(60);
            for (int k = 0; k < 60; ++k) order[static_cast<size_t>(k)] = k;
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return u[static_cast<size_t>(a)] > u[static_cast<size_t>(b)]; });
            QCOMPARE(pt.proxyTop1, u[static_cast<size_t>(order[0])]);
            double topMean = 0, bestBandwidth = 0;
            for (int k = 0; k < 10; ++k) {
                topMean += u[static_cast<size_t>(order[static_cast<size_t>(k)])] / 10;
                bestBandwidth = std::max(bestBandwidth, targetSpeedup(bandwidth, set.schedules[static_cast<size_t>(order[static_cast<size_t>(k)])]));
            }
            QVERIFY(std::abs(pt.proxyTopKMean - topMean) < 1e-12);
            QCOMPARE(pt.targets.size(), size_t(3));
            QVERIFY(pt.targets[1].model == TargetModel::Bandwidth);
            QVERIFY(std::abs(pt.targets[1].bestOfK - bestBandwidth) < 1e-12);
            std::set<DeviceChains> exact;
            for (const Schedule& sc : set.schedules) exact.insert(deviceChains(sc, kDevices));
            QCOMPARE(pt.distinct.exact, static_cast<int>(exact.size()));
            QVERIFY(pt.best == deviceChains(set.schedules[static_cast<size_t>(order[0])], kDevices));
            const Schedule best = bestSchedule(p, pt);
            QCOMPARE(best.makespan, pt.bestMakespan);
            QVERIFY(std::abs(p.g().totalWork() / best.makespan - pt.proxyTop1) < 1e-12);
            QCOMPARE(pt.kept, 10);
        }
        QVERIFY(s.points[0].proxyMean > s.points[2].proxyMean);
        QVERIFY(s.points[0].distinct.exact < s.points[2].distinct.exact);
    }

    void sweepStopsBetweenTemperatures() {
        const Problem p = fixedProblem();
        SweepOptions o;
        o.temperatures = {0.01, 0.1, 1.0};
        o.samples = 30;
        o.topK = 5;
        std::stop_source stop;
        auto sampler = makeListGumbelSampler();
        const Sweep s = runSweep(p, "list-gumbel", *sampler, o, stop.get_token(), [&](double, const SweepPoint* done) {
            if (done) stop.request_stop();
        });
        QVERIFY(s.cancelled);
        QCOMPARE(s.points.size(), size_t(1));
    }

    void jsonRoundTripsAndCsvHasOneRowPerPoint() {
        const Problem p = fixedProblem();
        SweepOptions o;
        o.temperatures = {0.002, 0.5};
        o.samples = 20;
        o.topK = 4;
        o.seed = 12345678901234ULL;
        auto sampler = makeListGumbelSampler();
        Sweep s = runSweep(p, "list-gumbel", *sampler, o, {}, {});
        s.graphName = "er, 40 \"ops\"";
        s.timeUnit = TimeUnit::Seconds;   // not the default: the file must carry it
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("a.sweep.json")).toStdString();
        saveSweepJson(s, path);
        const Sweep back = loadSweepJson(path);
        QCOMPARE(sweepToJson(back), sweepToJson(s));   // every field, to the last bit
        QCOMPARE(back.graphName, s.graphName);
        QVERIFY(back.timeUnit == TimeUnit::Seconds);
        QCOMPARE(back.options.seed, o.seed);
        QCOMPARE(back.points[1].topK.dSen, s.points[1].topK.dSen);
        QVERIFY(back.points[1].best == s.points[1].best);
        QCOMPARE(bestSchedule(p, back.points[1]).makespan, s.points[1].bestMakespan);
        const std::string csv = sweepToCsv(s);
        QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 3L);
        const std::string header = csv.substr(0, csv.find('\n'));
        QCOMPARE(std::count(header.begin(), header.end(), ','), 12L + 2 * 3);
        QVERIFY(header.find("best_of_k_latency") != std::string::npos);
        QVERIFY(csv.find("\n0.002,20,") != std::string::npos);
    }

    void hostileFilesAreRefusedWithFileAndPlace_data() {
        QTest::addColumn<QString>("edit");   // a regex replacement applied to a valid file
        QTest::addColumn<QString>("message");
        QTest::newRow("truncated") << "TRUNCATE" << "invalid JSON (the file ends too early";
        QTest::newRow("format") << "schedlab-sweep=>schedlab-schedule" << "not a SchedLab sweep";
        QTest::newRow("version") << "\"version\": 1=>\"version\": 99" << "newer";
        QTest::newRow("type") << "\"proxy_top1\": [0-9.e+-]+=>\"proxy_top1\": \"high\"" << "points[0].proxy_top1 must be a number";
        QTest::newRow("negative") << "\"samples\": 20,=>\"samples\": -5," << "samples must be in [1";
        QTest::newRow("chains") << "\"best_chains\": \\[\\n *\\[\\n *[0-9]+=>\"best_chains\": [[99999" << "points[0].best_chains[0] holds 99999";
        QTest::newRow("missing") << "\"kept\": [0-9]+,=>" << "points[0].kept is missing";
        QTest::newRow("target") << "\"noisy\",\\n=>\"fast\",\n" << "unknown target model 'fast'";
    }
    void hostileFilesAreRefusedWithFileAndPlace() {
        QFETCH(QString, edit);
        QFETCH(QString, message);
        const Problem p = fixedProblem();
        SweepOptions o;
        o.temperatures = {0.01};
        o.samples = 20;
        o.topK = 4;
        auto sampler = makeListGumbelSampler();
        QString text = QString::fromStdString(sweepToJson(runSweep(p, "list-gumbel", *sampler, o, {}, {})));
        if (edit == QLatin1String("TRUNCATE")) {
            text = text.left(text.indexOf(QLatin1String("\"samples\"")));
        } else {
            const QStringList parts = edit.split(QStringLiteral("=>"));
            const QString before = text;
            text.replace(QRegularExpression(parts[0]), parts[1]);
            QVERIFY2(text != before, "the edit did not apply");
        }
        QTemporaryDir dir;
        const std::string path = writeText(dir, "bad.sweep.json", text.toStdString());
        try {
            loadSweepJson(path);
            QFAIL("a hostile sweep file was accepted");
        } catch (const IoError& e) {
            const std::string what = e.what();
            QVERIFY2(what.rfind(path, 0) == 0, e.what());   // starts with the file
            QVERIFY2(what.find(message.toStdString()) != std::string::npos, e.what());
        }
    }

    void aSweepOfAnotherGraphDoesNotFit() {
        const Problem p = fixedProblem();
        Sweep s;
        s.ops = 41;
        s.devices = kDevices;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkSweepFits(s, p));
        s.ops = 40;
        checkSweepFits(s, p);
    }
};

SCHEDLAB_TEST_MAIN(sweep, TestSweep)
#include "tst_sweep.moc"
