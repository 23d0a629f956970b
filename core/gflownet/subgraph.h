// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Sub-graph training data (Zhang et al., ICLR 2023, Sec. 3.3; docs/gflownet.md): a contiguous window of a random
/// topological order and the sub-DAG it induces (window kept local, every edge of the window kept).

#include "core/costmodel/problem.h"
#include "core/util/random.h"

#include <vector>

namespace sl::gfn {

/// A topological order with random tie-breaking among ready ops (randomised Kahn).
std::vector<OpId> randomTopologicalOrder(const Graph& g, Rng& rng);

/// `size` ops (clipped to the graph's size) forming a contiguous window of a random topological order.
std::vector<OpId> randomWindow(const Graph& g, int size, Rng& rng);

/// The problem restricted to `ops` (each at most once): those ops in the given order (new id =
/// position), every tensor produced inside with its consumers inside, the same platform and
/// objective. The graph is finalized.
Problem inducedSubProblem(const Problem& p, const std::vector<OpId>& ops);

} // namespace sl::gfn
