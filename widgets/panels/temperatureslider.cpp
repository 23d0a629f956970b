// SPDX-License-Identifier: MIT
#include "widgets/panels/temperatureslider.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyleOptionSlider>
#include <QToolTip>

#include <cmath>

namespace sl::gui {
namespace {
constexpr int kStepsPerDecade = 100;
constexpr int kLabelHeight = 14;
}   // namespace

TemperatureSlider::TemperatureSlider(QWidget* parent, double lo, double hi)
    : QSlider(Qt::Horizontal, parent), m_lo(lo), m_hi(hi) {
    setRange(0, static_cast<int>(std::lround(std::log10(hi / lo) * kStepsPerDecade)));
    setSingleStep(5);
    setPageStep(kStepsPerDecade / 2);
    setMouseTracking(true);
    connect(this, &QSlider::valueChanged, this, [this] { Q_EMIT temperatureChanged(temperature()); });
}

double TemperatureSlider::temperature() const {
    return m_lo * std::pow(10.0, static_cast<double>(value()) / kStepsPerDecade);
}

void TemperatureSlider::setTemperature(double t) {
    if (!(t > 0)) t = m_lo;
    setValue(static_cast<int>(std::lround(std::log10(std::clamp(t, m_lo, m_hi) / m_lo) * kStepsPerDecade)));
}

void TemperatureSlider::setTrainedRange(double lo, double hi) {
    m_trainedLo = lo;
    m_trainedHi = hi;
    update();
}

QRect TemperatureSlider::grooveSpan() const {
    QStyleOptionSlider opt;
    initStyleOption(&opt);
    const QRect groove = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, this);
    const QRect handle = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, this);
    return QRect(groove.left() + handle.width() / 2, 0, groove.width() - handle.width(), height());
}

int TemperatureSlider::xOf(double t) const {
    const QRect span = grooveSpan();
    const double f = std::log10(std::clamp(t, m_lo, m_hi) / m_lo) / std::log10(m_hi / m_lo);
    return span.left() + static_cast<int>(std::lround(f * span.width()));
}

double TemperatureSlider::temperatureAt(int x) const {
    const QRect span = grooveSpan();
    const double f = std::clamp(static_cast<double>(x - span.left()) / std::max(1, span.width()), 0.0, 1.0);
    return m_lo * std::pow(m_hi / m_lo, f);
}

QSize TemperatureSlider::sizeHint() const {
    const QSize s = QSlider::sizeHint();
    return {std::max(s.width(), 240), s.height() + kLabelHeight + 6};
}

QSize TemperatureSlider::minimumSizeHint() const {
    const QSize s = QSlider::minimumSizeHint();
    return {s.width(), s.height() + kLabelHeight + 6};
}

void TemperatureSlider::paintEvent(QPaintEvent* e) {
    {
        // the shaded band goes under the groove: the style paints the groove and handle over it
        QPainter p(this);
        const int bandBottom = height() - kLabelHeight;
        QColor shade(230, 150, 40, 70);
        auto band = [&](int x0, int x1) {
            if (x1 <= x0) return;
            const QRect r(x0, 0, x1 - x0, bandBottom);
            p.fillRect(r, shade);
            p.fillRect(r, QBrush(QColor(200, 110, 20, 90), Qt::BDiagPattern));
        };
        if (m_trainedLo > m_lo) band(0, xOf(m_trainedLo));
        if (m_trainedHi < m_hi) band(xOf(m_trainedHi), width());
    }
    // the groove and handle stay in the top part; decade labels below
    QSlider::paintEvent(e);
    QPainter p(this);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.setFont(f);
    p.setPen(palette().color(QPalette::PlaceholderText));
    for (double t = m_lo; t <= m_hi * 1.0001; t *= 10) {
        const int x = xOf(t);
        p.drawLine(x, height() - kLabelHeight - 3, x, height() - kLabelHeight);
        const QString label = QString::number(t, 'g', 3);
        const int w = p.fontMetrics().horizontalAdvance(label);
        const int left = std::clamp(x - w / 2, 0, width() - w);
        p.drawText(QRect(left, height() - kLabelHeight, w, kLabelHeight), Qt::AlignCenter, label);
    }
}

bool TemperatureSlider::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const double t = temperatureAt(help->pos().x());
        QString text = tr("σ = %1 (reward temperature, unit-less; log scale)").arg(t, 0, 'g', 3);
        if (isExtrapolation(t))
            text = tr("<b>extrapolation</b>: σ = %1 is outside the sampler's training range [%2, %3]")
                       .arg(t, 0, 'g', 3)
                       .arg(m_trainedLo, 0, 'g', 3)
                       .arg(m_trainedHi, 0, 'g', 3);
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QSlider::event(e);
}

}   // namespace sl::gui
