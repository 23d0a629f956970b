// SPDX-License-Identifier: MIT
#include "widgets/views/dagoverview.h"

#include <QGraphicsView>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace sl::gui {
namespace {
constexpr int kWidth = 64;       // px: thin enough to leave the graph its room
constexpr int kMaxWidth = 120;   // a wide graph widens the strip up to this, so its miniature is not a speck
constexpr int kMargin = 4;
}   // namespace

DagOverview::DagOverview(QGraphicsView* view, QWidget* parent) : QWidget(parent), m_view(view) {
    setObjectName(QStringLiteral("dagOverview"));
    setFixedWidth(kWidth);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("The whole graph; the frame is what the view shows. Click or drag to move there."));
    for (QScrollBar* bar : {view->horizontalScrollBar(), view->verticalScrollBar()}) {
        connect(bar, &QScrollBar::valueChanged, this, &DagOverview::followView);
        connect(bar, &QScrollBar::rangeChanged, this, &DagOverview::followView);   // zooms change the ranges
    }
    hide();
}

void DagOverview::setNodes(std::span<const QRectF> nodes, std::span<const QRgb> fills, const QRectF& bounds) {
    m_nodes = nodes;
    m_fills = fills;
    m_bounds = bounds;
    m_stale = true;
    fitWidth();
    followView();
}

QRectF DagOverview::Mapping::toStrip(const QRectF& scene, const QRectF& bounds) const {
    return {origin.x() + (scene.left() - bounds.left()) * sx, origin.y() + (scene.top() - bounds.top()) * sy,
            scene.width() * sx, scene.height() * sy};
}

DagOverview::Mapping DagOverview::mapping() const {
    const QRectF room = QRectF(rect()).adjusted(kMargin, kMargin, -kMargin, -kMargin);
    if (m_bounds.isEmpty() || room.isEmpty()) return {};
    const double s = std::min(room.width() / m_bounds.width(), room.height() / m_bounds.height());
    // a tall graph at one scale is a line a few pixels wide: it is widened instead, never thinner than this
    const double width = std::max(m_bounds.width() * s, std::min<double>(kMinMiniatureWidth, room.width()));
    // top-aligned: sources first
    return {QPointF(room.left() + (room.width() - width) / 2, room.top()), width / m_bounds.width(), s};
}

QRectF DagOverview::miniature() const { return mapping().toStrip(m_bounds, m_bounds); }

void DagOverview::fitWidth() {
    if (m_bounds.isEmpty() || height() <= 0) return;
    const int wanted = static_cast<int>(std::lround(height() * m_bounds.width() / m_bounds.height()));
    setFixedWidth(std::clamp(wanted, kWidth, kMaxWidth));   // as wide as the graph's shape asks, within bounds
}

void DagOverview::redraw() {
    m_stale = false;
    m_image = QImage(size() * devicePixelRatioF(), QImage::Format_ARGB32_Premultiplied);
    m_image.setDevicePixelRatio(devicePixelRatioF());
    m_image.fill(Qt::transparent);
    const Mapping to = mapping();
    if (!(to.sx > 0) || m_nodes.empty()) return;
    QPainter p(&m_image);
    for (size_t v = 0; v < m_nodes.size(); ++v) {
        const QRectF& r = m_nodes[v];
        if (r.isNull()) continue;
        QRectF mini = to.toStrip(r, m_bounds);
        mini.setSize(mini.size().expandedTo(QSizeF(1, 1)));
        p.fillRect(mini,
                   QColor::fromRgb(v < m_fills.size() ? m_fills[v] : 0xff8a93a0)
                       .darker(135));   // pale categories must still show
    }
}

QRectF DagOverview::frame() const {
    if (!m_view || m_bounds.isEmpty()) return {};
    const QRectF shown = m_view->mapToScene(m_view->viewport()->rect()).boundingRect().intersected(m_bounds);
    return mapping().toStrip(shown, m_bounds);
}

void DagOverview::followView() {
    if (!m_view || m_bounds.isEmpty()) return hide();
    const QRectF shown = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    setVisible(!shown.contains(m_bounds));   // the whole graph in view: nothing to find one's way in
    update();
}

void DagOverview::paintEvent(QPaintEvent*) {
    if (m_stale || m_image.size() != size() * devicePixelRatioF()) redraw();   // drawn at the size it is shown at
    QPainter p(this);
    p.fillRect(rect(), QColor(0xf1, 0xf2, 0xf4));
    p.drawImage(QPointF(0, 0), m_image);
    const QRectF f = frame();
    if (f.isEmpty()) return;
    p.setPen(QPen(QColor(0x1f, 0x6f, 0xd1), 1.5));
    p.setBrush(QColor(0x1f, 0x6f, 0xd1, 40));
    p.drawRect(f.united(QRectF(f.center() - QPointF(2, 2), QSizeF(4, 4))));   // never thinner than 4 px
}

void DagOverview::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fitWidth();
}

void DagOverview::centreViewAt(QPointF stripPos) {
    const Mapping to = mapping();
    if (!m_view || !(to.sx > 0 && to.sy > 0)) return;
    m_view->centerOn(QPointF(m_bounds.left() + (stripPos.x() - to.origin.x()) / to.sx,
                             m_bounds.top() + (stripPos.y() - to.origin.y()) / to.sy));
}

void DagOverview::mousePressEvent(QMouseEvent* e) { centreViewAt(e->position()); }

void DagOverview::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton) centreViewAt(e->position());
}

}   // namespace sl::gui
