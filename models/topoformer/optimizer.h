// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The `topoformer` optimizer (single-device peak-memory orders). Options: --samples K (default 16,
/// best of K sampled orders), --beam K (beam search), --greedy 1; --classic-candidates (default 1)
/// also scores the classic memory orders (mem-dfs, mem-bfs, mem-postorder, mem-xla-list) with the
/// same StepMemory and keeps the lowest peak (the network's order on ties), so the result is never
/// above the best of them; 0 gives the paper's decoding alone. RunResult::note names the winner.
/// RunOptions::strings["weights"] or $SCHEDLAB_TOPOFORMER_WEIGHTS override the shipped weight file.

#include "core/optimizer/optimizer.h"

#include <memory>
#include <vector>

namespace sl::models {

class TopoformerModelImpl;

/// Normalised priorities (eq. 17) of one graph, no gradients.
std::vector<double> topoformerPriorities(TopoformerModelImpl& model, const Graph& g);

std::unique_ptr<Optimizer> makeTopoformerOptimizer();
OptimizerInfo topoformerInfo();

} // namespace sl::models
