// SPDX-License-Identifier: MIT
#pragma once
// DAG layout as plain data, computed off the GUI thread: Graphviz dot (gvc) on one dedicated layout
// thread for graphs up to kDotLimit ops, our own fast layered layout above (dot needs tens of
// seconds at 10k ops). Folded ops (weights and constants, core/graph/opcategory.h) are not laid out.
// Edges are stored flat (one array of Bézier points for all of them): 100k QPainterPaths cost GBs.
#include "core/graph/graph.h"

#include "widgets/session/pooltask.h"

#include <QPointF>
#include <QRectF>
#include <QString>

#include <memory>
#include <vector>

namespace sl::gui {

struct DagLayout {
    std::vector<QRectF> nodes;                   ///< per op, scene coordinates (y down); a null rect for a folded op
    std::vector<char> folded;                    ///< per op: folded into its consumers, not laid out
    std::vector<std::vector<OpId>> foldedInto;   ///< per op: the ops folded into it (sl::foldedInto)
    /// One edge per distinct op-to-op edge between shown ops, sorted by source op.
    std::vector<std::pair<OpId, OpId>> edgeEnds;
    /// Routed edges (dot): edge i is a cubic Bézier chain edgePoints[edgeStart[i]] (start), then
    /// (control, control, end) triples up to edgeStart[i + 1]. Empty for the layered layout, whose
    /// edges are one S-curve from the source's bottom to the target's top, computed when drawn
    /// (millions of edges would otherwise cost hundreds of MB).
    std::vector<QPointF> edgePoints;
    std::vector<int> edgeStart;
    /// Edge index, built on the layout thread (indexEdges): op v's out-edges are
    /// [outStart[v], outStart[v + 1]); its in-edges inEdges[inStart[v] .. inStart[v + 1]).
    std::vector<int> outStart, inStart, inEdges;
    QRectF bounds;
    bool usedGraphviz = false;
    QString notice;   ///< shown to the user (e.g. why dot was not used)
    double seconds = 0;

    int edgeCount() const { return static_cast<int>(edgeEnds.size()); }
    /// Edge i's Bézier chain (start, then control, control, end triples) into `out`.
    void edgeCurve(int i, std::vector<QPointF>& out) const;
    QPointF edgeFirst(int i) const;
    QPointF edgeLast(int i) const;
    /// The box around edge i's curve.
    QRectF edgeBox(int i) const;
    /// Fills outStart, inStart and inEdges from edgeEnds.
    void indexEdges();
    /// The most shown nodes that share one rank (the same centre y): how wide the drawing gets.
    int widestRank() const;
    int shownCount() const;
};

/// dot above this many ops is too slow (20-45 s at 10k ops)
inline constexpr int kDotLimit = 3000;
/// dot's time grows with the virtual nodes of long edges too: ops + sum(edge span - 1)
inline constexpr long long kDotWorkLimit = 4000;
/// ops + virtual nodes of a longest-path layering, an estimate of dot's work
long long dotWorkEstimate(const Graph& g, const std::vector<char>& folded = {});

/// Lays out on the dedicated layout thread (it holds the graph until done), then calls `done` on
/// `context`'s thread (widgets/session/pooltask.h). `foldParameters`: fold sl::foldableOps into their consumers.
void layoutInBackground(QObject* context, std::shared_ptr<const Graph> g, bool foldParameters,
                        std::function<void(Outcome<DagLayout>)> done);
/// Barycentre sweeps (down then up) the layered layout orders its rows with against crossings.
inline constexpr int kCrossingRounds = 3;
/// Synchronous versions (tests, and the worker itself); `folded` per op, empty for none.
DagLayout layoutWithDot(const Graph& g, const std::vector<char>& folded = {});
DagLayout layoutLayered(const Graph& g, const std::vector<char>& folded = {}, int crossingRounds = kCrossingRounds);
/// What layoutInBackground computes, synchronously.
DagLayout layoutGraph(const Graph& g, bool foldParameters);

}   // namespace sl::gui
