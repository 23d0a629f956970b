// SPDX-License-Identifier: MIT
#pragma once
// DAG layout as plain data, computed off the GUI thread: Graphviz dot (gvc) on one dedicated layout
// thread for graphs up to kDotLimit ops, our own fast layered layout above (dot needs tens of
// seconds at 10k ops).
#include "core/graph/graph.h"

#include <QFuture>
#include <QPainterPath>
#include <QRectF>
#include <QString>

#include <memory>
#include <vector>

namespace sl::gui {

struct DagLayout {
    std::vector<QRectF> nodes;        ///< per op, scene coordinates (y down)
    std::vector<QPainterPath> edges;  ///< one spline per distinct op-to-op edge
    std::vector<std::pair<OpId, OpId>> edgeEnds;
    QRectF bounds;
    bool usedGraphviz = false;
    QString notice;                   ///< shown to the user (e.g. why dot was not used)
    double seconds = 0;
    long long dotWork = 0;            ///< ops + virtual nodes dot would route long edges through
};

/// dot above this many ops is too slow (20-45 s at 10k ops)
inline constexpr int kDotLimit = 3000;
/// dot's time grows with the virtual nodes of long edges too: ops + sum(edge span - 1)
inline constexpr long long kDotWorkLimit = 4000;
/// ops + virtual nodes of a longest-path layering, an estimate of dot's work
long long dotWorkEstimate(const Graph& g);

/// Lays out on the dedicated layout thread; the graph must stay alive (shared_ptr) until done.
QFuture<DagLayout> layoutAsync(std::shared_ptr<const Graph> g);
/// Synchronous versions (tests, and the worker itself).
DagLayout layoutWithDot(const Graph& g);
DagLayout layoutLayered(const Graph& g);

} // namespace sl::gui
