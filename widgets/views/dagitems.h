// SPDX-License-Identifier: MIT
#pragma once
// Scene items of the DAG view: one item paints every node and one every edge, from flat arrays with
// a spatial grid, so that 100k ops cost megabytes and a paint touches only what is exposed. Level of
// detail: zoomed far out the nodes are one cached overview image (aggregated blocks), nearer they
// are blocks, then boxes with the op type, then the name on a second line.
#include "core/costmodel/pins.h"
#include "widgets/views/daglayout.h"

#include <QGraphicsItem>
#include <QImage>
#include <QStringList>

class QFontMetricsF;

#include <memory>
#include <vector>

namespace sl::gui {

/// `text` cut to `width` at a word boundary (space, '.', '_', '/', '-', ':'): the first words and
/// the last one with "…" between ("Postprocessor/…/Relu6"), else the first words and "…" or "…"
/// and the last words, whichever keeps more; mid-word only when not even one word fits.
QString elideAtWords(const QString& text, const QFontMetricsF& fm, double width);

/// Buckets of item indices by the grid cell their box centre falls into.
class DagGrid {
public:
    DagGrid() = default;
    DagGrid(const std::vector<QRectF>& boxes, const QRectF& bounds);
    /// Indices whose centre lies in a cell touching `r` (callers still test the box).
    template <typename F>
    void forEachNear(const QRectF& r, F&& f) const;
    /// How many items lie in cells touching `r` (an upper bound of what a paint would draw).
    long long countNear(const QRectF& r) const;

private:
    void cellRange(const QRectF& r, int& x0, int& x1, int& y0, int& y1) const;
    QRectF m_bounds;
    double m_cell = 1;
    int m_cols = 0, m_rows = 0;
    std::vector<int> m_start, m_items;
};

class DagNodesItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };
    DagNodesItem(std::shared_ptr<const Graph> g, const DagLayout& layout, std::vector<int> foldedCounts);
    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) override;

    /// The op whose node contains `scenePos`, or kNoOp.
    OpId opAt(const QPointF& scenePos) const;
    /// The text lines a node shows when zoomed in enough: the op type (with "#k " once ordered),
    /// then the op name; an op without a type shows its name alone.
    QStringList labelLines(OpId v) const;
    QColor fillOf(OpId v) const { return QColor::fromRgb(m_fill[static_cast<size_t>(v)]); }

    /// The same ops with other times (a machine chosen, a profile applied): labels stay.
    void setGraph(std::shared_ptr<const Graph> g) { m_graph = std::move(g); }
    void setFills(std::vector<QRgb> fill);
    void setPositions(std::vector<int> position);   ///< order badges; empty: none
    void setPins(Pins pins);                        ///< pinned ops get a pin mark
    void setSelection(OpId v, const std::vector<OpId>& neighbours);
    bool isNeighbour(OpId v) const { return m_neighbour[static_cast<size_t>(v)] != 0; }
    const DagGrid& grid() const { return m_grid; }
    const QRectF& rectOf(OpId v) const { return m_rects[static_cast<size_t>(v)]; }

private:
    void paintOverview(QPainter* p, double lod);
    void paintNode(QPainter* p, OpId v, double lod) const;
    const QImage& overview(double lod);

    std::shared_ptr<const Graph> m_graph;
    const std::vector<QRectF>& m_rects;   // the layout's (DagView keeps it alive)
    std::vector<OpId> m_shown;
    DagGrid m_grid;
    std::vector<QRgb> m_fill;
    std::vector<int> m_position;
    std::vector<int> m_folded;   // per op: how many ops are folded into it
    Pins m_pins;
    std::vector<char> m_neighbour;
    OpId m_selected = kNoOp;
    QRectF m_bounds;
    QImage m_overview;   // built lazily for the zoom it is drawn at, dropped when the colours change
    double m_overviewScale = 0;
};

class DagEdgesItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };
    /// `nodes` lends its grid: a graph with millions of edges draws those of the exposed nodes.
    DagEdgesItem(const DagLayout& layout, const DagNodesItem* nodes);
    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) override;

    /// Highlights the in- and out-edges of `v` (kNoOp: none) and dims the others slightly.
    void setSelection(OpId v);
    /// Indices (into the layout's edges) drawn highlighted.
    const std::vector<int>& highlighted() const { return m_highlighted; }
    /// The edges incident to `v`: out-edges, then in-edges.
    std::vector<int> edgesOf(OpId v) const;

private:
    std::vector<int> exposedEdges(const QRectF& exposed) const;
    void drawEdge(QPainter* p, int i, bool arrow) const;

    const DagLayout& m_layout;
    const DagNodesItem* m_nodes;
    std::vector<QRectF> m_boxes;   // per edge, for graphs with few enough edges
    std::vector<int> m_highlighted;
    std::vector<char> m_isHighlighted;
    mutable std::vector<char> m_exposedNode;
    mutable std::vector<QPointF> m_curve;
    QRectF m_bounds;
};

template <typename F>
void DagGrid::forEachNear(const QRectF& r, F&& f) const {
    int x0, x1, y0, y1;
    cellRange(r, x0, x1, y0, y1);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const auto c = static_cast<size_t>(y * m_cols + x);
            for (int k = m_start[c]; k < m_start[c + 1]; ++k) f(m_items[static_cast<size_t>(k)]);
        }
}

}   // namespace sl::gui
