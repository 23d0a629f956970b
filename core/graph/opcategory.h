// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What kind of work an op type is, for colouring and folding: ONNX and HLO spellings (and the
/// usual PyTorch / TF names) mapped case-insensitively to a few categories; unknown types are Other.

#include "core/graph/graph.h"

#include <string_view>
#include <vector>

namespace sl {

enum class OpCategory { Convolution, MatMul, Elementwise, Normalisation, Pooling, DataMovement, Reduction, Other };
inline constexpr int kOpCategoryCount = 8;

/// "convolution", "matmul / gemm", ...: the legend's words
std::string_view toString(OpCategory c);
/// The category of an op type such as "Conv", "dot", "reduce-window" or "fusion" (Other).
OpCategory classifyOpType(std::string_view type);
/// Weights and constants made into ops: "constant", "parameter", "iota", "Constant", ...
bool isConstantLike(std::string_view type);

/// Ops the graph view folds into their consumers, as Netron folds weights: an op is foldable when
/// its type is constant-like or data movement, every predecessor is foldable (so a source such as
/// the HLO `broadcast` of a dropped constant qualifies, but a reshape of real activations does not),
/// and it has at least one successor to fold into. Indexed by OpId.
std::vector<char> foldableOps(const Graph& g);
/// For every op, the foldable ops whose forward cone of foldable ops reaches it first (its folded
/// parameters); empty for foldable ops themselves. Indexed by OpId, each list in increasing OpId.
std::vector<std::vector<OpId>> foldedInto(const Graph& g, const std::vector<char>& foldable);

} // namespace sl
