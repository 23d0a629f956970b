// SPDX-License-Identifier: MIT
#include "widgets/panels/sweepview.h"

#include "core/optimizer/sampler.h"

#include "widgets/session/sweepmodel.h"
#include "widgets/views/palette.h"

#include <QAction>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>

#include <QScatterSeries>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include <cmath>

namespace sl::gui {

SweepView::SweepView(QWidget* parent) : QWidget(parent) {
    m_title = new QLabel(tr("No sweep yet: Run ▸ Sweep temperatures (Ctrl+T) samples the open graph at every σ, "
                            "or File ▸ Open Sweep reopens a saved one."),
                         this);
    m_title->setWordWrap(true);
    m_title->setContentsMargins(8, 6, 8, 2);
    m_quality = new QChart;
    m_targets = new QChart;
    m_diversity = new QChart;
    m_quality->setTitle(tr("Proxy speedup of the N samples"));
    m_targets->setTitle(tr("Best of the top k on each target model"));
    m_diversity->setTitle(tr("Diversity"));
    for (QChart* c : {m_quality, m_targets, m_diversity}) {
        c->legend()->setAlignment(Qt::AlignBottom);
        c->setMargins(QMargins(2, 2, 2, 2));
        addSigmaAxis(c);
    }
    m_qy = new QValueAxis;
    m_qy->setTitleText(tr("U (×)"));
    m_qy->setLabelFormat(QStringLiteral("%.3f"));
    m_ty = new QValueAxis;
    m_ty->setTitleText(tr("speedup (×)"));
    m_ty->setLabelFormat(QStringLiteral("%.2f"));
    m_gedAxis = new QValueAxis;
    m_gedAxis->setTitleText(tr("GED (%)"));
    m_gedAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_distinctAxis = new QValueAxis;
    m_distinctAxis->setTitleText(tr("distinct"));
    m_distinctAxis->setLabelFormat(QStringLiteral("%d"));
    m_quality->addAxis(m_qy, Qt::AlignLeft);
    m_targets->addAxis(m_ty, Qt::AlignLeft);
    m_diversity->addAxis(m_gedAxis, Qt::AlignLeft);
    m_diversity->addAxis(m_distinctAxis, Qt::AlignRight);
    m_qualityMarker = addMarker(m_quality, m_qy);
    m_targetMarker = addMarker(m_targets, m_ty);
    m_diversityMarker = addMarker(m_diversity, m_gedAxis);
    m_qualityView = makeChart(m_quality, QStringLiteral("sweepQualityChart"));
    m_targetView = makeChart(m_targets, QStringLiteral("sweepTargetChart"));
    m_diversityView = makeChart(m_diversity, QStringLiteral("sweepDiversityChart"));

    m_model = new SweepModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("sweepTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto addAction = [this](const QString& text, auto fn) {
        auto* a = new QAction(text, m_table);
        connect(a, &QAction::triggered, this, fn);
        m_table->addAction(a);
    };
    addAction(tr("Show best schedule in the Gantt chart"), [this] {
        if (m_selected >= 0) Q_EMIT pointActivated(m_selected);
    });
    addAction(tr("Add best schedule to results"), [this] {
        if (m_selected >= 0) Q_EMIT keepRequested(m_selected);
    });
    addAction(tr("Export best schedule…"), [this] {
        if (m_selected >= 0) Q_EMIT exportRequested(m_selected);
    });
    addAction(tr("Export sweep as CSV…"), [this] { Q_EMIT exportCsvRequested(); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        if (rows.isEmpty() || rows.first().row() == m_selected) return;
        m_selected = rows.first().row();
        updateMarkers();
        Q_EMIT pointSelected(m_selected);
    });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& i) { Q_EMIT pointActivated(i.row()); });

    auto* charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(m_qualityView);
    charts->addWidget(m_targetView);
    charts->addWidget(m_diversityView);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(charts);
    split->addWidget(m_table);
    split->setSizes({560, 440});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_title);
    layout->addWidget(split, 1);
}

QLogValueAxis* SweepView::addSigmaAxis(QChart* chart) {
    auto* x = new QLogValueAxis;
    x->setBase(10);
    x->setLabelFormat(QStringLiteral("%g"));
    x->setTitleText(tr("σ (log scale)"));
    x->setMinorTickCount(8);
    x->setRange(1e-3, 1);
    chart->addAxis(x, Qt::AlignBottom);
    m_sigmaAxes.append(x);
    return x;
}

QScatterSeries* SweepView::addMarker(QChart* chart, QAbstractAxis* y) {
    // the selected temperature, ringed on every chart
    auto* m = new QScatterSeries;
    m->setMarkerSize(14);
    m->setColor(Qt::transparent);
    m->setBorderColor(palette::accent());
    m->setPen(QPen(palette::accent(), 2.5));
    chart->addSeries(m);
    m->attachAxis(chart->axes(Qt::Horizontal).first());
    m->attachAxis(y);
    chart->legend()->markers(m).first()->setVisible(false);
    return m;
}

QChartView* SweepView::makeChart(QChart* chart, const QString& name) {
    auto* v = new QChartView(chart, this);
    v->setObjectName(name);
    v->setRenderHint(QPainter::Antialiasing);
    v->setMinimumHeight(150);
    return v;
}

QLineSeries* SweepView::addLine(QChart* chart, const QString& name, const QColor& c, Qt::PenStyle style,
                                QValueAxis* y) {
    auto* s = new QLineSeries;
    s->setName(name);
    s->setPen(QPen(c, 2, style));
    s->setPointsVisible(true);
    s->setMarkerSize(5);
    chart->addSeries(s);
    s->attachAxis(chart->axes(Qt::Horizontal).first());
    s->attachAxis(y);
    // a click anywhere on a line picks the nearest temperature
    connect(s, &QLineSeries::clicked, this, [this](const QPointF& p) { selectPoint(nearestPoint(p.x())); });
    m_lines.append(s);
    return s;
}

QList<QLineSeries*> SweepView::dataSeries() const { return m_lines; }

int SweepView::nearestPoint(double sigma) const {
    if (!m_sweep || m_sweep->points.empty() || !(sigma > 0)) return -1;
    int best = 0;
    for (size_t i = 1; i < m_sweep->points.size(); ++i)
        if (std::abs(std::log(m_sweep->points[i].temperature / sigma)) <
            std::abs(std::log(m_sweep->points[static_cast<size_t>(best)].temperature / sigma)))
            best = static_cast<int>(i);
    return best;
}

void SweepView::setSweep(std::shared_ptr<const Sweep> s) {
    m_sweep = std::move(s);
    m_selected = -1;
    m_model->setSweep(m_sweep);
    if (m_sweep) {
        m_title->setText(
            tr("<b>%1</b> on %2, %3 devices: %4 temperatures × %5 samples, top %6 kept%7. "
               "U = proxy speedup (total work / makespan). Click a point or a row to see its best schedule.")
                .arg(QString::fromStdString(m_sweep->sampler),
                     m_sweep->graphName.empty() ? tr("%1 ops").arg(m_sweep->ops)
                                                : QString::fromStdString(m_sweep->graphName).toHtmlEscaped())
                .arg(m_sweep->devices)
                .arg(m_sweep->points.size())
                .arg(QLocale().toString(m_sweep->options.samples))
                .arg(m_sweep->options.topK)
                .arg(m_sweep->cancelled ? tr(" — <i>stopped early</i>") : QString()));
    }
    rebuildSeries();
    updateMarkers();
}

void SweepView::rebuildSeries() {
    for (QLineSeries* s : m_lines) {
        s->chart()->removeSeries(s);
        delete s;
    }
    m_lines.clear();
    // the ± std band and the extrapolation shades: every area series of the three charts
    for (QChart* chart : {m_quality, m_diversity, m_targets})
        for (QAbstractSeries* s : chart->series())
            if (auto* area = qobject_cast<QAreaSeries*>(s)) {
                chart->removeSeries(area);
                delete area;
            }
    m_shades.clear();
    if (!m_sweep || m_sweep->points.empty()) return;
    const auto& pts = m_sweep->points;
    // the ± std band under the mean
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    for (const SweepPoint& p : pts) {
        upper->append(p.temperature, p.proxyMean + p.proxyStd);
        lower->append(p.temperature, std::max(0.0, p.proxyMean - p.proxyStd));
    }
    auto* band = new QAreaSeries(upper, lower);
    upper->setParent(band);   // the area series does not own its boundaries
    lower->setParent(band);
    band->setName(tr("mean ± std"));
    QColor fill = palette::category(0);
    fill.setAlpha(45);
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
    m_quality->addSeries(band);
    band->attachAxis(m_sigmaAxes.first());
    band->attachAxis(m_qy);
    QLineSeries* mean = addLine(m_quality, tr("mean U"), palette::category(0), Qt::SolidLine, m_qy);
    QLineSeries* top1 = addLine(m_quality, tr("top-1 U"), palette::category(3), Qt::SolidLine, m_qy);
    QLineSeries* topk = addLine(m_quality, tr("top-k mean U"), palette::category(1), Qt::DotLine, m_qy);
    std::vector<QLineSeries*> targets;
    for (size_t t = 0; t < m_sweep->options.targets.size(); ++t)
        targets.push_back(addLine(m_targets, QString::fromStdString(toString(m_sweep->options.targets[t])),
                                  palette::category(static_cast<int>(4 + t)), Qt::SolidLine, m_ty));
    QLineSeries* ged = addLine(m_diversity, tr("GED (%)"), palette::category(2), Qt::SolidLine, m_gedAxis);
    QLineSeries* distinct = addLine(m_diversity, tr("distinct"), palette::category(5), Qt::SolidLine, m_distinctAxis);
    QLineSeries* relabelled =
        addLine(m_diversity, tr("distinct up to relabelling"), palette::category(7), Qt::DashLine, m_distinctAxis);
    double lo = INFINITY, hi = 0, tLo = INFINITY, tHi = 0, gedMax = 1, distinctMax = 1;
    for (const SweepPoint& p : pts) {
        mean->append(p.temperature, p.proxyMean);
        top1->append(p.temperature, p.proxyTop1);
        topk->append(p.temperature, p.proxyTopKMean);
        lo = std::min({lo, p.proxyMean - p.proxyStd, p.proxyMean});
        hi = std::max({hi, p.proxyTop1, p.proxyMean + p.proxyStd});
        for (size_t t = 0; t < targets.size(); ++t) {
            targets[t]->append(p.temperature, p.targets[t].bestOfK);
            tLo = std::min(tLo, p.targets[t].bestOfK);
            tHi = std::max(tHi, p.targets[t].bestOfK);
        }
        ged->append(p.temperature, p.topK.ged);
        distinct->append(p.temperature, p.distinct.exact);
        relabelled->append(p.temperature, p.distinct.upToRelabelling);
        gedMax = std::max(gedMax, p.topK.ged);
        distinctMax = std::max<double>(distinctMax, p.distinct.exact);
    }
    double sLo = INFINITY, sHi = 0;
    for (const SweepPoint& p : pts) {
        sLo = std::min(sLo, p.temperature);
        sHi = std::max(sHi, p.temperature);
    }
    for (QLogValueAxis* x : m_sigmaAxes)
        x->setRange(std::pow(10.0, std::floor(std::log10(sLo) + 1e-9)),
                    std::pow(10.0, std::ceil(std::log10(sHi) - 1e-9)));
    const double pad = std::max(0.005, (hi - lo) * 0.08);
    m_qy->setRange(std::max(0.0, lo - pad), hi + pad);
    m_qy->applyNiceNumbers();   // round tick values: 3.45, 3.50, ... not 3.339, 3.430
    if (!targets.empty()) {
        const double tPad = std::max(0.005, (tHi - tLo) * 0.1);
        m_ty->setRange(std::max(0.0, tLo - tPad), tHi + tPad);
        m_ty->applyNiceNumbers();
    }
    m_gedAxis->setRange(0, std::min(100.0, gedMax * 1.15));
    m_gedAxis->applyNiceNumbers();
    m_distinctAxis->setRange(0, distinctMax * 1.1);
    m_distinctAxis->applyNiceNumbers();
    shadeExtrapolation();
}

void SweepView::shadeExtrapolation() {
    const SamplerInfo* info = SamplerRegistry::instance().find(m_sweep->sampler);
    if (!info) return;
    const TemperatureRange trained = info->trainedTemperatureRange;
    const double lo = m_sigmaAxes.first()->min(), hi = m_sigmaAxes.first()->max();
    for (auto [chart, y] :
         {std::pair{m_quality, m_qy}, std::pair{m_targets, m_ty}, std::pair{m_diversity, m_gedAxis}}) {
        if (trained.min > lo) addShade(chart, y, lo, std::min(trained.min, hi));
        if (trained.max < hi) addShade(chart, y, std::max(trained.max, lo), hi);
    }
}

void SweepView::addShade(QChart* chart, QValueAxis* y, double from, double to) {
    auto* top = new QLineSeries;
    top->append(from, y->max());
    top->append(to, y->max());
    auto* shade = new QAreaSeries(top);
    top->setParent(shade);
    shade->setName(tr("extrapolation"));
    shade->setBrush(QColor(179, 92, 0, 28));   // the slider's extrapolation colour, faint
    shade->setPen(Qt::NoPen);
    chart->addSeries(shade);
    shade->attachAxis(chart->axes(Qt::Horizontal).first());
    shade->attachAxis(y);
    const bool chartHasOne =
        std::any_of(m_shades.begin(), m_shades.end(), [chart](QAreaSeries* a) { return a->chart() == chart; });
    for (auto* marker : chart->legend()->markers(shade))
        marker->setVisible(!chartHasOne);   // one legend entry per chart
    m_shades.append(shade);
}

void SweepView::updateMarkers() {
    m_qualityMarker->clear();
    m_diversityMarker->clear();
    m_targetMarker->clear();
    if (!m_sweep || m_selected < 0 || m_selected >= static_cast<int>(m_sweep->points.size())) return;
    const SweepPoint& p = m_sweep->points[static_cast<size_t>(m_selected)];
    m_qualityMarker->append(p.temperature, p.proxyTop1);
    m_diversityMarker->append(p.temperature, p.topK.ged);
    if (!p.targets.empty()) m_targetMarker->append(p.temperature, p.targets.front().bestOfK);
}

void SweepView::selectPoint(int index) {
    if (!m_sweep || index < 0 || index >= m_model->rowCount()) return;
    m_table->selectRow(index);   // selectionChanged emits pointSelected
    m_table->scrollTo(m_model->index(index, 0));
}

}   // namespace sl::gui
