// SPDX-License-Identifier: MIT
#include "widgets/views/dagitems.h"
#include "widgets/views/pinglyph.h"

#include "widgets/views/palette.h"

#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace sl::gui {
namespace {

constexpr int kOverviewSide = 2048;         // at most this many pixels on the overview image's longer side
constexpr long long kDirectLimit = 12000;   // more nodes exposed than this: paint the overview
constexpr double kTextLod = 0.45;           // zoom from which node labels are readable

QColor dimmed(const QColor& c) {
    return QColor((c.red() + 2 * 255) / 3, (c.green() + 2 * 255) / 3, (c.blue() + 2 * 255) / 3);
}

QPointF arrowBase(const std::vector<QPointF>& pts, int first, int last) {   // the last point before the tip
    for (int k = last - 1; k >= first; --k)
        if (pts[static_cast<size_t>(k)] != pts[static_cast<size_t>(last)]) return pts[static_cast<size_t>(k)];
    return pts[static_cast<size_t>(last)] - QPointF(0, 1);
}

}   // namespace

QString elideAtWords(const QString& text, const QFontMetricsF& fm, double width) {
    if (fm.horizontalAdvance(text) <= width) return text;
    static const QRegularExpression boundary(QStringLiteral("[ ._/:\\-]"));
    // word ends: cutting after a separator keeps whole words on both sides
    std::vector<qsizetype> cuts;
    for (auto it = boundary.globalMatch(text); it.hasNext();) cuts.push_back(it.next().capturedStart());
    const QString ellipsis = QStringLiteral("…");
    if (!cuts.empty()) {
        const QString tail = text.mid(cuts.back());   // the last word with its separator: ".145", "/Relu6"
        for (auto it = cuts.rbegin(); it != cuts.rend(); ++it) {
            const QString head = text.left(*it);
            if (*it < cuts.back() && fm.horizontalAdvance(head + ellipsis + tail) <= width)
                return head + ellipsis + tail;
        }
        // else whichever keeps more text: the first words ("FusedBatchNormV3…") or the last ones ("…/Relu6")
        QString best;
        for (auto it = cuts.rbegin(); it != cuts.rend() && best.isEmpty(); ++it)
            if (*it > 0 && fm.horizontalAdvance(text.left(*it) + ellipsis) <= width) best = text.left(*it) + ellipsis;
        for (qsizetype cut : cuts) {
            const QString last = ellipsis + text.mid(cut);
            if (fm.horizontalAdvance(last) > width) continue;
            if (last.size() > best.size()) best = last;
            break;
        }
        if (!best.isEmpty()) return best;
    }
    return fm.elidedText(text, Qt::ElideRight, width);
}

DagGrid::DagGrid(const std::vector<QRectF>& boxes, const QRectF& bounds) : m_bounds(bounds) {
    const double area = std::max(1.0, bounds.width() * bounds.height());
    m_cell = std::max(256.0, std::sqrt(area / 1e6));   // at most about a million cells
    m_cols = std::max(1, static_cast<int>(std::ceil(bounds.width() / m_cell)));
    m_rows = std::max(1, static_cast<int>(std::ceil(bounds.height() / m_cell)));
    auto cellOf = [&](const QRectF& b) {
        const int x = std::clamp(static_cast<int>((b.center().x() - bounds.left()) / m_cell), 0, m_cols - 1);
        const int y = std::clamp(static_cast<int>((b.center().y() - bounds.top()) / m_cell), 0, m_rows - 1);
        return static_cast<size_t>(y * m_cols + x);
    };
    m_start.assign(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows) + 1, 0);
    for (const QRectF& b : boxes)
        if (!b.isNull()) ++m_start[cellOf(b) + 1];
    for (size_t c = 1; c < m_start.size(); ++c) m_start[c] += m_start[c - 1];
    m_items.resize(static_cast<size_t>(m_start.back()));
    std::vector<int> fill(m_start.begin(), m_start.end() - 1);
    for (size_t i = 0; i < boxes.size(); ++i)
        if (!boxes[i].isNull()) m_items[static_cast<size_t>(fill[cellOf(boxes[i])]++)] = static_cast<int>(i);
}

void DagGrid::cellRange(const QRectF& rIn, int& x0, int& x1, int& y0, int& y1) const {
    const QRectF r = rIn.adjusted(-m_cell / 2, -m_cell / 2, m_cell / 2, m_cell / 2);   // boxes reach past their cell
    if (m_cols == 0) {
        x0 = y0 = 0;
        x1 = y1 = -1;
        return;
    }
    x0 = std::clamp(static_cast<int>(std::floor((r.left() - m_bounds.left()) / m_cell)), 0, m_cols - 1);
    x1 = std::clamp(static_cast<int>(std::floor((r.right() - m_bounds.left()) / m_cell)), 0, m_cols - 1);
    y0 = std::clamp(static_cast<int>(std::floor((r.top() - m_bounds.top()) / m_cell)), 0, m_rows - 1);
    y1 = std::clamp(static_cast<int>(std::floor((r.bottom() - m_bounds.top()) / m_cell)), 0, m_rows - 1);
    if (r.right() < m_bounds.left() || r.left() > m_bounds.right() || r.bottom() < m_bounds.top() ||
        r.top() > m_bounds.bottom())
        x1 = x0 - 1;
}

long long DagGrid::countNear(const QRectF& r) const {
    int x0, x1, y0, y1;
    cellRange(r, x0, x1, y0, y1);
    long long n = 0;
    for (int y = y0; y <= y1; ++y)
        n += m_start[static_cast<size_t>(y * m_cols + x1 + 1)] - m_start[static_cast<size_t>(y * m_cols + x0)];
    return x1 < x0 ? 0 : n;
}

// ---- nodes ----

DagNodesItem::DagNodesItem(std::shared_ptr<const Graph> g, const DagLayout& layout, std::vector<int> foldedCounts)
    : m_graph(std::move(g)), m_rects(layout.nodes), m_folded(std::move(foldedCounts)),
      m_bounds(layout.bounds.adjusted(-10, -10, 10, 10)) {
    setFlag(ItemUsesExtendedStyleOption);
    setZValue(1);
    for (OpId v = 0; v < static_cast<OpId>(m_rects.size()); ++v)
        if (!m_rects[static_cast<size_t>(v)].isNull()) m_shown.push_back(v);
    m_grid = DagGrid(m_rects, m_bounds);
    m_fill.assign(m_rects.size(), QColor(0xe3, 0xe8, 0xef).rgb());
    m_neighbour.assign(m_rects.size(), 0);
}

OpId DagNodesItem::opAt(const QPointF& pos) const {
    OpId hit = kNoOp;
    m_grid.forEachNear(QRectF(pos, QSizeF(0, 0)), [&](int v) {
        if (m_rects[static_cast<size_t>(v)].adjusted(-2, -2, 2, 2).contains(pos)) hit = v;
    });
    return hit;
}

QStringList DagNodesItem::labelLines(OpId v) const {
    const Op& op = m_graph->op(v);
    const QString name = QString::fromStdString(op.name);
    QString first = op.type.empty() ? name : QString::fromStdString(op.type);
    const int position = m_position.empty() ? -1 : m_position[static_cast<size_t>(v)];
    if (position >= 0) first = QStringLiteral("#%1 %2").arg(position).arg(first);
    return op.type.empty() ? QStringList{first} : QStringList{first, name};
}

void DagNodesItem::setFills(std::vector<QRgb> fill) {
    m_fill = std::move(fill);
    m_overview = QImage();
    update();
}

void DagNodesItem::setPositions(std::vector<int> position) {
    m_position = std::move(position);
    update();
}

void DagNodesItem::setPins(Pins pins) {
    m_pins = std::move(pins);
    update();
}

void DagNodesItem::setSelection(OpId v, const std::vector<OpId>& neighbours) {
    std::fill(m_neighbour.begin(), m_neighbour.end(), 0);
    for (OpId u : neighbours) m_neighbour[static_cast<size_t>(u)] = 1;
    m_selected = v;
    m_overview = QImage();
    update();
}

const QImage& DagNodesItem::overview(double lod) {
    // about one image pixel per screen pixel, so that every node stays at least one solid pixel
    const double s = std::min(lod, kOverviewSide / std::max(m_bounds.width(), m_bounds.height()));
    if (!m_overview.isNull() && std::abs(m_overviewScale / s - 1) < 0.2) return m_overview;
    m_overviewScale = s;
    const int w = std::max(1, static_cast<int>(std::ceil(m_bounds.width() * s))),
              h = std::max(1, static_cast<int>(std::ceil(m_bounds.height() * s)));
    m_overview = QImage(w, h, QImage::Format_ARGB32_Premultiplied);
    m_overview.fill(Qt::transparent);
    auto paintBlock = [&](OpId v, QRgb colour) {   // pixels written directly: 100k nodes in a few milliseconds
        const QRectF r = m_rects[static_cast<size_t>(v)].translated(-m_bounds.topLeft());
        const int x0 = std::clamp(static_cast<int>(r.left() * s), 0, w - 1),
                  y0 = std::clamp(static_cast<int>(r.top() * s), 0, h - 1);
        const int x1 = std::clamp(static_cast<int>(std::ceil(r.right() * s)) - 1, x0, w - 1);
        const int y1 = std::clamp(static_cast<int>(std::ceil(r.bottom() * s)) - 1, y0, h - 1);
        for (int y = y0; y <= y1; ++y) {
            auto* line = reinterpret_cast<QRgb*>(m_overview.scanLine(y));
            std::fill(line + x0, line + x1 + 1, colour);
        }
    };
    // a shade darker than the boxes, so pale categories still read as blocks; few distinct fills
    std::unordered_map<QRgb, QRgb> darker;
    for (OpId v : m_shown) {
        const QRgb fill = m_fill[static_cast<size_t>(v)];
        auto it = darker.find(fill);
        if (it == darker.end()) it = darker.emplace(fill, QColor::fromRgb(fill).darker(115).rgb() | 0xff000000u).first;
        paintBlock(v, it->second);
    }
    if (m_selected >= 0 && !m_rects[static_cast<size_t>(m_selected)].isNull())
        paintBlock(m_selected, palette::accent().rgb());
    return m_overview;
}

void DagNodesItem::paintOverview(QPainter* p, double lod) {
    p->setRenderHint(QPainter::SmoothPixmapTransform, false);   // about 1:1, and crisp when enlarged
    p->drawImage(m_bounds, overview(lod));
    if (m_selected < 0 || m_rects[static_cast<size_t>(m_selected)].isNull()) return;
    // the selection stays findable at any zoom: a ring of constant screen size
    QPen ring(palette::accent(), 2);
    ring.setCosmetic(true);
    p->setPen(ring);
    p->setBrush(Qt::NoBrush);
    const double r = 8 / std::max(1e-6, p->worldTransform().m11());
    p->drawEllipse(m_rects[static_cast<size_t>(m_selected)].center(), r, r);
}

void DagNodesItem::paintNode(QPainter* p, OpId v, double lod) const {
    const QRectF r = m_rects[static_cast<size_t>(v)];
    const bool selected = v == m_selected, neighbour = m_neighbour[static_cast<size_t>(v)] != 0;
    QColor fill = QColor::fromRgb(m_fill[static_cast<size_t>(v)]);
    if (m_selected >= 0 && !selected && !neighbour) fill = dimmed(fill);
    if (lod * r.height() < 6) {   // a few pixels: a block is all the eye can use
        p->fillRect(r, selected ? palette::accent() : fill);
        return;
    }
    if (selected)
        p->setPen(QPen(palette::accent(), 3));
    else if (neighbour)
        p->setPen(QPen(QColor(0x2b, 0x2f, 0x36), 1.6));
    else
        p->setPen(QPen(fill.darker(140), 1));
    p->setBrush(fill);
    p->drawRoundedRect(r, 4, 4);
    if (m_pins.pinned(v)) paintPin(*p, r.topLeft() + QPointF(1, 1), 4, m_pins.of(v));
    if (lod < kTextLod) return;
    QStringList lines = labelLines(v);
    const bool two = lines.size() > 1 && lod * r.height() >= 30;
    QFont f = p->font();
    f.setBold(true);
    const QRectF text = r.adjusted(4, 1, -4, -1);
    auto fits = [&](const QString& s) {   // "#62 BatchNormalization" shrinks before it is cut
        for (const double points : {8.0, 7.0, 6.5}) {
            f.setPointSizeF(points);
            if (QFontMetricsF(f).horizontalAdvance(s) <= text.width()) return true;
        }
        return false;
    };
    // the type matters more than the order badge (which the tooltip and the details panel keep)
    if (!fits(lines[0]) && lines[0].startsWith(QLatin1Char('#')) && !m_graph->op(v).type.empty()) {
        lines[0] = QString::fromStdString(m_graph->op(v).type);
        fits(lines[0]);
    }
    p->setFont(f);
    p->setPen(palette::textOn(fill));
    p->drawText(two ? text.adjusted(0, 0, 0, -text.height() / 2) : text,
                two ? (Qt::AlignHCenter | Qt::AlignBottom) : Qt::AlignCenter,
                elideAtWords(lines[0], QFontMetricsF(f), text.width()));
    if (two) {
        f.setBold(false);
        for (const double points : {7.0, 6.5, 6.0}) {
            f.setPointSizeF(points);
            if (QFontMetricsF(f).horizontalAdvance(lines[1]) <= text.width()) break;
        }
        p->setFont(f);
        p->drawText(text.adjusted(0, text.height() / 2, 0, 0), Qt::AlignHCenter | Qt::AlignTop,
                    elideAtWords(lines[1], QFontMetricsF(f), text.width()));
    }
    if (const int folded = m_folded.empty() ? 0 : m_folded[static_cast<size_t>(v)];
        folded > 0) {   // a tab: parameters folded in
        const QRectF tab(r.right() - 22, r.top() - 7, 24, 12);
        p->setPen(QPen(QColor(0x8a, 0x93, 0xa0), 0.8));
        p->setBrush(QColor(0xfb, 0xfb, 0xfc));
        p->drawRoundedRect(tab, 5, 5);
        f.setPointSizeF(6.5);
        p->setFont(f);
        p->setPen(QColor(0x4a, 0x52, 0x5c));
        p->drawText(tab, Qt::AlignCenter, QStringLiteral("+%1").arg(folded));
    }
}

void DagNodesItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    const QRectF exposed = option->exposedRect;
    const double overviewScale = kOverviewSide / std::max(m_bounds.width(), m_bounds.height());
    if (m_shown.size() > 2000 && (lod <= overviewScale || m_grid.countNear(exposed) > kDirectLimit)) {
        paintOverview(p, lod);
        return;
    }
    p->setRenderHint(QPainter::Antialiasing, lod > 0.6);
    m_grid.forEachNear(exposed, [&](int v) {
        if (m_rects[static_cast<size_t>(v)].intersects(exposed) && v != m_selected) paintNode(p, v, lod);
    });
    if (m_selected >= 0 && !m_rects[static_cast<size_t>(m_selected)].isNull())
        paintNode(p, m_selected, lod);   // on top
}

// ---- edges ----

constexpr int kBoxedEdges = 200000;   // above: no per-edge boxes, the exposed nodes' edges are drawn
constexpr long long kEdgeBudget = 30000;
constexpr double kLongEdge =
    100;   // scene units: longer than the gap between two adjacent rows   // more edges exposed: only the selection's are drawn

DagEdgesItem::DagEdgesItem(const DagLayout& layout, const DagNodesItem* nodes)
    : m_layout(layout), m_nodes(nodes), m_bounds(layout.bounds.adjusted(-10, -10, 10, 10)) {
    setFlag(ItemUsesExtendedStyleOption);
    setZValue(0);
    const int edges = layout.edgeCount();
    if (edges <= kBoxedEdges) {
        m_boxes.reserve(static_cast<size_t>(edges));
        for (int i = 0; i < edges; ++i) m_boxes.push_back(layout.edgeBox(i).adjusted(-6, -6, 6, 6));
    }
    const size_t n = layout.nodes.size();
    m_isHighlighted.assign(static_cast<size_t>(edges), 0);
    m_exposedNode.assign(n, 0);
}

std::vector<int> DagEdgesItem::edgesOf(OpId v) const {
    if (v < 0 || static_cast<size_t>(v) + 1 >= m_layout.outStart.size()) return {};
    std::vector<int> out;
    for (int i = m_layout.outStart[static_cast<size_t>(v)]; i < m_layout.outStart[static_cast<size_t>(v) + 1]; ++i)
        out.push_back(i);
    out.insert(out.end(), m_layout.inEdges.begin() + m_layout.inStart[static_cast<size_t>(v)],
               m_layout.inEdges.begin() + m_layout.inStart[static_cast<size_t>(v) + 1]);
    return out;
}

void DagEdgesItem::setSelection(OpId v) {
    for (int i : m_highlighted) m_isHighlighted[static_cast<size_t>(i)] = 0;
    m_highlighted = edgesOf(v);
    for (int i : m_highlighted) m_isHighlighted[static_cast<size_t>(i)] = 1;
    update();
}

// the edges worth drawing in `exposed`, without the highlighted ones; empty when there are too many
std::vector<int> DagEdgesItem::exposedEdges(const QRectF& exposed) const {
    std::vector<int> out;
    const int edges = m_layout.edgeCount();
    if (!m_boxes.empty() || edges == 0) {
        for (int i = 0; i < edges; ++i)
            if (!m_isHighlighted[static_cast<size_t>(i)] && m_boxes[static_cast<size_t>(i)].intersects(exposed))
                out.push_back(i);
        return out;
    }
    // millions of edges: those with an end on screen (an edge passing by with both ends off screen is left out)
    std::vector<OpId> shown;
    long long degree = 0;
    m_nodes->grid().forEachNear(exposed, [&](int v) {
        if (!m_nodes->rectOf(v).intersects(exposed)) return;
        shown.push_back(v);
        m_exposedNode[static_cast<size_t>(v)] = 1;
        degree += m_layout.outStart[static_cast<size_t>(v) + 1] - m_layout.outStart[static_cast<size_t>(v)] +
            m_layout.inStart[static_cast<size_t>(v) + 1] - m_layout.inStart[static_cast<size_t>(v)];
    });
    if (degree <= kEdgeBudget) {
        for (OpId v : shown) {
            for (int i = m_layout.outStart[static_cast<size_t>(v)]; i < m_layout.outStart[static_cast<size_t>(v) + 1];
                 ++i)
                if (!m_isHighlighted[static_cast<size_t>(i)]) out.push_back(i);
            for (int k = m_layout.inStart[static_cast<size_t>(v)]; k < m_layout.inStart[static_cast<size_t>(v) + 1];
                 ++k) {
                const int i = m_layout.inEdges[static_cast<size_t>(k)];
                if (!m_isHighlighted[static_cast<size_t>(i)] &&
                    !m_exposedNode[static_cast<size_t>(m_layout.edgeEnds[static_cast<size_t>(i)].first)])
                    out.push_back(i);
            }
        }
    }
    for (OpId v : shown) m_exposedNode[static_cast<size_t>(v)] = 0;
    return out;
}

void DagEdgesItem::drawEdge(QPainter* p, int i, bool arrow) const {
    m_layout.edgeCurve(i, m_curve);
    const auto& pts = m_curve;
    const int last = static_cast<int>(pts.size()) - 1;
    QPainterPath path(pts[0]);
    for (int k = 1; k + 2 <= last; k += 3)
        path.cubicTo(pts[static_cast<size_t>(k)], pts[static_cast<size_t>(k) + 1], pts[static_cast<size_t>(k) + 2]);
    p->drawPath(path);
    if (!arrow) return;
    // the arrow follows the last segment's tangent (cheap: no path length sampling)
    const QPointF tip = pts[static_cast<size_t>(last)];
    const QPointF d = tip - arrowBase(pts, 0, last);
    const QPointF dir = d / std::max(1e-9, std::hypot(d.x(), d.y()));
    const QPointF normal(-dir.y(), dir.x());
    const QPointF head[3] = {tip, tip - dir * 8 + normal * 3.5, tip - dir * 8 - normal * 3.5};
    p->save();
    p->setBrush(p->pen().color());
    p->setPen(Qt::NoPen);
    p->drawPolygon(head, 3);
    p->restore();
}

void DagEdgesItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    const QRectF exposed = option->exposedRect;
    const int edges = m_layout.edgeCount();
    const bool selection = !m_highlighted.empty();
    const QColor base(0x70, 0x78, 0x85, selection ? 110 : 255);
    std::vector<int> visible;
    if (!(lod < 0.25 && edges > 5000))
        visible = exposedEdges(exposed);          // else a grey hairball that costs 100s of ms: nodes only
    if (lod < 0.25 || visible.size() > 20000) {   // far away: faint straight chords
        p->setPen(QPen(QColor(0x70, 0x78, 0x85, edges > 3000 ? 28 : 90), 0));
        std::vector<QLineF> chords;
        chords.reserve(visible.size());
        for (int i : visible) chords.emplace_back(m_layout.edgeFirst(i), m_layout.edgeLast(i));
        p->drawLines(chords.data(), static_cast<int>(chords.size()));
    } else {
        p->setRenderHint(QPainter::Antialiasing, lod > 0.4);
        QPen pen(base, 1);
        pen.setCosmetic(true);
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        // the layered layout does not route long edges around nodes: drawn fainter, they stay behind
        const bool fadeLong = m_layout.edgeStart.empty();
        QPen faint(QColor(0x70, 0x78, 0x85, selection ? 50 : 90), 1);
        faint.setCosmetic(true);
        for (int i : visible) {
            const bool isLong = fadeLong && std::abs(m_layout.edgeLast(i).y() - m_layout.edgeFirst(i).y()) > kLongEdge;
            p->setPen(isLong ? faint : pen);
            drawEdge(p, i, lod >= 0.5);
        }
    }
    if (!selection) return;
    p->setRenderHint(QPainter::Antialiasing, true);
    QPen strong(palette::accent(), 2);
    strong.setCosmetic(true);
    p->setPen(strong);
    p->setBrush(Qt::NoBrush);
    for (int i : m_highlighted)
        if (m_layout.edgeBox(i).adjusted(-6, -6, 6, 6).intersects(exposed)) drawEdge(p, i, lod >= 0.3);
}

}   // namespace sl::gui
