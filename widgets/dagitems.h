// SPDX-License-Identifier: MIT
#pragma once
// Scene items of the DAG view: one item per op, and one item that paints every edge (thousands of
// separate path items would cost more than they give).
#include "core/graph/graph.h"

#include <QGraphicsItem>
#include <QPainterPath>
#include <QLineF>
#include <QPolygonF>

#include <vector>

namespace sl::gui {

class DagNodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };
    DagNodeItem(OpId op, const QRectF& rect, QString name, QString tooltip);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) override;

    OpId op() const { return m_op; }
    void setFill(const QColor& c, const QString& badge);
    void setHighlighted(bool on);

private:
    OpId m_op;
    QRectF m_rect;
    QString m_name;
    QString m_badge;   // position in the order
    QColor m_fill;
    bool m_highlighted = false;
};

class DagEdgesItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };
    DagEdgesItem(std::vector<QPainterPath> paths, QRectF bounds);
    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) override;

private:
    std::vector<QPainterPath> m_paths;
    std::vector<QRectF> m_boxes;
    std::vector<QPolygonF> m_arrows;
    std::vector<QLineF> m_chords;   // start to end: what far-away edges are drawn as
    QRectF m_bounds;
};

} // namespace sl::gui
