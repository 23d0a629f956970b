// SPDX-License-Identifier: MIT
#pragma once
// A thin strip beside the DAG that shows the whole graph in miniature and, framed, the part the
// view shows; a click or a drag on it moves the view there. It hides itself while the whole graph
// is in view.
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

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    void fitWidth();          ///< as wide as the graph's shape asks, within bounds
    void redraw();            ///< the miniature, at the strip's size
    void followView();        ///< shown or hidden, and the frame, after the view moved or zoomed
    QRectF placed() const;    ///< where the graph's bounds land in the strip
    void centreViewAt(QPointF stripPos);

    QPointer<QGraphicsView> m_view;
    std::span<const QRectF> m_nodes;
    std::span<const QRgb> m_fills;
    QRectF m_bounds;
    QImage m_image;
    bool m_stale = true;      ///< the nodes changed since the miniature was drawn
};

} // namespace sl::gui
