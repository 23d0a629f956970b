// SPDX-License-Identifier: MIT
#include "widgets/views/pinglyph.h"

#include <QPainter>

namespace sl::gui {

void paintPin(QPainter& p, QPointF at, double radius, const Pin& pin) {
    if (pin.device < 0) return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(Qt::white, std::max(1.0, radius / 3)));
    p.setBrush(QColor(0x2b, 0x2f, 0x36));
    p.drawEllipse(at, radius, radius);
    if (pin.rank >= 0) {   // its place among the device's pinned ops
        QFont f = p.font();
        f.setPointSizeF(std::max(5.0, radius * 1.1));
        f.setBold(true);
        p.setFont(f);
        const QString text = QString::number(pin.rank + 1);
        const QRectF box(at.x() + radius + 1, at.y() - radius - 1, QFontMetricsF(f).horizontalAdvance(text) + 4,
                         2 * radius + 2);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 255, 255, 220));
        p.drawRoundedRect(box, 2, 2);
        p.setPen(QColor(0x2b, 0x2f, 0x36));
        p.drawText(box, Qt::AlignCenter, text);
    }
    p.restore();
}

}   // namespace sl::gui
