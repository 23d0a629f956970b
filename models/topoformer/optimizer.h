// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The `topoformer` optimizer (single-device peak-memory orders). Options: --samples K (default 16,
/// best of K sampled orders), --beam K (beam search), --greedy 1; RunOptions::strings["weights"] or
/// $SCHEDLAB_TOPOFORMER_WEIGHTS override the shipped weight file.

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
