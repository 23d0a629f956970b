// SPDX-License-Identifier: MIT
#pragma once
// A horizontal slider over σ on a log scale (default 0.001 .. 1, 100 steps per decade), with
// decade labels under it and the temperatures outside the sampler's training range shaded (their
// tooltip says "extrapolation"): the GFlowNet is trained on a range and only extrapolates beyond it.
#include <QSlider>

namespace sl::gui {

class TemperatureSlider : public QSlider {
    Q_OBJECT
public:
    explicit TemperatureSlider(QWidget* parent = nullptr, double lo = 1e-3, double hi = 1);
    double temperature() const;
    void setTemperature(double t);   ///< clamped to the slider's range
    /// The sampler's training range; [0, inf) shades nothing.
    void setTrainedRange(double lo, double hi);
    bool isExtrapolation(double t) const { return t < m_trainedLo || t > m_trainedHi; }
    /// The temperature under widget x (for tooltips and tests).
    double temperatureAt(int x) const;
    int xOf(double t) const;

Q_SIGNALS:
    void temperatureChanged(double t);

protected:
    void paintEvent(QPaintEvent* e) override;
    bool event(QEvent* e) override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

private:
    QRect grooveSpan() const;   ///< x range the handle centre travels
    double m_lo, m_hi;
    double m_trainedLo = 0, m_trainedHi = 1e300;
};

}   // namespace sl::gui
