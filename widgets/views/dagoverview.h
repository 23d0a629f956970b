// SPDX-License-Identifier: MIT
#pragma once
// A thin strip beside the DAG that shows the whole graph in miniature and, framed, the part the
// view shows; a click or a drag on it moves the view there. It hides itself while the whole graph
// is in view. A very tall graph's miniature is widened to kMinMiniatureWidth (the scale differs
// across and down) so that it can still be seen and clicked.
#include <QImage>
#include <QPointer>
#include <QRectF>
#include <QWidget>

#include <span>

class QGraphicsView;

namespace sl::gui {

class DagOverview : public QWidget {
    Q_OBJECT
public:
    explicit DagOverview(QGraphicsView* view, QWidget* parent = nullptr);
    /// The nodes to draw (scene rectangles, null ones skipped) with their fills, inside `bounds`;
    /// empty spans clear the strip. Views, not copies: the caller keeps them alive and unchanged
    /// until its next call (DagView: its layout and its colouring).
    void setNodes(std::span<const QRectF> nodes, std::span<const QRgb> fills, const QRectF& bounds);
    /// The view's visible part, in strip pixels (tests).
    QRectF frame() const;
    /// Where the whole graph is drawn, in strip pixels (tests).
    QRectF miniature() const;
    static constexpr int kMinMiniatureWidth = 48;   ///< px, or the strip's room if narrower

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    void fitWidth();     ///< as wide as the graph's shape asks, within bounds
    void redraw();       ///< the miniature, at the strip's size
    void followView();   ///< shown or hidden, and the frame, after the view moved or zoomed
    /// Scene to strip: an offset and a scale across and one down.
    struct Mapping {
        QPointF origin;   ///< where the bounds' top-left lands
        double sx = 0, sy = 0;
        QRectF toStrip(const QRectF& scene, const QRectF& bounds) const;
    };
    Mapping mapping() const;
    void centreViewAt(QPointF stripPos);

    QPointer<QGraphicsView> m_view;
    std::span<const QRectF> m_nodes;
    std::span<const QRgb> m_fills;
    QRectF m_bounds;
    QImage m_image;
    bool m_stale = true;   ///< the nodes changed since the miniature was drawn
};

}   // namespace sl::gui
