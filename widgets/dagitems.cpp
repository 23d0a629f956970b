// SPDX-License-Identifier: MIT
#include "widgets/dagitems.h"

#include "widgets/palette.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <cmath>

namespace sl::gui {

DagNodeItem::DagNodeItem(OpId op, const QRectF& rect, QString name, QString tooltip)
    : m_op(op), m_rect(rect), m_name(std::move(name)), m_fill(0xe8, 0xec, 0xf1) {
    setToolTip(tooltip);
    setAcceptHoverEvents(true);
    setZValue(1);
}

QRectF DagNodeItem::boundingRect() const {
    return m_rect.adjusted(-3, -3, 3, 3);
}

void DagNodeItem::setFill(const QColor& c, const QString& badge) {
    m_fill = c;
    m_badge = badge;
    update();
}

void DagNodeItem::setHighlighted(bool on) {
    if (on == m_highlighted) return;
    m_highlighted = on;
    setZValue(on ? 2 : 1);
    update();
}

void DagNodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    if (lod < 0.3) {   // far away: a coloured block is all the eye can use
        p->fillRect(m_rect, m_highlighted ? palette::accent() : m_fill);
        return;
    }
    p->setRenderHint(QPainter::Antialiasing, lod > 0.6);
    p->setPen(m_highlighted ? QPen(palette::accent(), 3) : QPen(m_fill.darker(150), 1));
    p->setBrush(m_fill);
    p->drawRoundedRect(m_rect, 4, 4);
    if (lod < 0.5) return;
    QFont f = p->font();
    f.setPointSizeF(8);
    p->setFont(f);
    p->setPen(palette::textOn(m_fill));
    const QFontMetricsF fm(f);
    const QString text = m_badge.isEmpty() ? m_name : m_badge + QLatin1Char(' ') + m_name;
    p->drawText(m_rect.adjusted(4, 0, -4, 0), Qt::AlignCenter, fm.elidedText(text, Qt::ElideMiddle, m_rect.width() - 8));
}

DagEdgesItem::DagEdgesItem(std::vector<QPainterPath> paths, QRectF bounds) : m_paths(std::move(paths)), m_bounds(bounds.adjusted(-10, -10, 10, 10)) {
    setFlag(ItemUsesExtendedStyleOption);
    setZValue(0);
    m_boxes.reserve(m_paths.size());
    m_arrows.reserve(m_paths.size());
    m_chords.reserve(m_paths.size());
    for (const auto& path : m_paths) {
        m_boxes.push_back(path.controlPointRect().adjusted(-6, -6, 6, 6));
        // the arrow follows the last segment's tangent (cheap: no path length sampling)
        const int n = path.elementCount();
        const QPointF tip = n > 0 ? QPointF(path.elementAt(n - 1)) : QPointF();
        QPointF before = n > 1 ? QPointF(path.elementAt(n - 2)) : tip - QPointF(0, 1);
        if (before == tip) before = tip - QPointF(0, 1);
        const QPointF d = tip - before;
        const QPointF dir = d / std::max(1e-9, std::hypot(d.x(), d.y()));
        const QPointF normal(-dir.y(), dir.x());
        m_arrows.push_back(QPolygonF({tip, tip - dir * 8 + normal * 3.5, tip - dir * 8 - normal * 3.5}));
        m_chords.emplace_back(n > 0 ? QPointF(path.elementAt(0)) : tip, tip);
    }
}

void DagEdgesItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    const QRectF exposed = option->exposedRect;
    if (lod < 0.25 && m_chords.size() > 5000) return;   // a grey hairball that costs 100s of ms: nodes only
    if (lod < 0.25) {   // far away: faint straight chords
        QPen faint(QColor(0x70, 0x78, 0x85, m_chords.size() > 3000 ? 28 : 90), 0);
        p->setPen(faint);
        std::vector<QLineF> visible;
        visible.reserve(m_chords.size());
        for (size_t i = 0; i < m_chords.size(); ++i)
            if (m_boxes[i].intersects(exposed)) visible.push_back(m_chords[i]);
        p->drawLines(visible.data(), static_cast<int>(visible.size()));
        return;
    }
    p->setRenderHint(QPainter::Antialiasing, lod > 0.4);
    QPen pen(QColor(0x70, 0x78, 0x85), 1);
    pen.setCosmetic(true);
    p->setPen(pen);
    p->setBrush(Qt::NoBrush);
    for (size_t i = 0; i < m_paths.size(); ++i)
        if (m_boxes[i].intersects(exposed)) p->drawPath(m_paths[i]);
    if (lod < 0.5) return;
    p->setBrush(QColor(0x70, 0x78, 0x85));
    for (size_t i = 0; i < m_arrows.size(); ++i)
        if (m_boxes[i].intersects(exposed)) p->drawPolygon(m_arrows[i]);
}

} // namespace sl::gui
