// SPDX-License-Identifier: MIT
// The Temperature panel and the sweep view, driven offscreen: moving the σ slider re-samples in the
// background and fills the histogram; a sweep fills the charts and the table; clicking a row shows
// that temperature's best schedule in the Gantt view; sweeps save, reopen and refuse bad files.
#include "common/testmain.h"
#include "core/costmodel/target.h"
#include "core/graph/fingerprint.h"
#include "core/heuristics/listgumbel.h"
#include "core/optimizer/optimizer.h"
#include "core/optimizer/sampler.h"
#include "core/profile/profile.h"
#include "core/sweep/sweep.h"
#include "core/sweep/sweepio.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/platformpanel.h"
#include "widgets/panels/sweepview.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/panels/temperatureslider.h"
#include "widgets/session/document.h"
#include "widgets/session/graphorigin.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/sweepmodel.h"
#include "widgets/views/ganttview.h"
#include "widgets/views/histogramview.h"
#include "widgets/views/palette.h"

#include <QAreaSeries>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <numeric>
#include <span>
#include <thread>
#include <QAreaSeries>

using namespace sl;
using namespace sl::gui;

namespace {

// list-gumbel under another name, claiming a training range: the slider must shade the rest
void registerTrainedSampler() {
    SamplerRegistry::instance().add({"test-trained", "list-gumbel trained on [0.01, 1] (test)", {0.01, 1}},
                                    [](const SamplerConfig&) { return makeListGumbelSampler(); });
}

/// A sampler that draws in chunks of 50 with a pause after each, sharing what it has drawn: a
/// run long enough to be watched and cut short. Counts the runs that saw their stop.
std::atomic<int> g_slowRunsStopped{0};
class SlowSampler : public TemperatureSampler {
public:
    SampleSet sample(const Problem& p, const SampleRequest& r, std::stop_token stop, const SampleProgressFn& progress) override {
        SampleSet all = makeListGumbelSampler()->sample(p, r, {}, {});
        for (size_t done = 50; done <= all.proxySpeedups.size(); done += 50) {
            if (stop.stop_requested()) {
                ++g_slowRunsStopped;
                all.schedules.resize(done - 50);
                all.proxySpeedups.resize(done - 50);
                all.cancelled = true;
                return all;
            }
            if (progress) progress({static_cast<double>(done) / r.count, std::span<const double>(all.proxySpeedups.data(), done)});
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
        }
        return all;
    }
};
void registerSlowSampler() {
    SamplerRegistry::instance().add({"test-slow", "list-gumbel, 50 samples per 150 ms (test)", {}},
                                    [](const SamplerConfig&) { return std::make_unique<SlowSampler>(); });
}

bool opened(MainWindow& w) {
    if (!w.open(GraphOrigin::generated(QStringLiteral("layered-gfn"), 40, 5))) return false;
    w.platformPanel()->setDeviceCount(3);
    return true;
}

int pixelsNear(const QImage& img, const QColor& c, int tolerance = 40) {
    int n = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2) {
            const QColor p = img.pixelColor(x, y);
            n += std::abs(p.red() - c.red()) + std::abs(p.green() - c.green()) + std::abs(p.blue() - c.blue()) < tolerance;
        }
    return n;
}

/// A speedup as the Temperature dock prints it.
QString times(double u) { return QStringLiteral("%1×").arg(u, 0, 'f', 3); }

/// Mean of the `k` largest of `values`.
double topMean(std::vector<double> values, size_t k) {
    std::sort(values.begin(), values.end(), std::greater<>());
    return std::accumulate(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), 0.0) /
        static_cast<double>(k);
}

/// The "extrapolation" bands of the Sweep tab's three charts.
QList<QAreaSeries*> extrapolationShades(SweepView& view) {
    QList<QAreaSeries*> out;
    for (QChartView* v : {view.qualityChart(), view.targetChart(), view.diversityChart()})
        for (QAbstractSeries* s : v->chart()->series())
            if (auto* a = qobject_cast<QAreaSeries*>(s); a && a->name() == QStringLiteral("extrapolation")) out.append(a);
    return out;
}

} // namespace

class TestTemperature : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SchedLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_temperature"));
        QSettings().clear();
        registerCoreOptimizers();
        registerTrainedSampler();
        registerSlowSampler();
    }

    // The histogram fills while a run draws (well before its last chunk), and a second slider move
    // stops the first run, whose samples never reach the panel. Catches a histogram fed only at the
    // end, a stale run left drawing, a stale partial result drawn over the newer run's.
    void samplesStreamInAndASecondMoveCancelsTheFirst() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(opened(w));
        TemperaturePanel* panel = w.temperaturePanel();
        panel->setSampleCount(500);   // 10 chunks, 1.5 s
        panel->setSampler(QStringLiteral("test-slow"));
        QTRY_VERIFY_WITH_TIMEOUT(panel->isSampling(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(panel->histogram()->total() > 0, 5000);
        QVERIFY(panel->histogram()->total() < 500);   // drawn so far, shown before the run ends
        QVERIFY(panel->isSampling());
        const int stoppedBefore = g_slowRunsStopped;
        panel->setTemperature(1.0);   // the second request: the first run is stopped
        QTRY_VERIFY_WITH_TIMEOUT(g_slowRunsStopped == stoppedBefore + 1, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isSampling(), 10000);
        QCOMPARE(panel->current()->temperature, 1.0);
        QCOMPARE(panel->histogram()->total(), 500);
    }

    // The numbers the dock shows of the samples drawn so far are the ones core's summary gives for
    // the same speedups. Mutations caught: a sample std (n - 1) where the summary's is the
    // population's, a top-k mean over the first k drawn rather than the best k, k not capped.
    void drawnSpeedupsSummariseLikeTheFinalSummary() {
        const SweepPoint four = summarizeSpeedups(0.1, std::vector<double>{1, 4, 2, 3}, 2);
        QCOMPARE(four.proxyTop1, 4.0);
        QCOMPARE(four.proxyMean, 2.5);
        QCOMPARE(four.proxyStd, std::sqrt(1.25));
        QCOMPARE(four.proxyTopKMean, 3.5);
        QCOMPARE(four.kept, 2);
        QCOMPARE(summarizeSpeedups(0.1, std::vector<double>{1, 4}, 100).kept, 2);
        MainWindow w;
        QVERIFY(opened(w));
        const auto problem = w.document()->problem();
        const SampleSet set =
            makeListGumbelSampler()->sample(*problem, {.temperature = 0.3, .count = 300, .seed = 4}, {}, {});
        SweepOptions o;
        o.topK = 100;
        o.targets.clear();
        const SweepPoint all = summarizeSamples(*problem, 0.3, set, o);
        const SweepPoint drawn = summarizeSpeedups(0.3, set.proxySpeedups, 100);
        QCOMPARE(drawn.samples, all.samples);
        QCOMPARE(drawn.kept, all.kept);
        QCOMPARE(drawn.proxyTop1, all.proxyTop1);
        QCOMPARE(drawn.proxyMean, all.proxyMean);
        QCOMPARE(drawn.proxyStd, all.proxyStd);
        QVERIFY(qFuzzyCompare(drawn.proxyTopKMean, all.proxyTopKMean));
    }

    // While a run at a new σ draws, the stats box below the histogram follows the samples drawn so
    // far (top-1, mean, top-k mean of those) and says "pending" for what needs every schedule
    // (distinct, GED, d_inv); the run's end replaces them; a stop says "stopped". Mutations caught:
    // the stats left at the previous σ's values until the run ends (the issue), GED or distinct
    // shown before they are computed, the partial numbers left in place of the final ones, "Add
    // best" offering another σ's best while the new σ's samples are shown.
    void statsFollowTheSamplesDrawnSoFar() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(opened(w));
        TemperaturePanel* panel = w.temperaturePanel();
        panel->setSampleCount(500);   // 10 chunks of 50, 1.5 s
        panel->setSampler(QStringLiteral("test-slow"));
        QTRY_VERIFY_WITH_TIMEOUT(panel->current() && !panel->isSampling(), 15000);   // a σ's final numbers in the box
        const SampleSet hot = makeListGumbelSampler()->sample(*w.document()->problem(),
                                                              {.temperature = 1.0, .count = 500, .seed = 1}, {}, {});
        auto* stats = panel->findChild<QLabel*>(QStringLiteral("temperatureStats"));
        auto* keep = panel->findChild<QPushButton*>(QStringLiteral("keepButton"));
        panel->setTemperature(1.0);
        QTRY_VERIFY_WITH_TIMEOUT(
            panel->isSampling() && panel->histogram()->total() > 0 && panel->histogram()->total() < 500, 10000);
        const int n = panel->histogram()->total();   // drawn so far: the histogram and the box are set together
        const std::vector<double> drawn(hot.proxySpeedups.begin(), hot.proxySpeedups.begin() + n);
        const QString partial = stats->text();
        QVERIFY2(partial.contains(times(*std::max_element(drawn.begin(), drawn.end()))), qPrintable(partial));
        QVERIFY2(partial.contains(times(std::accumulate(drawn.begin(), drawn.end(), 0.0) / n)), qPrintable(partial));
        QVERIFY2(partial.contains(times(topMean(drawn, std::min<size_t>(100, drawn.size())))), qPrintable(partial));
        QVERIFY2(partial.contains(QStringLiteral("distinct of %1").arg(n)) &&
                     partial.count(QStringLiteral("pending")) == 3,
                 qPrintable(partial));
        QVERIFY(!keep->isEnabled());
        // the end: the run's summary, every number made
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isSampling() && panel->current()->temperature == 1.0, 10000);
        const SweepPoint& p = panel->current()->summary;
        const QString final = stats->text();
        QVERIFY2(!final.contains(QStringLiteral("pending")) && final.contains(QStringLiteral("distinct of 500")),
                 qPrintable(final));
        QVERIFY2(final.contains(times(p.proxyTop1)) && final.contains(times(p.proxyMean)), qPrintable(final));
        QVERIFY2(final.contains(QStringLiteral("%1 %").arg(p.topK.ged, 0, 'f', 1)), qPrintable(final));
        QVERIFY(keep->isEnabled());
        // stopped halfway: what was drawn stays, the rest says so
        panel->setTemperature(0.5);
        QTRY_VERIFY_WITH_TIMEOUT(
            panel->isSampling() && panel->histogram()->total() > 0 && panel->histogram()->total() < 500, 10000);
        panel->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isSampling(), 10000);
        QVERIFY2(stats->text().count(QStringLiteral("stopped")) == 3 &&
                     !stats->text().contains(QStringLiteral("pending")),
                 qPrintable(stats->text()));
    }

    // Catches: a stale sample landing after a newer one, the histogram not fed, the best sample
    // not reaching the Gantt view, σ ignored (same distinct count at both ends).
    void movingTheSliderResamplesAndFillsTheHistogram() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(opened(w));
        TemperaturePanel* panel = w.temperaturePanel();
        panel->setSampler(QStringLiteral("list-gumbel"));
        panel->setSampleCount(200);
        QSignalSpy shown(&w, &MainWindow::scheduleShown);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isSampling(), 10000);   // the load's own sample, if any
        shown.clear();
        // two quick moves: the debounce and the stale-run cancel leave exactly one result, the last
        panel->slider()->triggerAction(QAbstractSlider::SliderPageStepAdd);   // as a click beside the handle
        panel->slider()->triggerAction(QAbstractSlider::SliderToMaximum);    // as the End key: σ = 1
        QVERIFY(shown.wait(10000));
        QTest::qWait(300);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(panel->current()->temperature, 1.0);
        const int hotDistinct = panel->current()->summary.distinct.exact;
        QCOMPARE(panel->histogram()->total(), 200);
        QVERIFY(panel->histogram()->nonEmptyBins() >= 5);   // σ = 1 spreads the speedups
        const RunRecord best = shown.takeFirst().at(0).value<RunRecord>();
        QVERIFY(w.ganttView()->record());
        QCOMPARE(w.ganttView()->record()->schedule().makespan, best.schedule().makespan);
        QCOMPARE(best.schedule().makespan, panel->current()->summary.bestMakespan);
        QCOMPARE(w.ganttView()->barCount(), 40);
        QVERIFY(panel->findChild<QLabel*>(QStringLiteral("temperatureStats"))->text().contains(QStringLiteral("200")));
        // the cold end: fewer distinct schedules, a narrower histogram
        panel->slider()->setValue(0);
        QVERIFY(shown.wait(10000));
        QCOMPARE(panel->current()->temperature, 0.001);
        QVERIFY2(panel->current()->summary.distinct.exact < hotDistinct,
                 qPrintable(QStringLiteral("%1 vs %2").arg(panel->current()->summary.distinct.exact).arg(hotDistinct)));
        QVERIFY(panel->histogram()->nonEmptyBins() < 5);
        // keep it: one more result row, scored like any run
        panel->findChild<QPushButton*>(QStringLiteral("keepButton"))->click();
        QCOMPARE(w.results()->rowCount(), 1);
    }

    // The measured target (issue 50's left-over): a profile applied and "Score on: measured"
    // chosen, the graph keeps the machine's times (here the file's) and the profile's times judge:
    // the dock's best-of-k row is on them, the proxy top-1's measured speedup is its chains re-timed
    // on the measured graph, and the kept best is a result scored there too. Catches samples drawn
    // on the measured times, a measured graph lost on its way to the summary, and the Platform
    // dock's "Score on" never reaching the document (it was dead since the document took the
    // machine: every result was scored on the proxy whatever was chosen).
    void theMeasuredTargetJudgesSamplesOnTheProfile() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(opened(w));
        const std::shared_ptr<const Graph> asRead = w.openGraph()->graph;
        Profile measured;
        measured.fingerprint = modelFingerprintText(modelFingerprint(*asRead));
        measured.tool = "tst_temperature";
        for (OpId v = 0; v < asRead->opCount(); ++v)   // op v takes 1 + (v mod 7) x 3: not the file's times
            measured.ops.push_back({asRead->op(v).name, asRead->op(v).type, 1.0 + (v % 7) * 3.0, 0, 5});
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("measured.json"));
        saveProfile(measured, path.toStdString());
        QVERIFY(w.applyProfile(path));
        QVERIFY(w.openGraph()->graph != asRead);   // the profile times the graph ...
        w.platformPanel()->setTarget(TargetModel::Measured);
        QCOMPARE(w.openGraph()->graph, asRead);   // ... until it is the target: the file's times again
        const std::shared_ptr<const Graph> judged = w.document()->scoringTarget().measured;
        QVERIFY(judged);
        for (OpId v = 0; v < judged->opCount(); ++v) QCOMPARE(judged->op(v).duration, 1.0 + (v % 7) * 3.0);

        TemperaturePanel* panel = w.temperaturePanel();
        panel->setSampler(QStringLiteral("list-gumbel"));
        panel->setSampleCount(150);
        QSignalSpy shown(&w, &MainWindow::scheduleShown);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isSampling(), 10000);
        shown.clear();
        panel->slider()->triggerAction(QAbstractSlider::SliderToMaximum);
        QVERIFY(shown.wait(10000));
        const SweepPoint& p = panel->current()->summary;
        QCOMPARE(p.targets.size(), size_t(1));
        QVERIFY(p.targets.front().model == TargetModel::Measured);
        const RunRecord& best = panel->current()->best;
        const Problem problem = *w.document()->problem();
        const double onMeasured = speedup(measuredTargetProblem(problem, judged), best.schedule());
        QCOMPARE(p.targets.front().ofProxyTop1, onMeasured);
        QVERIFY(p.targets.front().bestOfK >= onMeasured);
        QVERIFY(std::abs(onMeasured - p.proxyTop1) > 1e-6);   // judged on other times than it was drawn on
        QVERIFY(panel->findChild<QLabel*>(QStringLiteral("temperatureStats"))
                    ->text()
                    .contains(QStringLiteral("on measured")));

        panel->findChild<QPushButton*>(QStringLiteral("keepButton"))->click();
        QCOMPARE(w.results()->rowCount(), 1);
        const RunRecord kept = w.results()->record(0);
        QVERIFY(kept.target.model == TargetModel::Measured);
        QCOMPARE(kept.targetSpeedup, speedup(measuredTargetProblem(*kept.problem, judged), kept.schedule()));
    }

    // Catches: the trained range not reaching the slider, shading on the wrong side, the label.
    void extrapolationIsShaded() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        TemperaturePanel* panel = w.temperaturePanel();
        panel->reloadSamplers();
        QVERIFY(panel->setSampler(QStringLiteral("test-trained")));
        panel->setTemperature(0.003);
        TemperatureSlider* slider = panel->slider();
        QTRY_VERIFY(slider->width() > 150);
        const QImage img = slider->grab().toImage();
        auto orange = [&](double t) {
            const QColor c = img.pixelColor(slider->xOf(t), 2);
            return c.red() > c.blue() + 25;
        };
        QVERIFY(orange(0.002));
        QVERIFY(!orange(0.1));
        const auto label = panel->findChildren<QLabel*>();
        bool flagged = false;
        for (QLabel* l : label) flagged |= l->text() == QLatin1String("extrapolation") && l->isVisible();
        QVERIFY(flagged);
        panel->setTemperature(0.1);
        for (QLabel* l : panel->findChildren<QLabel*>())
            if (l->text() == QLatin1String("extrapolation")) QVERIFY(!l->isVisible());
        QVERIFY(panel->setSampler(QStringLiteral("list-gumbel")));   // no range: nothing shaded
        QVERIFY(!slider->isExtrapolation(0.001));
    }

    // Catches: a series or a row missing, a row click showing another temperature's schedule,
    // save and reopen losing numbers, a bad file accepted.
    // Catches: sweep charts that do not show where the sampler extrapolates (the list-gumbel sweep
    // below checks that a sampler needing no training gets no shade).
    void sweepShadesWhereTheSamplerExtrapolates() {
        MainWindow w;
        w.resize(1500, 950);
        w.show();
        QVERIFY(opened(w));
        TemperaturePanel* panel = w.temperaturePanel();
        panel->setSampler(QStringLiteral("test-trained"));
        panel->setSweepSettings(3, 20, 5);   // sigma 0.001, 0.0316, 1
        QSignalSpy swept(&w, &MainWindow::sweepShown);
        w.startSweep();
        QTRY_VERIFY_WITH_TIMEOUT(swept.count() > 0, 30000);   // a small sweep may land before a wait() would start
        const QList<QAreaSeries*> found = extrapolationShades(*w.sweepView());
        QCOMPARE(found.size(), 3);   // [0.001, 0.01] on each of the three charts
        for (QAreaSeries* a : found) {
            QCOMPARE(a->upperSeries()->at(0).x(), 0.001);
            QCOMPARE(a->upperSeries()->at(1).x(), 0.01);
        }
    }

    void sweepFillsChartsAndTableAndARowShowsItsBest() {
        MainWindow w;
        w.resize(1500, 950);
        w.show();
        QVERIFY(opened(w));
        TemperaturePanel* panel = w.temperaturePanel();
        panel->setSampler(QStringLiteral("list-gumbel"));
        panel->setSweepSettings(5, 50, 10);
        QSignalSpy swept(&w, &MainWindow::sweepShown);
        w.startSweep();
        QTRY_VERIFY_WITH_TIMEOUT(swept.count() > 0, 30000);   // a small sweep may land before a wait() would start
        SweepView* view = w.sweepView();
        const auto sweep = view->sweep();
        QVERIFY(sweep);
        QCOMPARE(static_cast<int>(sweep->points.size()), 5);
        QCOMPARE(view->model()->rowCount(), 5);
        QCOMPARE(view->model()->columnCount(), SweepModel::FirstTarget + 3);
        QCOMPARE(view->dataSeries().size(), 3 + 3 + 3);   // mean, top-1, top-k; 3 targets; GED, distinct, relabelled
        for (QLineSeries* s : view->dataSeries()) QCOMPARE(s->count(), 5);
        QVERIFY(extrapolationShades(*view).isEmpty());   // list-gumbel needs no training: nothing shaded
        QCOMPARE(view->model()->data(view->model()->index(4, SweepModel::Sigma)).toString(), QStringLiteral("1"));
        // the charts are painted: the top-1 line's colour is there
        QTest::qWait(100);   // charts lay out on the next event loop turn
        const QImage chart = view->qualityChart()->grab().toImage();
        QVERIFY(pixelsNear(chart, palette::category(3)) > 20);
        // click row 2: its best schedule reaches the Gantt view
        QSignalSpy shown(&w, &MainWindow::scheduleShown);
        QTableView* table = view->table();
        QTest::qWait(200);   // the tab has just been shown: let the table take its geometry
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isSampling(), 10000);   // the dock's own sample also reaches the views
        const QRect cell = table->visualRect(view->model()->index(2, SweepModel::Mean));
        QVERIFY(table->viewport()->rect().contains(cell.center()));
        shown.clear();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(view->selectedPoint(), 2);
        auto sweepShownOnce = [&] {
            for (const auto& args : shown)
                if (args.at(0).value<RunRecord>().name.contains(QStringLiteral("(sweep)"))) return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(sweepShownOnce(), 10000);
        QVERIFY(w.ganttView()->record());
        QCOMPARE(w.ganttView()->record()->schedule().makespan, sweep->points[2].bestMakespan);
        QVERIFY(w.ganttView()->record()->schedule().makespan != 0);
        // and it is that row's schedule, not a neighbour's with the same makespan
        QVERIFY(deviceChains(w.ganttView()->record()->schedule(), 3) == sweep->points[2].best);
        QVERIFY(sweep->points[2].best != sweep->points[4].best);
        QCOMPARE(view->nearestPoint(sweep->points[3].temperature * 1.2), 3);
        // save, reopen: the same numbers
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.sweep.json"));
        QVERIFY(w.saveSweep(path));
        QVERIFY(w.saveSweep(dir.filePath(QStringLiteral("s.csv"))));
        QFile csv(dir.filePath(QStringLiteral("s.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), 6);
        MainWindow other;
        bool ok = false;
        other.openSweep(path, [&](bool success) { ok = success; });
        QTRY_VERIFY_WITH_TIMEOUT(other.sweepView()->sweep(), 10000);
        QVERIFY(ok);
        QCOMPARE(sweepToJson(*other.sweepView()->sweep()), sweepToJson(*sweep));
        // a hostile file: refused, named, nothing replaced
        const QString bad = dir.filePath(QStringLiteral("bad.sweep.json"));
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("{\"format\": \"schedlab-sweep\", \"version\": 1, \"sampler\": 3}");
        b.close();
        bool finished = false;
        other.openSweep(bad, [&](bool success) {
            ok = success;
            finished = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
        QVERIFY(!ok);
        QVERIFY2(other.lastError().contains(QStringLiteral("bad.sweep.json")) && other.lastError().contains(QStringLiteral("sampler")),
                 qPrintable(other.lastError()));
        QCOMPARE(other.sweepView()->sweep()->points.size(), size_t(5));
    }
};

SCHEDLAB_TEST_MAIN(temperature, TestTemperature)
#include "tst_temperature.moc"
