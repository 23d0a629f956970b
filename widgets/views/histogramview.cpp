// SPDX-License-Identifier: MIT
#include "widgets/views/histogramview.h"

#include "widgets/views/palette.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sl::gui {

namespace {
// Freedman-Diaconis would be finer; a fixed count reads better in a narrow dock
constexpr int kBins = 30;
}   // namespace

HistogramView::HistogramView(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart;
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setBackgroundRoundness(0);
    m_upper = new QLineSeries(this);
    m_area = new QAreaSeries(m_upper);
    m_area->setName(tr("samples"));
    QColor fill = palette::category(0);
    m_area->setPen(QPen(fill.darker(130), 1));
    fill.setAlpha(150);
    m_area->setBrush(fill);
    m_mean = new QLineSeries;
    m_mean->setName(tr("mean"));
    m_mean->setPen(QPen(palette::category(1), 2, Qt::DashLine));
    m_best = new QLineSeries;
    m_best->setName(tr("top-1"));
    m_best->setPen(QPen(palette::category(3), 2));
    m_chart->addSeries(m_area);
    m_chart->addSeries(m_mean);
    m_chart->addSeries(m_best);
    m_x = new QValueAxis;
    m_y = new QValueAxis;
    m_x->setLabelFormat(QStringLiteral("%.3g"));
    m_y->setLabelFormat(QStringLiteral("%d"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (auto* s : {static_cast<QAbstractSeries*>(m_area), static_cast<QAbstractSeries*>(m_mean),
                    static_cast<QAbstractSeries*>(m_best)}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setObjectName(QStringLiteral("histogramChart"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    setValues({}, 0, 0);
}

void HistogramView::setAxisTitles(const QString& x, const QString& y) {
    m_x->setTitleText(x);
    m_y->setTitleText(y);
}

int HistogramView::nonEmptyBins() const {
    return static_cast<int>(std::count_if(m_counts.begin(), m_counts.end(), [](int c) { return c > 0; }));
}

int HistogramView::total() const { return std::accumulate(m_counts.begin(), m_counts.end(), 0); }

void HistogramView::setValues(const std::vector<double>& values, double mean, double best) {
    m_counts.clear();
    if (values.empty()) {
        m_upper->clear();
        m_mean->clear();
        m_best->clear();
        m_x->setRange(0, 1);
        m_y->setRange(0, 10);
        m_chart->setTitle(tr("No samples yet"));
        return;
    }
    m_chart->setTitle({});
    auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    double a = *lo, b = *hi;
    if (b - a < 1e-9 * std::max(1.0, std::abs(b))) {   // one value: a narrow bar around it
        a -= 0.005 * std::max(1.0, std::abs(a));
        b += 0.005 * std::max(1.0, std::abs(b));
    }
    const double width = (b - a) / kBins;
    m_counts.assign(kBins, 0);
    for (double v : values)
        ++m_counts[static_cast<size_t>(std::clamp(static_cast<int>((v - a) / width), 0, kBins - 1))];
    // the outline of the bars as one step curve: two points per bin edge
    QList<QPointF> pts;
    pts.reserve(kBins * 2 + 2);
    pts.append(QPointF(a, 0));
    for (int i = 0; i < kBins; ++i) {
        pts.append(QPointF(a + i * width, m_counts[static_cast<size_t>(i)]));
        pts.append(QPointF(a + (i + 1) * width, m_counts[static_cast<size_t>(i)]));
    }
    pts.append(QPointF(b, 0));
    m_upper->replace(pts);
    const int top = *std::max_element(m_counts.begin(), m_counts.end());
    const double yMax = std::max(1.0, top * 1.1);
    m_mean->replace({QPointF(mean, 0), QPointF(mean, yMax)});
    m_best->replace({QPointF(best, 0), QPointF(best, yMax)});
    const double pad = (b - a) * 0.04;
    m_x->setRange(a - pad, b + pad);
    // enough decimals that neighbouring ticks differ (a narrow spread of U near 3.67 needs 3)
    const int decimals = std::clamp(static_cast<int>(-std::floor(std::log10((b - a + 2 * pad) / 4))), 0, 6);
    m_x->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    m_x->setTickCount(5);
    m_y->setRange(0, yMax);
    m_y->applyNiceNumbers();
}

}   // namespace sl::gui
