// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Random best-of-K: K random priority vectors through the list scheduler (our baseline), or K
/// random topological orders (Topoformer's "random order", Gagrani et al. 2022, §5: Kahn's
/// algorithm with a uniform choice among ready ops, docs/heuristics.md, "Choices where the papers
/// are silent") on the step clock; keeps the cheapest under the
/// problem's objective. Sample i uses the stream deriveSeed(seed, i), so results are reproducible.

#include "core/graph/graph.h"
#include "core/optimizer/optimizer.h"
#include "core/util/random.h"

#include <memory>
#include <vector>

namespace sl {

/// A random topological order of all ops (uniform choice among the ready ops at each step).
std::vector<OpId> randomTopologicalOrder(const Graph& g, Rng& rng);

/// Options: samples (K, default 100; --budget overrides), space (auto | priorities | orders;
/// auto = orders for the memory objective, priorities otherwise).
std::vector<OptionSpec> randomSearchOptions();
std::unique_ptr<Optimizer> makeRandomSearch();

} // namespace sl
