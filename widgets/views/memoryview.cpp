// SPDX-License-Identifier: MIT
#include "widgets/views/memoryview.h"

#include "core/costmodel/stepmemory.h"
#include "widgets/session/document.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/units.h"
#include "widgets/views/chartutil.h"
#include "widgets/views/opselection.h"
#include "widgets/views/palette.h"
#include "widgets/views/timechartview.h"

#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QScatterSeries>
#include <QSplitter>
#include <QVBoxLayout>
#include <QValueAxis>

namespace sl::gui {

MemoryView::MemoryView(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart;
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(6, 6, 6, 6));
    m_chartView = new TimeChartView(m_chart, this);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(4, 4, 4, 4);
    m_liveTitle = new QLabel(tr("Live at the peak"), side);
    m_liveTitle->setWordWrap(true);
    m_live = new QListWidget(side);
    m_live->setObjectName(QStringLiteral("liveAtPeak"));
    m_live->setAlternatingRowColors(true);
    sideLayout->addWidget(m_liveTitle);
    sideLayout->addWidget(m_live, 1);
    auto* split = new QSplitter(this);
    split->addWidget(m_chartView);
    split->addWidget(side);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    side->setMinimumWidth(220);
    side->setMaximumWidth(420);
    split->setSizes({1000, 320});
    m_clock = new QComboBox(this);
    m_clock->addItem(tr("Time clock: memory per device over time"));
    m_clock->addItem(tr("Step clock: the order run on one device (papers' peak)"));
    m_clock->setToolTip(
        tr("The step clock counts one step per op of the schedule's order, as the memory-ordering papers do"));
    m_readout = new QLabel(this);
    m_readout->setObjectName(QStringLiteral("memoryReadout"));
    m_readout->setTextFormat(Qt::PlainText);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 4, 4, 0);
    top->addWidget(m_clock);
    top->addSpacing(12);
    top->addWidget(m_readout, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    connect(m_clock, &QComboBox::currentIndexChanged, this, &MemoryView::rebuild);
    connect(m_chartView, &TimeChartView::visibleRangeChanged, this, &MemoryView::showWindow);
    connect(m_chartView, &TimeChartView::hoveredTime, this, &MemoryView::showReadout);
    connect(m_live, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0 || !m_selection) return;
        m_selection->setCurrent(m_live->item(row)->data(Qt::UserRole).toInt());
    });
    rebuild();
}

QWidget* MemoryView::canvas() const { return m_chartView; }

void MemoryView::setSelection(OpSelection* s) {
    if (m_selection) disconnect(m_selection, nullptr, this, nullptr);
    m_selection = s;
    if (s) connect(s, &OpSelection::currentChanged, this, &MemoryView::markSelected);
}

void MemoryView::setRecord(const std::optional<RunRecord>& r) {
    m_record = r;
    rebuild();
}

int MemoryView::seriesCount() const { return static_cast<int>(m_chart->series().size()); }

int MemoryView::liveAtPeakCount() const { return m_live->count(); }

void MemoryView::setStepClock(bool on) { m_clock->setCurrentIndex(on ? 1 : 0); }

QString MemoryView::readout() const { return m_readout->text(); }

void MemoryView::resetChart() {
    m_chartView->clearTimeAxis();
    m_readout->clear();
    m_chart->removeAllSeries();
    for (auto* a : m_chart->axes()) {
        m_chart->removeAxis(a);
        delete a;
    }
    m_marker = nullptr;
    m_stepPreview = nullptr;
    m_stepDrag.reset();
    m_live->clear();
}

void MemoryView::rebuild() {
    resetChart();
    if (m_record && m_record->memory && m_clock->currentIndex() == 1) {
        rebuildSteps();
        return;
    }
    if (!m_record || !m_record->memory) {
        m_chart->setTitle(tr("Memory over time: run an optimizer or select a result"));
        m_liveTitle->setText(tr("Live at the peak"));
        return;
    }
    const MemoryTimeline& tl = *m_record->memory;
    const Schedule& s = m_record->schedule();
    const Platform& platform = m_record->problem->platform;
    double capacity = 0;
    for (const auto& d : platform.devices)
        if (std::isfinite(d.memoryCapacity)) capacity = std::max(capacity, d.memoryCapacity);
    // a catalogue device's 80 GiB beside a 10 MiB peak would flatten every curve: the line goes, the title says it
    const bool capacityShown = capacity > 0 && capacity <= 4 * tl.peak;
    const double top = capacityShown ? std::max(tl.peak, capacity) : tl.peak;
    const auto [divisor, unit] = byteUnit(top);
    m_divisor = divisor;
    m_chart->setTitle(
        tr("Memory over time — peak %1 on %2")
            .arg(formatBytes(tl.peak),
                 QString::fromStdString(platform.devices[static_cast<size_t>(tl.peakDevice)].name)) +
        (capacity > 0 && !capacityShown ? tr(" (capacity %1, far above)").arg(formatBytes(capacity)) : QString()));
    auto* x = new QCategoryAxis;
    x->setTitleText(tr("time"));
    auto* y = new QValueAxis;
    y->setTitleText(tr("memory (%1)").arg(unit));
    m_yMax = top / divisor * 1.1;
    if (!(m_yMax > 0)) m_yMax = 1;
    y->setRange(0, m_yMax);
    y->applyNiceNumbers();   // x stays [0, makespan]: the schedule fills the width
    setPlainLabels(y);
    m_yMax = y->max();
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    m_chartView->setTimeAxis(x, 0, std::max(1e-9, s.makespan), m_record->problem->g().timeUnit());
    // the busiest devices get their own series, the rest would only add noise
    for (size_t d = 0; d < tl.curves.size() && d < 12; ++d) {
        auto* series = new QLineSeries;
        series->setName(QString::fromStdString(platform.devices[d].name));
        series->replace(stepPoints(tl.curves[d], s.makespan, divisor));
        series->setPen(QPen(palette::category(static_cast<int>(d)), 1.8));
        m_chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    if (capacityShown) {
        auto* cap = new QLineSeries;
        cap->setName(tr("capacity"));
        cap->append(0, capacity / divisor);
        cap->append(s.makespan, capacity / divisor);
        cap->setPen(QPen(QColor(0x55, 0x55, 0x55), 1.2, Qt::DashLine));
        m_chart->addSeries(cap);
        cap->attachAxis(x);
        cap->attachAxis(y);
    }
    if (m_record->memoryBound > 0) {   // no schedule of this problem peaks below it (core/optimizer/resultbound.h)
        auto* bound = new QLineSeries;
        bound->setName(tr("lower bound: %1")
                           .arg(m_record->memoryBoundSource.section(
                               QLatin1Char(':'), 0, 0)));   // "cut bound", "proven optimum", "search bound"
        bound->append(0, m_record->memoryBound / divisor);
        bound->append(s.makespan, m_record->memoryBound / divisor);
        bound->setPen(QPen(palette::category(2), 1.5, Qt::DashLine));
        m_chart->addSeries(bound);
        bound->attachAxis(x);
        bound->attachAxis(y);
    }
    auto* peak = new QScatterSeries;
    peak->setName(tr("peak"));
    peak->setMarkerSize(11);
    peak->setColor(palette::accent());
    peak->setBorderColor(Qt::white);
    const double peakTime = tl.peakTimes.empty() ? 0 : tl.peakTimes[static_cast<size_t>(tl.peakDevice)];
    peak->append(peakTime, tl.peak / divisor);
    m_chart->addSeries(peak);
    peak->attachAxis(x);
    peak->attachAxis(y);
    m_marker = new QLineSeries;
    m_marker->setName(tr("selected op"));
    m_marker->setPen(QPen(palette::accent(), 1, Qt::DashLine));
    m_chart->addSeries(m_marker);
    m_marker->attachAxis(x);
    m_marker->attachAxis(y);

    const auto live = liveAt(*m_record->problem, s, tl.peakDevice, peakTime);
    const Graph& g = m_record->problem->g();
    const TimeUnit unitOfTime = g.timeUnit();
    m_liveTitle->setText(tr("Live at the peak (t = %1, %2): %n block(s)", nullptr, static_cast<int>(live.size()))
                             .arg(formatDuration(peakTime, unitOfTime),
                                  QString::fromStdString(platform.devices[static_cast<size_t>(tl.peakDevice)].name)));
    const size_t shown = std::min<size_t>(live.size(), 200);
    for (size_t i = 0; i < shown; ++i) {
        const Residency& r = live[i];
        const QString what = r.tensor >= 0 ? QString::fromStdString(g.tensor(r.tensor).name)
                                           : tr("params of %1").arg(QString::fromStdString(g.op(r.op).name));
        auto* item = new QListWidgetItem(QStringLiteral("%1  —  %2").arg(formatBytes(r.bytes), what), m_live);
        item->setData(Qt::UserRole, r.op);
        const TimeScale scale = timeScaleFor(r.to, unitOfTime);
        item->setToolTip(tr("resident from %1 to %2").arg(formatScaled(r.from, scale), formatScaled(r.to, scale)));
    }
    if (live.size() > shown) m_live->addItem(tr("… and %1 more").arg(live.size() - shown));
    if (m_selection) markSelected(m_selection->current());
}

void MemoryView::rebuildSteps() {
    const Graph& g = m_record->problem->g();
    const auto& order = m_record->schedule().order;
    StepMemory steps(g, 1);
    steps.reset();
    std::vector<MemoryPoint> curve;
    curve.reserve(order.size());
    double peak = 0;
    size_t peakStep = 0;
    for (size_t i = 0; i < order.size(); ++i) {
        const double m = steps.step(order[i]);
        curve.push_back({static_cast<double>(i), m});
        if (m > peak) {
            peak = m;
            peakStep = i;
        }
    }
    const auto [divisor, unit] = byteUnit(peak);
    m_divisor = divisor;
    m_chart->setTitle(tr("Step clock — peak %1 at step %2 (%3)")
                          .arg(formatBytes(peak), formatCount(static_cast<long long>(peakStep)))
                          .arg(order.empty() ? QString() : QString::fromStdString(g.op(order[peakStep]).name)));
    auto* x = new QValueAxis;
    x->setTitleText(tr("step (position in the order)"));
    x->setRange(0, std::max<double>(1, static_cast<double>(order.size())));
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto* y = new QValueAxis;
    y->setTitleText(tr("memory (%1)").arg(unit));
    y->setRange(0, peak > 0 ? peak / divisor * 1.1 : 1.0);   // a graph without tensor bytes: a plain 0-1 axis
    x->applyNiceNumbers();
    y->applyNiceNumbers();
    setPlainLabels(y);
    m_yMax = y->max();
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    auto* series = new QLineSeries;
    series->setName(tr("memory in use"));
    series->replace(stepPoints(curve, static_cast<double>(order.size()), divisor));
    series->setPen(QPen(palette::category(0), 1.8));
    m_chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    auto* mark = new QScatterSeries;
    mark->setName(tr("peak"));
    mark->setMarkerSize(11);
    mark->setColor(palette::accent());
    mark->setBorderColor(Qt::white);
    mark->append(static_cast<double>(peakStep), peak / divisor);
    m_chart->addSeries(mark);
    mark->attachAxis(x);
    mark->attachAxis(y);
    if (stepDragAllowed()) {   // the curve after a dragged move, drawn while it is dragged
        m_stepPreview = new QLineSeries;
        m_stepPreview->setName(tr("after the move"));
        m_stepPreview->setPen(QPen(palette::accent(), 1.6, Qt::DashLine));
        m_chart->addSeries(m_stepPreview);
        m_stepPreview->attachAxis(x);
        m_stepPreview->attachAxis(y);
    }
    m_liveTitle->setText(
        tr("The step clock ignores devices and times: it is the memory of running the whole order on one "
           "device, one op per step. Switch to the time clock for live tensors.") +
        (stepDragAllowed() ? tr("\n\nDrag along the curve to move an op to another step.") : QString()));
}

void MemoryView::showWindow(double t0, double t1) {
    // re-sample the curves for the window, so zooming in shows detail the overview merged
    if (!m_record || !m_record->memory) return;
    const MemoryTimeline& tl = *m_record->memory;
    const double end = m_record->schedule().makespan;
    const auto series = m_chart->series();
    for (size_t d = 0; d < tl.curves.size() && d < 12 && d < static_cast<size_t>(series.size()); ++d)
        static_cast<QLineSeries*>(series[static_cast<qsizetype>(d)])
            ->replace(stepPoints(tl.curves[d], t0, t1, end, m_divisor));
}

void MemoryView::showReadout(double t) {
    if (!m_record || !m_record->memory || std::isnan(t) || t < 0 || t > m_record->schedule().makespan) {
        m_readout->clear();
        return;
    }
    const MemoryTimeline& tl = *m_record->memory;
    const auto& devices = m_record->problem->platform.devices;
    QStringList parts{tr("t = %1").arg(formatDuration(t, m_record->problem->g().timeUnit()))};
    for (size_t d = 0; d < tl.curves.size() && d < 12; ++d)
        parts << QStringLiteral("%1 %2").arg(QString::fromStdString(devices[d].name),
                                             formatBytes(bytesAt(tl.curves[d], t)));
    m_readout->setText(parts.join(QStringLiteral("  ·  ")));
}

void MemoryView::markSelected(OpId v) {
    if (!m_marker || !m_record) return;
    QList<QPointF> pts;
    if (v >= 0 && static_cast<size_t>(v) < m_record->schedule().ops.size()) {
        const double t = m_record->schedule().ops[static_cast<size_t>(v)].start;
        pts = {QPointF(t, 0), QPointF(t, m_yMax)};
    }
    m_marker->replace(pts);
}

void MemoryView::observe(const Document* doc) {
    connect(doc, &Document::shownChanged, this, [this, doc] { setRecord(doc->shown()); });
}

}   // namespace sl::gui
