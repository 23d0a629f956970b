// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What a graph is, read from its op types: a compiled step (XLA HLO opcodes: "fusion", "dot",
/// "all-reduce", ...), or any other graph. Learned methods pick the weights trained for the kind
/// (docs/topoformer.md, "Which weights"); nothing else depends on it.
///
/// \code
///   if (sl::graphKind(g) == sl::GraphKind::CompiledStep) ...   // an HLO dump, a generate hlo-step
/// \endcode

#include "core/graph/graph.h"

#include <string_view>

namespace sl {

enum class GraphKind { CompiledStep, Other };

/// CompiledStep when at least 90 % of the ops' types are XLA HLO opcodes, spelled as HLO text
/// spells them (lower case, hyphenated: ONNX's "Add" is not HLO's "add"); Other otherwise and for
/// an empty graph. O(V).
GraphKind graphKind(const Graph& g);
/// Whether `g` is a training step as sl::trainingStep builds it (docs/training-graphs.md): an op of
/// type "Loss" and gradient ops ("<Type>Grad"). A forward graph, any other DAG and a compiled
/// HLO step (kind CompiledStep) are not. O(V).
bool isTrainingStep(const Graph& g);
/// Whether `type` is an XLA HLO opcode ("dot", "get-tuple-element", "all-reduce-start", ...).
bool isHloOpcode(std::string_view type);

}   // namespace sl
