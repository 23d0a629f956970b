// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Reads through folded ops, for drawing. An op that reads a folded op's output (class `alias`:
/// HLO's get-tuple-element, bitcast, a fused scalar broadcast, ...) also reads the buffers that
/// op stands for (docs/formats.md, "Buffers and folded ops"), so the graph holds an edge from
/// their producers too: it keeps them live, but drawn it is a second arrow beside the path
/// through the folded op. The DAG view lays out the graph without those reads.

#include "core/graph/graph.h"

namespace sl {

/// True when some op reads a tensor both directly and through a folded op.
bool hasAliasReads(const Graph& g);

/// A copy of `g` (same ops, same tensors, finalized) in which an op no longer reads the tensors it
/// already reads through a folded op.
Graph withoutAliasReads(const Graph& g);

} // namespace sl
