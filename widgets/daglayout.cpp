// SPDX-License-Identifier: MIT
#include "widgets/daglayout.h"

#include "core/io/graphvizlock.h"

#include <QElapsedTimer>
#include <QThreadPool>
#include <QtConcurrent>

#include <graphviz/gvc.h>

#include <algorithm>
#include <numeric>

namespace sl::gui {
namespace {

constexpr double kNodeW = 96, kNodeH = 30;   // points; labels are painted by the view

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

char* cstr(const char* s) {
    return const_cast<char*>(s);   // the cgraph API is not const-correct
}

} // namespace

DagLayout layoutWithDot(const Graph& g) {
    QElapsedTimer clock;
    clock.start();
    DagLayout out;
    const int n = g.opCount();
    std::lock_guard lock(graphvizMutex());
    GVC_t* gvc = gvContext();
    Agraph_t* ag = agopen(cstr("G"), Agdirected, nullptr);
    agattr(ag, AGRAPH, cstr("rankdir"), cstr("TB"));
    agattr(ag, AGRAPH, cstr("nodesep"), cstr("0.25"));
    agattr(ag, AGRAPH, cstr("ranksep"), cstr("0.45"));
    agattr(ag, AGNODE, cstr("shape"), cstr("box"));
    agattr(ag, AGNODE, cstr("fixedsize"), cstr("true"));
    agattr(ag, AGNODE, cstr("label"), cstr(""));
    const std::string w = std::to_string(kNodeW / 72.0), h = std::to_string(kNodeH / 72.0);
    agattr(ag, AGNODE, cstr("width"), cstr(w.c_str()));
    agattr(ag, AGNODE, cstr("height"), cstr(h.c_str()));
    std::vector<Agnode_t*> nodes(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) {
        const std::string name = std::to_string(v);
        nodes[static_cast<size_t>(v)] = agnode(ag, cstr(name.c_str()), 1);
    }
    for (OpId v = 0; v < n; ++v)
        for (OpId s : g.successors(v)) {
            agedge(ag, nodes[static_cast<size_t>(v)], nodes[static_cast<size_t>(s)], nullptr, 1);
            out.edgeEnds.emplace_back(v, s);
        }
    if (gvLayout(gvc, ag, "dot") != 0) {
        agclose(ag);
        gvFreeContext(gvc);
        DagLayout fallback = layoutLayered(g);
        fallback.notice = QStringLiteral("Graphviz dot is unavailable; showing the fast layered layout");
        return fallback;
    }
    const boxf bb = GD_bb(ag);
    auto toQt = [&](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
    out.nodes.resize(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) {
        Agnode_t* an = nodes[static_cast<size_t>(v)];
        const QPointF c = toQt(ND_coord(an));
        const double wp = ND_width(an) * 72.0, hp = ND_height(an) * 72.0;
        out.nodes[static_cast<size_t>(v)] = QRectF(c.x() - wp / 2, c.y() - hp / 2, wp, hp);
    }
    out.edges.reserve(out.edgeEnds.size());
    for (auto [a, b] : out.edgeEnds) {
        Agedge_t* e = agedge(ag, nodes[static_cast<size_t>(a)], nodes[static_cast<size_t>(b)], nullptr, 0);
        QPainterPath path;
        const splines* spl = e ? ED_spl(e) : nullptr;
        if (spl) {
            for (int i = 0; i < static_cast<int>(spl->size); ++i) {
                const bezier& bz = spl->list[i];
                const int count = static_cast<int>(bz.size);
                if (count < 1) continue;
                path.moveTo(toQt(bz.list[0]));
                for (int j = 1; j + 2 < count; j += 3) path.cubicTo(toQt(bz.list[j]), toQt(bz.list[j + 1]), toQt(bz.list[j + 2]));
                if (bz.eflag) path.lineTo(toQt(bz.ep));
            }
        }
        if (path.isEmpty()) {
            path.moveTo(out.nodes[static_cast<size_t>(a)].center());
            path.lineTo(out.nodes[static_cast<size_t>(b)].center());
        }
        out.edges.push_back(path);
    }
    out.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    gvFreeLayout(gvc, ag);
    agclose(ag);
    gvFreeContext(gvc);
    out.usedGraphviz = true;
    out.seconds = clock.elapsed() / 1000.0;
    return out;
}

DagLayout layoutLayered(const Graph& g) {
    QElapsedTimer clock;
    clock.start();
    DagLayout out;
    const int n = g.opCount();
    // longest-path layering, then one barycentre sweep to order each layer
    std::vector<int> layer(static_cast<size_t>(n), 0);
    int layers = 0;
    for (OpId v : g.topologicalOrder()) {
        for (OpId u : g.predecessors(v)) layer[static_cast<size_t>(v)] = std::max(layer[static_cast<size_t>(v)], layer[static_cast<size_t>(u)] + 1);
        layers = std::max(layers, layer[static_cast<size_t>(v)] + 1);
    }
    std::vector<std::vector<OpId>> byLayer(static_cast<size_t>(layers));
    for (OpId v : g.topologicalOrder()) byLayer[static_cast<size_t>(layer[static_cast<size_t>(v)])].push_back(v);
    std::vector<double> pos(static_cast<size_t>(n), 0);
    size_t widest = 1;
    for (auto& row : byLayer) widest = std::max(widest, row.size());
    for (auto& row : byLayer) {
        std::vector<double> key(row.size());
        for (size_t i = 0; i < row.size(); ++i) {
            const auto preds = g.predecessors(row[i]);
            double sum = 0;
            for (OpId u : preds) sum += pos[static_cast<size_t>(u)];
            key[i] = preds.empty() ? static_cast<double>(i) : sum / static_cast<double>(preds.size());
        }
        std::vector<size_t> idx(row.size());
        std::iota(idx.begin(), idx.end(), 0);
        std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
        std::vector<OpId> sorted;
        sorted.reserve(row.size());
        for (size_t i : idx) sorted.push_back(row[i]);
        row.swap(sorted);
        // centre narrow layers under wide ones
        const double offset = (static_cast<double>(widest) - static_cast<double>(row.size())) / 2.0;
        for (size_t i = 0; i < row.size(); ++i) pos[static_cast<size_t>(row[i])] = offset + static_cast<double>(i);
    }
    const double dx = kNodeW + 18, dy = kNodeH + 36;
    out.nodes.resize(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v)
        out.nodes[static_cast<size_t>(v)] = QRectF(pos[static_cast<size_t>(v)] * dx, layer[static_cast<size_t>(v)] * dy, kNodeW, kNodeH);
    for (OpId v = 0; v < n; ++v)
        for (OpId s : g.successors(v)) {
            const QRectF a = out.nodes[static_cast<size_t>(v)], b = out.nodes[static_cast<size_t>(s)];
            QPainterPath path(QPointF(a.center().x(), a.bottom()));
            const double mid = (a.bottom() + b.top()) / 2;
            path.cubicTo(QPointF(a.center().x(), mid), QPointF(b.center().x(), mid), QPointF(b.center().x(), b.top()));
            out.edges.push_back(path);
            out.edgeEnds.emplace_back(v, s);
        }
    out.bounds = QRectF(0, 0, static_cast<double>(widest) * dx, layers * dy);
    out.seconds = clock.elapsed() / 1000.0;
    return out;
}

long long dotWorkEstimate(const Graph& g) {
    std::vector<int> layer(static_cast<size_t>(g.opCount()), 0);
    long long work = g.opCount();
    for (OpId v : g.topologicalOrder())
        for (OpId u : g.predecessors(v)) layer[static_cast<size_t>(v)] = std::max(layer[static_cast<size_t>(v)], layer[static_cast<size_t>(u)] + 1);
    for (OpId v = 0; v < g.opCount(); ++v)
        for (OpId s : g.successors(v)) work += std::max(0, layer[static_cast<size_t>(s)] - layer[static_cast<size_t>(v)] - 1);
    return work;
}

QFuture<DagLayout> layoutAsync(std::shared_ptr<const Graph> g) {
    return QtConcurrent::run(&layoutThread(), [g] {
        const long long work = dotWorkEstimate(*g);
        if (g->opCount() <= kDotLimit && work <= kDotWorkLimit) {
            DagLayout l = layoutWithDot(*g);
            l.dotWork = work;
            return l;
        }
        DagLayout l = layoutLayered(*g);
        l.dotWork = work;
        l.notice = g->opCount() > kDotLimit
                       ? QStringLiteral("%1 ops: fast layered layout (Graphviz dot is used up to %2 ops)").arg(g->opCount()).arg(kDotLimit)
                       : QStringLiteral("%1 ops with many long edges: fast layered layout (dot would take too long)").arg(g->opCount());
        if (g->edgeCount() > 5000) l.notice += QStringLiteral("; edges show when you zoom in");
        return l;
    });
}

} // namespace sl::gui
