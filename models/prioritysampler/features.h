// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The priority sampler's makespan feature columns that the shared encoder's FeatureSpec does not
/// produce itself (Jeon et al. 2023, App. F.3; that both critical paths include the op's own
/// duration is our reading: docs/priority-sampler.md, 'Choices where the paper is silent'). The
/// encoder builds duration, bottom level (critical path to the sink, inclusive) and the one-hot
/// machine type; these are passed to it as its `extra` columns (it max-normalises them per column):
///   0 resource demand / the capacity of the op's machine type (rho; constant when rho = 1)
///   1 top level: critical path from the source to the op's end, its own duration included
///   2 ops remaining on the longest path to a sink (MOPNR)         [ours, not in the paper]
///   3 load of the op's machine type: its total work / capacity    [ours, not in the paper]
/// Torch-free.

#include "core/costmodel/problem.h"

#include <vector>

namespace sl::ps {

inline constexpr int kExtraFeatures = 4;

/// Row-major [opCount x kExtraFeatures], not normalised.
std::vector<float> extraFeatures(const Problem& problem);

/// Number of machine types used by the graph's ops (max type + 1).
int machineTypeCount(const Graph& g);

} // namespace sl::ps
