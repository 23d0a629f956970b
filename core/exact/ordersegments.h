// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The segments every order of a DAG runs one after the other: an op that every other op precedes
/// or follows (a *cut op*) splits every topological order at the same place, after its ancestors
/// and before its descendants. With cut ops c1 < ... < ck, every order runs the ancestors of c1 and
/// c1, then the ops between c1 and c2 and c2, ... and last the descendants of ck. On one device the
/// bytes live at a segment's start depend on the segment alone (they are the set of the ops before
/// it), so the step-clock peak of an order is the largest of its segments' peaks, each a function
/// of that segment's order only: exact-memory solves the segments one by one
/// (docs/heuristics.md, "Segments"). Networks' forward passes are chains of them (ResNet-50: 136
/// cut ops of 176); a training step has none, its backward reading what every forward op made.

#include "core/graph/graph.h"

#include <vector>

namespace sl {

/// Where the segments of every order start: 0, then the position after each cut op but the last
/// op of the order (ascending; one entry when the graph has no cut op).
/// `after` and `before` are opReachability(g, true) and (g, false).
std::vector<int> orderSegmentStarts(const Graph& g, const std::vector<OpBits>& after,
                                    const std::vector<OpBits>& before);

}   // namespace sl
