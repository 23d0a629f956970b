// SPDX-License-Identifier: MIT
#include "widgets/panels/temperaturepanel.h"

#include <utility>

#include "widgets/panels/temperatureslider.h"
#include "widgets/session/document.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/temperaturejobs.h"
#include "widgets/session/units.h"
#include "widgets/views/histogramview.h"

#include "core/optimizer/sampler.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <thread>

namespace sl::gui {

namespace {

const QString kGflowNet = QStringLiteral("gflownet");

QString times(double u) { return QStringLiteral("%1×").arg(u, 0, 'f', 3); }

/// Every core: a sampler's samples do not depend on its thread count (core/optimizer/sampler.h).
int samplingThreads() { return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u)); }

/// k of the dock's top-k numbers (fewer samples: all of them).
constexpr int kSummaryTopK = 100;

QString statsRow(const QString& label, const QString& value) {
    return QStringLiteral("<tr><td style='color:#555'>%1</td><td>&nbsp;</td><td>%2</td></tr>").arg(label, value);
}

/// The rows that follow from the speedups alone: the same for the samples drawn so far and for all.
QString speedupRows(const SweepPoint& p) {
    return statsRow(TemperaturePanel::tr("top-1 U"), QStringLiteral("<b>%1</b>").arg(times(p.proxyTop1))) +
        statsRow(TemperaturePanel::tr("mean U ± std"),
                 QStringLiteral("%1 ± %2").arg(times(p.proxyMean)).arg(p.proxyStd, 0, 'f', 3)) +
        statsRow(TemperaturePanel::tr("top-%1 mean U").arg(p.kept), times(p.proxyTopKMean));
}

/// The rows that need every schedule: distinct counts, the top k's diversity, best of k on targets.
QString scheduleRows(const SweepPoint& p, TimeUnit unit) {
    QString rows = statsRow(TemperaturePanel::tr("distinct of %1").arg(QLocale().toString(p.samples)),
                            TemperaturePanel::tr("<b>%1</b> exact · %2 up to relabelling")
                                .arg(p.distinct.exact)
                                .arg(p.distinct.upToRelabelling));
    rows += statsRow(TemperaturePanel::tr("GED of the top %1").arg(p.kept),
                     QStringLiteral("%1 %").arg(p.topK.ged, 0, 'f', 1));
    rows +=
        statsRow(TemperaturePanel::tr("d<sub>inv</sub> / d<sub>sen</sub>"),
                 QStringLiteral("%1 / %2").arg(formatDuration(p.topK.dInv, unit), formatDuration(p.topK.dSen, unit)));
    for (const TargetOutcome& t : p.targets)
        rows += statsRow(
            TemperaturePanel::tr("best of %1 on %2").arg(p.kept).arg(QString::fromStdString(toString(t.model))),
            TemperaturePanel::tr("<b>%1</b> (top-1 there %2)").arg(times(t.bestOfK), times(t.ofProxyTop1)));
    return rows;
}

/// scheduleRows' labels with `why` ("pending", "stopped") in place of numbers the run has not made.
QString unmadeRows(const SweepPoint& p, const QString& why, TargetModel target) {
    const QString value = QStringLiteral("<i style='color:#888'>%1</i>").arg(why);
    QString rows = statsRow(TemperaturePanel::tr("distinct of %1").arg(QLocale().toString(p.samples)), value);
    rows += statsRow(TemperaturePanel::tr("GED of the top %1").arg(p.kept), value);
    rows += statsRow(TemperaturePanel::tr("d<sub>inv</sub> / d<sub>sen</sub>"), value);
    if (target != TargetModel::Proxy)
        rows += statsRow(
            TemperaturePanel::tr("best of %1 on %2").arg(p.kept).arg(QString::fromStdString(toString(target))), value);
    return rows;
}

QString statsTable(const QString& rows) {
    return QStringLiteral("<table cellspacing=1>") + rows + QStringLiteral("</table>");
}

}   // namespace

TemperaturePanel::TemperaturePanel(QWidget* parent) : QWidget(parent), m_jobs(new TemperatureJobs(this)) {
    connect(m_jobs, &TemperatureJobs::sampled, this, &TemperaturePanel::showSample);
    connect(m_jobs, &TemperatureJobs::samplingEnded, this, &TemperaturePanel::onSamplingEnded);
    connect(m_jobs, &TemperatureJobs::swept, this, &TemperaturePanel::onSwept);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildSamplingBox(), 1);
    layout->addWidget(buildSweepBox());
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(80);   // a drag re-samples once it pauses, not at every pixel
    connect(&m_debounce, &QTimer::timeout, this, &TemperaturePanel::resampleNow);
    m_poll.setInterval(33);
    connect(&m_poll, &QTimer::timeout, this, &TemperaturePanel::pollProgress);
    reloadSamplers();
    m_slider->setTemperature(0.005);
    updateTemperatureLabel();
}

TemperaturePanel::~TemperaturePanel() { cancel(); }

QWidget* TemperaturePanel::buildSamplingBox() {
    auto* box = new QWidget(this);
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_sampler = new QComboBox(box);
    m_sampler->setObjectName(QStringLiteral("samplerCombo"));
    form->addRow(tr("Sampler"), m_sampler);
    m_samples = new QSpinBox(box);
    m_samples->setRange(1, 1000000);
    m_samples->setValue(1000);
    m_samples->setGroupSeparatorShown(true);
    m_samples->setSuffix(tr(" samples"));
    m_samples->setMinimumWidth(110);
    m_samples->setToolTip(tr("Schedules drawn at this temperature (N)"));
    m_seed = new QSpinBox(box);
    m_seed->setRange(0, 2000000000);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("Random seed: the same seed draws the same schedules, whatever the thread count"));
    auto* row = new QHBoxLayout;
    row->addWidget(m_samples, 2);
    row->addWidget(new QLabel(tr("seed"), box));
    row->addWidget(m_seed, 1);
    form->addRow(tr("Draw"), row);
    v->addLayout(form);

    auto* sigmaRow = new QHBoxLayout;
    m_sigma = new QLabel(box);
    m_sigma->setObjectName(QStringLiteral("sigmaLabel"));
    m_sigma->setToolTip(
        tr("Reward temperature σ (unit-less): low σ concentrates on the best schedules, high σ spreads out"));
    m_extrapolation = new QLabel(tr("extrapolation"), box);
    m_extrapolation->setStyleSheet(QStringLiteral("color: #b35c00; font-weight: bold"));
    m_extrapolation->setToolTip(tr("σ is outside the range the sampler was trained on (shaded on the slider)"));
    sigmaRow->addWidget(m_sigma);
    sigmaRow->addStretch(1);
    sigmaRow->addWidget(m_extrapolation);
    v->addLayout(sigmaRow);
    m_slider = new TemperatureSlider(box);
    m_slider->setObjectName(QStringLiteral("temperatureSlider"));
    v->addWidget(m_slider);

    m_histogram = new HistogramView(box);
    m_histogram->setAxisTitles(tr("proxy speedup U (×)"), tr("samples"));
    m_histogram->setMinimumHeight(190);
    m_histogram->setToolTip(tr("Proxy speedups U = total work / makespan of the N samples (higher is better)"));
    v->addWidget(m_histogram, 1);

    m_stats = new QLabel(box);
    m_stats->setObjectName(QStringLiteral("temperatureStats"));
    m_stats->setTextFormat(Qt::RichText);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(m_stats);

    v->addLayout(buildStatusRow(box));
    m_keep = new QPushButton(tr("Add best to results"), box);
    m_keep->setObjectName(QStringLiteral("keepButton"));
    m_keep->setToolTip(tr("Keep this temperature's best schedule as a result row (to compare, save or export it)"));
    m_keep->setEnabled(false);
    v->addWidget(m_keep);

    connectSamplingControls();
    return box;
}

QGridLayout* TemperaturePanel::buildStatusRow(QWidget* box) {
    auto* statusRow = new QGridLayout;
    statusRow->setVerticalSpacing(1);
    m_status = new QLabel(tr("Open a graph to sample it"), box);
    m_status->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("color: palette(mid)"));
    m_progress = new QProgressBar(box);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(6);
    m_progress->setVisible(false);
    m_stop = new QToolButton(box);
    m_stop->setText(QStringLiteral("✕"));
    m_stop->setAutoRaise(true);
    m_stop->setToolTip(tr("Stop sampling and the sweep"));
    m_stop->setEnabled(false);
    statusRow->addWidget(m_status, 0, 0);
    statusRow->addWidget(m_progress, 1, 0);
    statusRow->addWidget(m_stop, 0, 1, 2, 1);
    return statusRow;
}

void TemperaturePanel::connectSamplingControls() {
    connect(m_slider, &TemperatureSlider::temperatureChanged, this, [this] {
        updateTemperatureLabel();
        resample();
    });
    // settingsChosen() means a person asked: a drag, a key or a click, not a restore or a range change
    connect(m_slider, &QAbstractSlider::actionTriggered, this, &TemperaturePanel::settingsChosen);
    connect(m_sampler, &QComboBox::currentIndexChanged, this, &TemperaturePanel::onSamplerChanged);
    connect(m_sampler, &QComboBox::activated, this, [this] {
        m_samplerChosenHere = true;
        Q_EMIT settingsChosen();
    });
    connect(m_samples, &QSpinBox::valueChanged, this, [this] {
        resample();
        Q_EMIT settingsChosen();
    });
    connect(m_seed, &QSpinBox::valueChanged, this, &TemperaturePanel::resample);
    connect(m_stop, &QToolButton::clicked, this, &TemperaturePanel::cancel);
    connect(m_keep, &QPushButton::clicked, this, [this] {
        if (m_jobs->current()) Q_EMIT keepRequested(m_jobs->current()->best);
    });
}

QWidget* TemperaturePanel::buildSweepBox() {
    auto* box = new QGroupBox(tr("Sweep"), this);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_sweepTemperatures = new QSpinBox(box);
    m_sweepTemperatures->setRange(1, 1000);
    m_sweepTemperatures->setValue(20);
    m_sweepTemperatures->setToolTip(tr("Temperatures, log-spaced between the two bounds"));
    m_sweepLo = new QDoubleSpinBox(box);
    m_sweepHi = new QDoubleSpinBox(box);
    for (auto* s : {m_sweepLo, m_sweepHi}) {
        s->setDecimals(4);
        s->setRange(0.0001, 100);
        s->setToolTip(tr("σ bounds of the sweep (unit-less)"));
    }
    m_sweepLo->setValue(0.001);
    m_sweepHi->setValue(1);
    auto* range = new QHBoxLayout;
    range->addWidget(m_sweepLo, 1);
    range->addWidget(new QLabel(QStringLiteral("–"), box));
    range->addWidget(m_sweepHi, 1);
    form->addRow(tr("Temperatures"), m_sweepTemperatures);
    form->addRow(tr("σ range"), range);
    m_sweepSamples = new QSpinBox(box);
    m_sweepSamples->setRange(1, 1000000);
    m_sweepSamples->setValue(1000);
    m_sweepSamples->setGroupSeparatorShown(true);
    m_sweepSamples->setToolTip(tr("Samples N drawn at each temperature"));
    m_sweepTopK = new QSpinBox(box);
    m_sweepTopK->setRange(1, 100000);
    m_sweepTopK->setValue(100);
    m_sweepTopK->setToolTip(tr("Candidates kept by proxy speedup: diversity and best-of-k are over these"));
    form->addRow(tr("Samples / σ"), m_sweepSamples);
    form->addRow(tr("Keep top k"), m_sweepTopK);
    m_sweepButton = new QPushButton(tr("Sweep temperatures"), box);
    m_sweepButton->setObjectName(QStringLiteral("sweepButton"));
    m_sweepButton->setToolTip(tr("Sample at every temperature and chart quality against diversity (Ctrl+T)"));
    form->addRow(m_sweepButton);
    connect(m_sweepButton, &QPushButton::clicked, this, &TemperaturePanel::sweepRequested);
    return box;
}

void TemperaturePanel::setProblemSource(std::function<std::shared_ptr<const Problem>()> source) {
    m_problemSource = std::move(source);
}

void TemperaturePanel::setTarget(const ScoringTarget& target) {
    if (target == m_target) return;
    m_target = target;
    if (m_jobs->current()) resample();
}

TargetModel TemperaturePanel::reportedTarget() const {
    const bool unjudged = m_target.model == TargetModel::Measured && !m_target.measured;   // no profile to judge on
    return unjudged ? TargetModel::Proxy : m_target.model;
}

void TemperaturePanel::reloadSamplers() {
    const QString keep = sampler();
    const bool hadGflowNet = m_sampler->findData(kGflowNet) >= 0;
    QSignalBlocker block(m_sampler);
    m_sampler->clear();
    for (const SamplerInfo& info : SamplerRegistry::instance().list()) {
        m_sampler->addItem(QString::fromStdString(info.name), QString::fromStdString(info.name));
        m_sampler->setItemData(m_sampler->count() - 1, QString::fromStdString(info.summary), Qt::ToolTipRole);
    }
    // The GFlowNet is what the panel is for: it takes over as the neural module arrives, unless
    // the user picked a sampler in this session.
    if (!m_pendingSampler.isEmpty() && setSampler(m_pendingSampler))
        m_pendingSampler.clear();
    else if (!hadGflowNet && !m_samplerChosenHere && setSampler(kGflowNet))
        m_pendingSampler.clear();
    else if (!keep.isEmpty())
        setSampler(keep);
    onSamplerChanged();
}

QString TemperaturePanel::sampler() const { return m_sampler->currentData().toString(); }

bool TemperaturePanel::setSampler(const QString& name) {
    const int i = m_sampler->findData(name);
    if (i >= 0) m_sampler->setCurrentIndex(i);
    return i >= 0;
}

void TemperaturePanel::onSamplerChanged() {
    const SamplerInfo* info = SamplerRegistry::instance().find(sampler().toStdString());
    const TemperatureRange r = info ? info->trainedTemperatureRange : TemperatureRange{};
    m_slider->setTrainedRange(r.min, r.max);
    m_sampler->setToolTip(info ? QString::fromStdString(info->summary) : tr("No sampler is registered"));
    updateTemperatureLabel();
    if (m_jobs->current()) resample();
}

double TemperaturePanel::temperature() const { return m_slider->temperature(); }

void TemperaturePanel::setTemperature(double t) {
    m_slider->setTemperature(t);
    Q_EMIT settingsChosen();
}

void TemperaturePanel::setSampleCount(int n) { m_samples->setValue(n); }

void TemperaturePanel::setSweepSettings(int temperatures, int samples, int topK) {
    m_sweepTemperatures->setValue(temperatures);
    m_sweepSamples->setValue(samples);
    m_sweepTopK->setValue(topK);
}

void TemperaturePanel::updateTemperatureLabel() {
    const double t = temperature();
    m_sigma->setText(tr("<b>σ = %1</b>").arg(sigmaText(t)));
    m_extrapolation->setVisible(m_slider->isExtrapolation(t));
}

void TemperaturePanel::resample() {
    if (!isVisible()) {   // a hidden panel costs nothing; it samples when it is shown
        m_resampleWhenShown = true;
        return;
    }
    m_status->setText(tr("Sampling…"));
    m_debounce.start();
}

void TemperaturePanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (std::exchange(m_resampleWhenShown, false)) resample();
}

void TemperaturePanel::setBusy(const QString& text) {
    m_status->setText(text);
    m_progress->setVisible(true);
    m_progress->setValue(0);
    m_stop->setEnabled(true);
    m_clock.start();
    m_poll.start();
}

void TemperaturePanel::resampleNow() {
    m_debounce.stop();
    if (!m_problemSource) return;
    std::shared_ptr<const Problem> problem;
    try {
        problem = m_problemSource();
    } catch (const std::exception& e) {
        m_status->setText(QString::fromUtf8(e.what()));
        return;
    }
    if (!problem || sampler().isEmpty()) return;
    SamplingJob job{.problem = problem,
                    .sampler = sampler().toStdString(),
                    .request = {.temperature = temperature(),
                                .count = m_samples->value(),
                                .seed = static_cast<std::uint64_t>(m_seed->value()),
                                .threads = samplingThreads()},
                    .target = m_target,
                    .id = m_nextId++};
    job.summary.topK = std::min(kSummaryTopK, job.request.count);
    job.summary.targets.clear();
    if (reportedTarget() != TargetModel::Proxy) job.summary.targets = {reportedTarget()};
    job.summary.targetSeed = m_target.seed;
    job.summary.measuredGraph = m_target.measured;
    m_drawingTemperature = job.request.temperature;
    m_drawn.reset();
    setBusy(tr("Sampling %1 schedules at σ = %2…")
                .arg(QLocale().toString(job.request.count), sigmaText(job.request.temperature)));
    m_jobs->sample(std::move(job));
}

void TemperaturePanel::onSamplingEnded(bool stopped, const QString& error) {
    idleUnlessBusy();
    if (stopped) return showStopped();
    m_status->setText(error);
    Q_EMIT failed(tr("Sampling failed"), error);
}

void TemperaturePanel::idleUnlessBusy() {
    if (m_jobs->isSampling() || m_jobs->isSweeping()) return;
    m_poll.stop();
    m_progress->setVisible(false);
    m_stop->setEnabled(false);
}

void TemperaturePanel::showDrawn(const std::vector<double>& speedups) {
    m_drawn = summarizeSpeedups(m_drawingTemperature, speedups, kSummaryTopK);
    m_histogram->setValues(speedups, m_drawn->proxyMean, m_drawn->proxyTop1);
    m_stats->setText(statsTable(speedupRows(*m_drawn) + unmadeRows(*m_drawn, tr("pending"), reportedTarget())));
    m_keep->setEnabled(false);   // the best kept so far is another σ's
    m_status->setText(tr("Sampling at σ = %1… %2 of %3 drawn, best so far %4")
                          .arg(sigmaText(m_drawingTemperature), formatCount(m_drawn->samples),
                               formatCount(m_samples->value()), times(m_drawn->proxyTop1)));
}

void TemperaturePanel::showStopped() {
    m_status->setText(tr("Stopped"));
    if (m_drawn)
        m_stats->setText(statsTable(speedupRows(*m_drawn) + unmadeRows(*m_drawn, tr("stopped"), reportedTarget())));
}

void TemperaturePanel::showSample(const TemperatureSample& s) {
    idleUnlessBusy();
    const SweepPoint& p = s.summary;
    const TimeUnit unit = s.best.problem ? s.best.problem->g().timeUnit() : TimeUnit::Abstract;
    m_drawn.reset();   // the final numbers replace the ones of the samples drawn so far
    m_stats->setText(statsTable(speedupRows(p) + scheduleRows(p, unit)));
    m_stats->setToolTip(
        tr("U = proxy speedup, total work / makespan on the proxy (free transfers); GED in %% of chain edges; "
           "distinct = different device chains among the N samples"));
    m_histogram->setValues(s.speedups, p.proxyMean, p.proxyTop1);
    m_status->setText(
        tr("%1 samples at σ = %2 in %3; best makespan %4")
            .arg(formatCount(p.samples), sigmaText(s.temperature), formatDuration(s.seconds, TimeUnit::Seconds))
            .arg(formatDuration(p.bestMakespan, unit)));
    m_keep->setEnabled(true);
    Q_EMIT sampled(s.best);
}

bool TemperaturePanel::startSweep() {
    if (m_jobs->isSweeping()) return true;
    std::shared_ptr<const Problem> problem;
    try {
        if (!m_problemSource || !(problem = m_problemSource())) throw std::runtime_error("Open a graph first.");
        if (sampler().isEmpty()) throw std::runtime_error("No temperature sampler is registered.");
    } catch (const std::exception& e) {
        Q_EMIT failed(tr("Cannot sweep"), QString::fromUtf8(e.what()));
        return false;
    }
    SweepOptions o;
    try {
        o.temperatures = logSpacedTemperatures(m_sweepTemperatures->value(), m_sweepLo->value(), m_sweepHi->value());
    } catch (const std::exception& e) {
        Q_EMIT failed(tr("Cannot sweep"), QString::fromUtf8(e.what()));
        return false;
    }
    o.samples = m_sweepSamples->value();
    o.topK = m_sweepTopK->value();
    o.seed = static_cast<std::uint64_t>(m_seed->value());
    o.targetSeed = m_target.seed;
    if (reportedTarget() == TargetModel::Measured) {   // beside the paper's three targets
        o.targets.push_back(TargetModel::Measured);
        o.measuredGraph = m_target.measured;
    }
    o.threads = samplingThreads();
    m_sweepButton->setEnabled(false);
    setBusy(tr("Sweeping %1 temperatures × %2 samples…").arg(o.temperatures.size()).arg(QLocale().toString(o.samples)));
    m_jobs->sweep(problem, sampler().toStdString(), std::move(o));
    return true;
}

void TemperaturePanel::onSwept(std::shared_ptr<const Sweep> sweep, const QString& error) {
    m_sweepButton->setEnabled(true);
    idleUnlessBusy();
    if (!sweep) {
        m_status->setText(error);
        Q_EMIT failed(tr("Sweep failed"), error);
        return;
    }
    m_status->setText(tr("Sweep: %1 temperatures in %2 s%3")
                          .arg(sweep->points.size())
                          .arg(m_clock.elapsed() / 1000.0, 0, 'f', 1)
                          .arg(sweep->cancelled ? tr(" (stopped)") : QString()));
    if (!sweep->points.empty()) Q_EMIT sweepFinished(sweep);
}

void TemperaturePanel::sampleOnOpen(int ops) {
    cancel();
    m_jobs->forget();   // the last graph's numbers are not this one's
    m_drawn.reset();
    m_histogram->setValues({}, 0, 0);
    m_stats->clear();
    m_keep->setEnabled(false);
    if (static_cast<double>(ops) * m_samples->value() <= kAutoSampleWork)
        return resample();   // a hidden panel waits until it is shown
    m_status->setText(tr("%1 ops: move σ to sample this graph (%2 samples of a graph this size take a while)")
                          .arg(formatCount(ops), formatCount(m_samples->value())));
}

void TemperaturePanel::cancel() {
    m_debounce.stop();
    m_jobs->cancel();
}

void TemperaturePanel::pollProgress() {
    if (auto drawn = m_jobs->takeDrawn()) showDrawn(*drawn);
    if (auto rows = m_jobs->takeSweptSoFar()) Q_EMIT sweepUpdated(rows);
    if (!m_jobs->isSampling() && !m_jobs->isSweeping()) return;
    const double f = m_jobs->fraction();   // the sweep's progress wins the bar while it goes: it is the long one
    m_progress->setValue(static_cast<int>(std::clamp(f, 0.0, 1.0) * 1000));
    if (m_jobs->isSweeping() && f > 0.01) {
        const double elapsed = m_clock.elapsed() / 1000.0;
        m_status->setText(
            tr("Sweeping… %1 %, %2 s left").arg(static_cast<int>(f * 100)).arg(elapsed * (1 - f) / f, 0, 'f', 1));
    }
}

void TemperaturePanel::saveSettings() const {
    QSettings s;
    s.beginGroup(QStringLiteral("temperature"));
    s.setValue(QStringLiteral("sampler"), sampler());
    s.setValue(QStringLiteral("sigma"), temperature());
    s.setValue(QStringLiteral("samples"), m_samples->value());
    s.setValue(QStringLiteral("seed"), m_seed->value());
    s.setValue(QStringLiteral("sweepTemperatures"), m_sweepTemperatures->value());
    s.setValue(QStringLiteral("sweepLo"), m_sweepLo->value());
    s.setValue(QStringLiteral("sweepHi"), m_sweepHi->value());
    s.setValue(QStringLiteral("sweepSamples"), m_sweepSamples->value());
    s.setValue(QStringLiteral("sweepTopK"), m_sweepTopK->value());
}

void TemperaturePanel::restoreSettings() {
    QSettings s;
    s.beginGroup(QStringLiteral("temperature"));
    // A remembered gflownet waits for the module; reloadSamplers() picks gflownet once it loads.
    const QString remembered = s.value(QStringLiteral("sampler")).toString();
    if (!setSampler(remembered)) m_pendingSampler = remembered;   // gflownet, registered once the module loads
    m_slider->setTemperature(s.value(QStringLiteral("sigma"), 0.005).toDouble());
    m_samples->setValue(s.value(QStringLiteral("samples"), 1000).toInt());
    m_seed->setValue(s.value(QStringLiteral("seed"), 1).toInt());
    m_sweepTemperatures->setValue(s.value(QStringLiteral("sweepTemperatures"), 20).toInt());
    m_sweepLo->setValue(s.value(QStringLiteral("sweepLo"), 0.001).toDouble());
    m_sweepHi->setValue(s.value(QStringLiteral("sweepHi"), 1.0).toDouble());
    m_sweepSamples->setValue(s.value(QStringLiteral("sweepSamples"), 1000).toInt());
    m_sweepTopK->setValue(s.value(QStringLiteral("sweepTopK"), 100).toInt());
    m_debounce.stop();   // restoring is not a request
}

void TemperaturePanel::observe(const Document* doc) {
    setProblemSource([doc]() -> std::shared_ptr<const Problem> {
        if (!doc->graph()) throw std::runtime_error(tr("Open a graph to sample it").toStdString());
        return doc->problem();
    });
    connect(doc, &Document::graphChanged, this, [this, doc] { sampleOnOpen(doc->graph()->graph->opCount()); });
    connect(doc, &Document::timesChanged, this, [this, doc](bool newGraph) {   // the samples were of the earlier times
        setTarget(doc->scoringTarget());   // a profile applied or cleared changes the measured target
        if (newGraph) sampleOnOpen(doc->graph()->graph->opCount());
    });
    connect(doc, &Document::machineChanged, this, [this, doc] { setTarget(doc->scoringTarget()); });
}

}   // namespace sl::gui
