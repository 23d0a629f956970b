// SPDX-License-Identifier: MIT
#include "widgets/views/daglayout.h"

#include "widgets/session/units.h"

#include "core/graph/aliasreads.h"
#include "core/graph/opcategory.h"
#include "core/io/graphvizlock.h"

#include <QElapsedTimer>
#include <QThreadPool>

#include <graphviz/gvc.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>

namespace sl::gui {
namespace {

constexpr double kNodeW = 132, kNodeH = 34;   // points; labels are painted by the view

// cgraph is not thread safe: all layouts run here, one at a time, and also hold the process mutex
QThreadPool& layoutThread() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(1);
        p->setExpiryTimeout(-1);
        return p;
    }();
    return *pool;
}

constexpr int kCountedEdges = 1'000'000;   // above: the sweeps run unchecked (counting costs more than they gain)

/// One Graphviz context for the process, made on first use under graphvizMutex(): gvContext()
/// loads the plugin configuration, and gvFreeContext() does not free all of it (Graphviz 2.42),
/// so a context per layout leaked a few KiB each time (LeakSanitizer) and re-read the plugins.
GVC_t* sharedGraphvizContext() {
    static GVC_t* gvc = gvContext();
    return gvc;
}

char* cstr(const char* s) {
    return const_cast<char*>(s);   // the cgraph API is not const-correct
}

bool isFolded(const std::vector<char>& folded, OpId v) { return !folded.empty() && folded[static_cast<size_t>(v)]; }

// the layered layout's edge: bottom centre of `a` to top centre of `b`, vertical at both ends
void sCurve(const QRectF& a, const QRectF& b, std::vector<QPointF>& out) {
    const QPointF from(a.center().x(), a.bottom()), to(b.center().x(), b.top());
    const double mid = (from.y() + to.y()) / 2;
    out.assign({from, QPointF(from.x(), mid), QPointF(to.x(), mid), to});
}

void addRoutedStraightEdge(DagLayout& out, OpId a, OpId b) {
    std::vector<QPointF> curve;
    sCurve(out.nodes[static_cast<size_t>(a)], out.nodes[static_cast<size_t>(b)], curve);
    out.edgePoints.insert(out.edgePoints.end(), curve.begin(), curve.end());
    out.edgeStart.push_back(static_cast<int>(out.edgePoints.size()));
    out.edgeEnds.emplace_back(a, b);
}

// longest-path layers over the shown ops; sources then sink to just above their first consumer,
// so an unfolded constant does not sit on the top row with a long edge down
std::vector<int> layers(const Graph& g, const std::vector<char>& folded) {
    std::vector<int> layer(static_cast<size_t>(g.opCount()), 0);
    for (OpId v : g.topologicalOrder())
        for (OpId u : g.predecessors(v))
            if (!isFolded(folded, u))
                layer[static_cast<size_t>(v)] =
                    std::max(layer[static_cast<size_t>(v)], layer[static_cast<size_t>(u)] + 1);
    for (OpId v = 0; v < g.opCount(); ++v) {
        const auto preds = g.predecessors(v);
        const bool source = std::all_of(preds.begin(), preds.end(), [&](OpId u) { return isFolded(folded, u); });
        if (!source || g.successors(v).empty()) continue;
        int first = std::numeric_limits<int>::max();
        for (OpId s : g.successors(v)) first = std::min(first, layer[static_cast<size_t>(s)]);
        layer[static_cast<size_t>(v)] = std::max(layer[static_cast<size_t>(v)], first - 1);
    }
    return layer;
}

// crossings among the edges between adjacent rows: per row pair, edges sorted by their upper end,
// then inversions of their lower ends counted with a Fenwick tree (O(E log E))
long long adjacentCrossings(const Graph& g, const std::vector<char>& folded, const std::vector<int>& layer,
                            const std::vector<std::vector<OpId>>& rows, const std::vector<int>& index) {
    long long total = 0;
    std::vector<std::pair<int, int>> edges;
    std::vector<int> tree;
    for (size_t r = 0; r + 1 < rows.size(); ++r) {
        edges.clear();
        for (OpId v : rows[r])
            for (OpId w : g.successors(v))
                if (!isFolded(folded, w) && layer[static_cast<size_t>(w)] == static_cast<int>(r) + 1)
                    edges.emplace_back(index[static_cast<size_t>(v)], index[static_cast<size_t>(w)]);
        std::sort(edges.begin(), edges.end());
        tree.assign(rows[r + 1].size() + 1, 0);
        for (size_t k = 0; k < edges.size(); ++k) {
            long long atMost = 0;   // earlier edges whose lower end is at or left of this one's
            for (int i = edges[k].second + 1; i > 0; i -= i & -i) atMost += tree[static_cast<size_t>(i)];
            total += static_cast<long long>(k) - atMost;
            for (auto i = static_cast<size_t>(edges[k].second) + 1; i < tree.size(); i += i & (~i + 1)) ++tree[i];
        }
    }
    return total;
}

// barycentre sweeps (down over predecessors, up over successors) against crossings, keeping the
// best order seen (the initial topological order is sometimes better: generated layered graphs)
// while counting is affordable
void reduceCrossings(const Graph& g, const std::vector<char>& folded, const std::vector<int>& layer, int rounds,
                     std::vector<std::vector<OpId>>& rows, std::vector<double>& pos) {
    std::vector<int> index(pos.size(), 0);
    auto place = [&](const std::vector<OpId>& row) {
        const double offset = -static_cast<double>(row.size()) / 2.0;   // rows centred on x = 0
        for (size_t i = 0; i < row.size(); ++i) {
            pos[static_cast<size_t>(row[i])] = offset + static_cast<double>(i);
            index[static_cast<size_t>(row[i])] = static_cast<int>(i);
        }
    };
    for (auto& row : rows) place(row);
    std::vector<double> key;
    std::vector<size_t> idx;
    std::vector<OpId> sorted;
    auto sweepRow = [&](std::vector<OpId>& row, bool down) {
        key.assign(row.size(), 0);
        for (size_t i = 0; i < row.size(); ++i) {
            const auto nbrs = down ? g.predecessors(row[i]) : g.successors(row[i]);
            double sum = 0;
            int count = 0;
            for (OpId u : nbrs)
                if (!isFolded(folded, u)) {
                    sum += pos[static_cast<size_t>(u)];
                    ++count;
                }
            key[i] = count ? sum / count : pos[static_cast<size_t>(row[i])];
        }
        idx.resize(row.size());
        std::iota(idx.begin(), idx.end(), 0);
        std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
        sorted.clear();
        for (size_t i : idx) sorted.push_back(row[i]);
        row.swap(sorted);
        place(row);
    };
    const bool counting = g.edgeCount() <= kCountedEdges;
    long long best = counting ? adjacentCrossings(g, folded, layer, rows, index) : 0;
    std::vector<std::vector<OpId>> bestRows = counting ? rows : std::vector<std::vector<OpId>>{};
    for (int round = 0; round < rounds; ++round) {
        for (auto& row : rows) sweepRow(row, true);
        for (auto it = rows.rbegin(); it != rows.rend(); ++it) sweepRow(*it, false);
        for (auto& row : rows) sweepRow(row, true);
        if (!counting) continue;
        if (const long long now = adjacentCrossings(g, folded, layer, rows, index); now < best) {
            best = now;
            bestRows = rows;
        }
    }
    if (!counting) return;
    rows = std::move(bestRows);
    for (auto& row : rows) place(row);
}

}   // namespace

void DagLayout::edgeCurve(int i, std::vector<QPointF>& out) const {
    const auto e = static_cast<size_t>(i);
    if (edgeStart.empty()) {
        sCurve(nodes[static_cast<size_t>(edgeEnds[e].first)], nodes[static_cast<size_t>(edgeEnds[e].second)], out);
        return;
    }
    out.assign(edgePoints.begin() + edgeStart[e], edgePoints.begin() + edgeStart[e + 1]);
}

QPointF DagLayout::edgeFirst(int i) const {
    const auto e = static_cast<size_t>(i);
    if (!edgeStart.empty()) return edgePoints[static_cast<size_t>(edgeStart[e])];
    const QRectF& a = nodes[static_cast<size_t>(edgeEnds[e].first)];
    return {a.center().x(), a.bottom()};
}

QPointF DagLayout::edgeLast(int i) const {
    const auto e = static_cast<size_t>(i);
    if (!edgeStart.empty()) return edgePoints[static_cast<size_t>(edgeStart[e + 1] - 1)];
    const QRectF& b = nodes[static_cast<size_t>(edgeEnds[e].second)];
    return {b.center().x(), b.top()};
}

QRectF DagLayout::edgeBox(int i) const {
    const auto e = static_cast<size_t>(i);
    if (edgeStart.empty()) return QRectF(edgeFirst(i), edgeLast(i)).normalized();
    double x0 = kInfinity, y0 = kInfinity, x1 = -kInfinity, y1 = -kInfinity;
    for (int k = edgeStart[e]; k < edgeStart[e + 1]; ++k) {
        const QPointF& q = edgePoints[static_cast<size_t>(k)];
        x0 = std::min(x0, q.x()), y0 = std::min(y0, q.y()), x1 = std::max(x1, q.x()), y1 = std::max(y1, q.y());
    }
    return QRectF(QPointF(x0, y0), QPointF(x1, y1));
}

void DagLayout::indexEdges() {
    const size_t n = nodes.size();
    outStart.assign(n + 1, 0);
    inStart.assign(n + 1, 0);
    for (auto [a, b] : edgeEnds) ++outStart[static_cast<size_t>(a) + 1], ++inStart[static_cast<size_t>(b) + 1];
    for (size_t v = 1; v <= n; ++v) outStart[v] += outStart[v - 1], inStart[v] += inStart[v - 1];
    inEdges.resize(edgeEnds.size());
    std::vector<int> fill(inStart.begin(), inStart.end() - 1);
    for (size_t i = 0; i < edgeEnds.size(); ++i)
        inEdges[static_cast<size_t>(fill[static_cast<size_t>(edgeEnds[i].second)]++)] = static_cast<int>(i);
}

int DagLayout::widestRank() const {
    std::map<long long, int> perRank;
    int widest = 0;
    for (size_t v = 0; v < nodes.size(); ++v)
        if (!nodes[v].isNull()) widest = std::max(widest, ++perRank[std::llround(nodes[v].center().y())]);
    return widest;
}

int DagLayout::shownCount() const {
    return static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [](const QRectF& r) { return !r.isNull(); }));
}

DagLayout layoutWithDot(const Graph& g, const std::vector<char>& folded) {
    QElapsedTimer clock;
    clock.start();
    DagLayout out;
    out.folded = folded.empty() ? std::vector<char>(static_cast<size_t>(g.opCount()), 0) : folded;
    const int n = g.opCount();
    std::lock_guard lock(graphvizMutex());
    GVC_t* gvc = sharedGraphvizContext();
    Agraph_t* ag = agopen(cstr("G"), Agdirected, nullptr);
    agattr(ag, AGRAPH, cstr("rankdir"), cstr("TB"));
    agattr(ag, AGRAPH, cstr("nodesep"), cstr("0.25"));
    agattr(ag, AGRAPH, cstr("ranksep"), cstr("0.4"));
    agattr(ag, AGNODE, cstr("shape"), cstr("box"));
    agattr(ag, AGNODE, cstr("fixedsize"), cstr("true"));
    agattr(ag, AGNODE, cstr("label"), cstr(""));
    const std::string w = std::to_string(kNodeW / 72.0), h = std::to_string(kNodeH / 72.0);
    agattr(ag, AGNODE, cstr("width"), cstr(w.c_str()));
    agattr(ag, AGNODE, cstr("height"), cstr(h.c_str()));
    std::vector<Agnode_t*> nodes(static_cast<size_t>(n), nullptr);
    for (OpId v = 0; v < n; ++v) {
        if (isFolded(folded, v)) continue;
        const std::string name = std::to_string(v);
        nodes[static_cast<size_t>(v)] = agnode(ag, cstr(name.c_str()), 1);
    }
    for (OpId v = 0; v < n; ++v)
        for (OpId s : g.successors(v)) {
            if (isFolded(folded, v) || isFolded(folded, s)) continue;
            agedge(ag, nodes[static_cast<size_t>(v)], nodes[static_cast<size_t>(s)], nullptr, 1);
            out.edgeEnds.emplace_back(v, s);
        }
    if (gvLayout(gvc, ag, "dot") != 0) {
        agclose(ag);
        DagLayout fallback = layoutLayered(g, folded);
        fallback.notice = QStringLiteral("Graphviz dot is unavailable; showing the fast layered layout");
        return fallback;
    }
    const boxf bb = GD_bb(ag);
    auto toQt = [&](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
    out.nodes.assign(static_cast<size_t>(n), QRectF());
    for (OpId v = 0; v < n; ++v) {
        Agnode_t* an = nodes[static_cast<size_t>(v)];
        if (!an) continue;
        const QPointF c = toQt(ND_coord(an));
        const double wp = ND_width(an) * 72.0, hp = ND_height(an) * 72.0;
        out.nodes[static_cast<size_t>(v)] = QRectF(c.x() - wp / 2, c.y() - hp / 2, wp, hp);
    }
    const auto ends = out.edgeEnds;
    out.edgeEnds.clear();
    out.edgeStart.assign(1, 0);
    for (auto [a, b] : ends) {
        Agedge_t* e = agedge(ag, nodes[static_cast<size_t>(a)], nodes[static_cast<size_t>(b)], nullptr, 0);
        const splines* spl = e ? ED_spl(e) : nullptr;
        const bezier* bz = spl && spl->size > 0 ? &spl->list[0] : nullptr;
        if (!bz || bz->size < 4) {
            addRoutedStraightEdge(out, a, b);
            continue;
        }
        // dot's control points (a multiple of 3 plus 1), then the arrow tip it leaves out
        const int count = 1 + (static_cast<int>(bz->size) - 1) / 3 * 3;
        for (int j = 0; j < count; ++j) out.edgePoints.push_back(toQt(bz->list[j]));
        if (bz->eflag) {
            const QPointF last = out.edgePoints.back(), tip = toQt(bz->ep);
            out.edgePoints.insert(out.edgePoints.end(), {last, tip, tip});
        }
        out.edgeStart.push_back(static_cast<int>(out.edgePoints.size()));
        out.edgeEnds.emplace_back(a, b);
    }
    out.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    gvFreeLayout(gvc, ag);
    agclose(ag);
    out.usedGraphviz = true;
    out.indexEdges();
    out.seconds = clock.elapsed() / 1000.0;
    return out;
}

DagLayout layoutLayered(const Graph& g, const std::vector<char>& folded, int crossingRounds) {
    QElapsedTimer clock;
    clock.start();
    DagLayout out;
    out.folded = folded.empty() ? std::vector<char>(static_cast<size_t>(g.opCount()), 0) : folded;
    const int n = g.opCount();
    const std::vector<int> layer = layers(g, folded);
    int layerCount = 0;
    for (OpId v = 0; v < n; ++v)
        if (!isFolded(folded, v)) layerCount = std::max(layerCount, layer[static_cast<size_t>(v)] + 1);
    std::vector<std::vector<OpId>> rows(static_cast<size_t>(layerCount));
    for (OpId v : g.topologicalOrder())
        if (!isFolded(folded, v)) rows[static_cast<size_t>(layer[static_cast<size_t>(v)])].push_back(v);
    std::vector<double> pos(static_cast<size_t>(n), 0);
    reduceCrossings(g, folded, layer, crossingRounds, rows, pos);
    size_t widest = 1;
    for (const auto& row : rows) widest = std::max(widest, row.size());
    const double dx = kNodeW + 18, dy = kNodeH + 40;
    const double half = static_cast<double>(widest) / 2.0;
    out.nodes.assign(static_cast<size_t>(n), QRectF());
    for (OpId v = 0; v < n; ++v)
        if (!isFolded(folded, v))
            out.nodes[static_cast<size_t>(v)] =
                QRectF((pos[static_cast<size_t>(v)] + half) * dx, layer[static_cast<size_t>(v)] * dy, kNodeW, kNodeH);
    out.edgeEnds.reserve(static_cast<size_t>(g.edgeCount()));
    for (OpId v = 0; v < n; ++v)
        for (OpId s : g.successors(v))
            if (!isFolded(folded, v) && !isFolded(folded, s)) out.edgeEnds.emplace_back(v, s);
    out.bounds = QRectF(0, 0, static_cast<double>(widest) * dx, layerCount * dy);
    out.indexEdges();
    out.seconds = clock.elapsed() / 1000.0;
    return out;
}

long long dotWorkEstimate(const Graph& g, const std::vector<char>& folded) {
    const std::vector<int> layer = layers(g, folded);
    long long work = 0;
    for (OpId v = 0; v < g.opCount(); ++v) {
        if (isFolded(folded, v)) continue;
        ++work;
        for (OpId s : g.successors(v))
            work += std::max(0, layer[static_cast<size_t>(s)] - layer[static_cast<size_t>(v)] - 1);
    }
    return work;
}

DagLayout layoutGraph(const Graph& full, bool foldParameters) {
    // a read through a folded op is drawn once, along the path through that op
    const std::optional<Graph> drawn =
        hasAliasReads(full) ? std::optional<Graph>(withoutAliasReads(full)) : std::nullopt;
    const Graph& g = drawn ? *drawn : full;
    std::vector<char> folded = foldParameters ? foldableOps(g) : std::vector<char>(static_cast<size_t>(g.opCount()), 0);
    auto into = foldedInto(g, folded);
    const long long work = dotWorkEstimate(g, folded);
    const int shown = static_cast<int>(std::count(folded.begin(), folded.end(), 0));
    if (shown <= kDotLimit && work <= kDotWorkLimit) {
        DagLayout l = layoutWithDot(g, folded);
        l.foldedInto = std::move(into);
        return l;
    }
    DagLayout l = layoutLayered(g, folded);
    l.foldedInto = std::move(into);
    l.notice = shown > kDotLimit
        ? QStringLiteral("%1 ops: fast layered layout (Graphviz dot is used up to %2 ops)")
              .arg(formatCount(g.opCount()), formatCount(kDotLimit))
        : QStringLiteral("%1 ops with many long edges: fast layered layout (dot would take too long)")
              .arg(formatCount(g.opCount()));
    if (g.edgeCount() > 5000) l.notice += QStringLiteral("; edges show when you zoom in");
    return l;
}

void layoutInBackground(QObject* context, std::shared_ptr<const Graph> g, bool foldParameters,
                        std::function<void(Outcome<DagLayout>)> done) {
    runOnPool(
        layoutThread(), context, [g = std::move(g), foldParameters] { return layoutGraph(*g, foldParameters); },
        std::move(done));
}

}   // namespace sl::gui
