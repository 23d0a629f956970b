// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's graph features (Paliwal et al., "REGAL: Transfer Learning for Fast Optimization of
/// Computation Graphs", ICLR 2020, "R" below: §3.3, App. A.1; "W" is the workshop version, Paliwal
/// et al., "Zero-Shot Learning for Fast Optimization of Computation Graphs", §2.1): the attributed
/// multigraph the policy reads. How the feature run is summarised and normalised is ours:
/// docs/regal.md, 'Choices where the papers are silent'.
///
/// Node columns (width 6 + d), memory columns divided by the graph's largest memory value
/// (tensor sizes, per-op input / output sums, parameter bytes):
///   0 input bytes (sum of consumed tensors)      1 output bytes (sum of produced tensors)
///   2 parameter bytes (our stand-in for the TF op's "extra internal memory")
///   3 duration / the graph's longest duration   (W's runtime feature; kept for both objectives)
///   4 .. 3+d  share of the feature run's final population placing the op on device q
///   4+d       mean position of the op in those schedules, (position + 1) / |ops + transfers|
///   5+d       1 for the op fixed on device 0 by symmetry breaking, else 0
/// Edges: one per (producer, tensor, consumer) triple, feature = normalised tensor bytes
/// (a zero-byte control dependency is an edge of size 0).
///
/// The "feature run" is plain BRKGA (Uniform keys) for `budget` evaluations (R A.1: 400); its
/// evaluations count against REGAL's budget and its best solution competes with the second run's.
/// Nothing depends on op names; op ids enter only through tie-breaking and random streams.

#include "core/brkga/brkga.h"
#include "core/costmodel/problem.h"

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

namespace sl::regal {

struct FeatureConfig {
    std::int64_t budget = 400;   ///< evaluations of the uniform feature run
    std::uint64_t seed = 1;
    int threads = 1;
    bool symmetry = true;
};

struct GraphFeatures {
    int ops = 0, devices = 0, width = 0;
    std::vector<float> node;                    ///< [ops x width], op-major
    std::vector<std::int32_t> edgeSource, edgeTarget;
    std::vector<float> edgeSize;
    // the feature run
    std::vector<brkga::Chromosome> elites;      ///< its final population's best (params.elites), best first
    brkga::Chromosome bestKeys;
    double bestCost = 0;
    std::int64_t evaluations = 0;

    static int widthFor(int devices) { return 6 + devices; }
    float at(int op, int column) const {
        return node[static_cast<std::size_t>(op) * static_cast<std::size_t>(width) + static_cast<std::size_t>(column)];
    }
};

/// Column names, in order (model cards, docs).
std::vector<std::string> featureColumns(int devices);

/// Static columns and edges, then the feature run (`observer` sees its generations). Throws
/// GraphError / std::invalid_argument.
GraphFeatures computeFeatures(const Problem& problem, const FeatureConfig& config, std::stop_token stop = {},
                              const brkga::Observer& observer = {});

} // namespace sl::regal
