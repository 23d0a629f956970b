// SPDX-License-Identifier: MIT
#include "widgets/views/convergenceview.h"

#include "widgets/session/document.h"
#include "widgets/session/schedulerecord.h"
#include "widgets/views/chartutil.h"
#include "widgets/views/palette.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
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
    m_bound = new QLineSeries;
    m_bound->setName(tr("lower bound"));
    m_bound->setPen(QPen(palette::category(2), 1.5, Qt::DashLine));
    m_chart->addSeries(m_bound);
    m_chart->addSeries(m_mean);
    m_chart->addSeries(m_best);
    m_x = new QCategoryAxis;   // ticks with thousands separators ("12,000")
    m_x->setTitleText(tr("evaluations"));
    connect(m_x, &QValueAxis::rangeChanged, this, &ConvergenceView::labelEvaluationTicks);
    m_y = new QCategoryAxis;   // ticks labelled in the cost's unit ("12.5 ms", "1.5 GiB")
    m_y->setTitleText(tr("cost"));
    connect(m_y, &QValueAxis::rangeChanged, this, &ConvergenceView::labelCostTicks);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (auto* s : {m_best, m_mean, m_bound}) {
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

void ConvergenceView::setCostUnit(Objective objective, TimeUnit unit) {
    m_objective = objective;
    m_timeUnit = unit;
    labelCostTicks();
}

QList<QPointF> ConvergenceView::boundSteps(const std::vector<Progress>& history, double xEnd) const {
    if (m_objective == Objective::Weighted) return {};
    // the problem's bound, raised where the run proved more (exact-makespan reports Progress::bound)
    double level = m_costBound;
    QList<QPointF> steps;
    if (level > 0) steps.append(QPointF(0, level));
    for (const Progress& p : history) {
        if (!(p.bound > level)) continue;
        const double x = static_cast<double>(p.evaluations);
        if (!steps.isEmpty()) steps.append(QPointF(x, level));
        level = p.bound;
        steps.append(QPointF(steps.isEmpty() ? 0 : x, level));
    }
    if (!steps.isEmpty()) steps.append(QPointF(xEnd, level));
    return steps;
}

void ConvergenceView::setLowerBound(double costBound) { m_costBound = costBound; }

double ConvergenceView::lowerBound() const {
    return m_bound->isVisible() && m_bound->count() > 0 ? m_bound->at(m_bound->count() - 1).y() : 0.0;
}

void ConvergenceView::labelCostTicks() {
    const double lo = m_y->min(), hi = m_y->max();
    if (!(hi > lo)) return;
    setTickLabels(m_y, lo, hi, costScaleFor(std::max(std::abs(lo), std::abs(hi)), m_objective, m_timeUnit), 6);
}

void ConvergenceView::labelEvaluationTicks() {
    if (m_x->max() > m_x->min()) setTickLabels(m_x, m_x->min(), m_x->max(), {1, {}}, 6);
}

QWidget* ConvergenceView::canvas() const { return m_view; }

int ConvergenceView::pointCount() const { return static_cast<int>(m_best->count()); }

QString ConvergenceView::note() const { return m_note->isVisibleTo(this) ? m_note->text() : QString(); }

QString ConvergenceView::title() const { return m_chart->title(); }

QPointF ConvergenceView::xRange() const { return {m_x->min(), m_x->max()}; }

QPointF ConvergenceView::yRange() const { return {m_y->min(), m_y->max()}; }

QString ConvergenceView::yTitle() const { return m_y->titleText(); }

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
    m_best->replace(best);
    m_mean->replace(mean);
    const QList<QPointF> bound = boundSteps(history, std::max(xMax, 2.0));
    m_bound->setVisible(!bound.isEmpty() && !best.isEmpty());
    m_bound->replace(best.isEmpty() ? QList<QPointF>{} : bound);
    if (!bound.isEmpty() && !best.isEmpty()) lo = std::min(lo, bound.front().y());
    showSingleRunNote(history, title, best.size());
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    // a pad relative to the cost (1e-9 vanishes in rounding at 1e10, and nice numbers of an empty
    // range are NaN); a flat history gets a readable band around its value
    const double pad =
        std::max({(hi - lo) * 0.08, std::abs(hi) * 1e-3, hi > lo ? 0.0 : std::max(std::abs(hi) * 0.05, 1.0)});
    xMax = std::max(xMax, 2.0);   // one evaluation: an axis from 0 to 2, not three ticks that read alike
    m_x->setRange(0, xMax);
    m_y->setRange(std::max(0.0, lo - pad), hi + pad);
    if (xMax >= 4) applyNiceRange(m_x, {1, {}});   // 0 to 5,000 for 5,000 evaluations, not to 6,000
    applyNiceRange(m_y, costScaleFor(std::max(std::abs(lo), std::abs(hi)), m_objective, m_timeUnit));
}

void ConvergenceView::showSingleRunNote(const std::vector<Progress>& history, const QString& title, qsizetype points) {
    // one evaluation (a list heuristic) or one report: a point, not a curve, on axes that still read
    const std::int64_t evaluations = history.empty() ? 0 : history.back().evaluations;
    const bool single = evaluations <= 1 || points <= 1;
    m_best->setPointsVisible(single);
    m_best->setMarkerSize(single ? 11 : 6);
    m_mean->setVisible(m_mean->count() > 0);   // no population: no legend entry for it
    m_note->setText(evaluations == 1 ? tr("1 evaluation: nothing to converge; the cost is the point above.")
                        : !history.empty() && single ? tr("One progress report so far.")
                        : history.empty() && !title.isEmpty()
                        ? tr("No progress history: this schedule was sampled or opened, not optimized here.")
                        : QString());
    m_note->setVisible(!m_note->text().isEmpty());
}

void ConvergenceView::observe(const Document* doc) {
    connect(doc, &Document::shownChanged, this, [this, doc] {
        const std::optional<RunRecord>& r = doc->shown();
        if (!r) return;   // the last curve stays until another run is shown
        setCostUnit(r->problem->objective.kind, r->problem->g().timeUnit());
        setLowerBound(costBound(*r));
        setHistory(r->name, r->result->history);
    });
}

}   // namespace sl::gui
