// SPDX-License-Identifier: MIT
#include "widgets/convergenceview.h"

#include "widgets/palette.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace sl::gui {

ConvergenceView::ConvergenceView(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart;
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(6, 6, 6, 6));
    m_best = new QLineSeries;
    m_best->setName(tr("best cost"));
    m_best->setPen(QPen(palette::category(0), 2));
    m_mean = new QLineSeries;
    m_mean->setName(tr("mean cost of the population"));
    m_mean->setPen(QPen(palette::category(1), 1.2));
    m_chart->addSeries(m_mean);
    m_chart->addSeries(m_best);
    m_x = new QValueAxis;
    m_x->setTitleText(tr("evaluations"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_y = new QValueAxis;
    m_y->setTitleText(tr("cost"));
    m_y->setLabelFormat(QStringLiteral("%.6g"));   // values stay under a million (setHistory scales them)
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (auto* s : {m_best, m_mean}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_view);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("convergenceNote"));
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setStyleSheet(QStringLiteral("padding: 4px"));
    layout->addWidget(m_note);
    setHistory({}, {});
}

QWidget* ConvergenceView::canvas() const {
    return m_view;
}

int ConvergenceView::pointCount() const {
    return static_cast<int>(m_best->count());
}

QString ConvergenceView::note() const {
    return m_note->isVisibleTo(this) ? m_note->text() : QString();
}

QString ConvergenceView::title() const {
    return m_chart->title();
}

QPointF ConvergenceView::xRange() const {
    return {m_x->min(), m_x->max()};
}

QString ConvergenceView::yTitle() const {
    return m_y->titleText();
}

QPointF ConvergenceView::yRange() const {
    return {m_y->min() * m_yScale, m_y->max() * m_yScale};
}

void ConvergenceView::setHistory(const QString& title, const std::vector<Progress>& history) {
    m_chart->setTitle(title.isEmpty() ? tr("Convergence: start a run or select a result") : title);
    // keep at most ~1000 points: the eye cannot use more and replace() stays cheap
    const size_t stride = std::max<size_t>(1, history.size() / 1000);
    QList<QPointF> best, mean;
    double lo = INFINITY, hi = -INFINITY, xMax = 1;
    for (size_t i = 0; i < history.size(); i += stride) {
        const Progress& p = history[i];
        if (!std::isfinite(p.best)) continue;
        const double x = static_cast<double>(p.evaluations);
        best.append(QPointF(x, p.best));
        lo = std::min(lo, p.best);
        hi = std::max(hi, p.best);
        if (std::isfinite(p.mean) && p.mean > 0) {
            mean.append(QPointF(x, p.mean));
            hi = std::max(hi, p.mean);
        }
        xMax = std::max(xMax, x);
    }
    if (!history.empty() && std::isfinite(history.back().best)) {   // the last report always shows
        const Progress& p = history.back();
        best.append(QPointF(static_cast<double>(p.evaluations), p.best));
        xMax = std::max(xMax, static_cast<double>(p.evaluations));
    }
    // large costs (makespans of 1e7 units, bytes) in thousands or millions: ticks never print an exponent
    static const QStringList scales = {QString(), tr(" (thousands)"), tr(" (millions)"), tr(" (billions)"), tr(" (trillions)")};
    int k = 0;
    if (std::isfinite(hi) && hi >= 1e6)   // below, "%.6g" prints every digit
        while (hi / std::pow(1000.0, k) >= 1000 && k + 1 < scales.size()) ++k;
    m_yScale = std::pow(1000.0, k);
    for (QList<QPointF>* points : {&best, &mean})
        for (QPointF& p : *points) p.setY(p.y() / m_yScale);
    lo /= m_yScale;
    hi /= m_yScale;
    m_y->setTitleText(tr("cost") + scales[k]);
    m_best->replace(best);
    m_mean->replace(mean);
    // one evaluation (a list heuristic) or one report: a point, not a curve, on axes that still read
    const std::int64_t evaluations = history.empty() ? 0 : history.back().evaluations;
    const bool single = evaluations <= 1 || best.size() <= 1;
    m_best->setPointsVisible(single);
    m_best->setMarkerSize(single ? 11 : 6);
    m_mean->setVisible(!mean.isEmpty());   // no population: no legend entry for it
    m_note->setText(evaluations == 1      ? tr("1 evaluation: nothing to converge; the cost is the point above.")
                    : !history.empty() && single ? tr("One progress report so far.")
                    : history.empty() && !title.isEmpty() ? tr("No progress history: this schedule was sampled or opened, not optimized here.")
                                                          : QString());
    m_note->setVisible(!m_note->text().isEmpty());
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    // a flat history still gets a readable band around its value, never ticks that all print alike
    const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(std::abs(hi) * 0.05, 1.0);
    xMax = std::max(xMax, 2.0);
    m_x->setRange(0, xMax);
    m_x->setTickCount(xMax < 4 ? static_cast<int>(xMax) + 1 : 5);
    m_y->setRange(std::max(0.0, lo - pad), hi + pad);
    if (xMax >= 4) m_x->applyNiceNumbers();
    m_y->applyNiceNumbers();
}

} // namespace sl::gui
