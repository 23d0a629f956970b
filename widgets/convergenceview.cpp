// SPDX-License-Identifier: MIT
#include "widgets/convergenceview.h"

#include "widgets/palette.h"

#include <QChart>
#include <QChartView>
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
    m_y->setLabelFormat(QStringLiteral("%.6g"));
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
    layout->addWidget(m_view);
    setHistory({}, {});
}

QWidget* ConvergenceView::canvas() const {
    return m_view;
}

int ConvergenceView::pointCount() const {
    return static_cast<int>(m_best->count());
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
    m_best->replace(best);
    m_mean->replace(mean);
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    const double pad = std::max(1e-9, (hi - lo) * 0.08);
    m_x->setRange(0, xMax);
    m_y->setRange(std::max(0.0, lo - pad), hi + pad);
    m_x->applyNiceNumbers();
    m_y->applyNiceNumbers();
}

} // namespace sl::gui
