// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's graph features (Paliwal et al., "REGAL: Transfer Learning for Fast Optimization of
/// Computation Graphs", ICLR 2020, "R" below: §3.3, App. A.1): the attributed graph the policy
/// reads, from the graph and from the BRKGA population at the moment the policy steers the run.
/// What is ours (the device-free split, depth, height and pressure): docs/regal.md, "Features".
///
/// Node columns (width kNodeWidth), none depending on the device count or order; memory columns
/// divided by the graph's largest memory value (tensor sizes, per-op input / output sums, parameter
/// bytes):
///   0 input bytes (sum of consumed tensors)   1 output bytes   2 parameter bytes
///   3 duration / the graph's longest          4 depth / the longest path (ops from a source)
///   5 height / the longest path (ops to a sink)
///   6 mean position of the op in the population's schedules, (position + 1) / |ops + transfers|
///   7 1 for the op fixed on device 0 by symmetry breaking
///   8 share of the population placing the op where the best chromosome does
///   9 memory pressure: bytes in use on the op's device when it starts in the best chromosome's
///     schedule (time clock, core/costmodel/memorytimeline.h) / that schedule's peak
/// Pair columns, one row per (op, device), op-major (width kPairWidth):
///   0 share of the population placing the op on the device   1 the best chromosome does (0 / 1)
/// Edges: one per (producer, tensor, consumer), feature = normalised tensor bytes.
/// Nothing reads op names or types (R §4.1: op types do not transfer).

#include "core/brkga/balancedplacement.h"
#include "core/brkga/brkga.h"
#include "core/costmodel/problem.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sl::regal {

inline constexpr int kNodeWidth = 10;
inline constexpr int kPairWidth = 2;

struct GraphFeatures {
    int ops = 0, devices = 0;
    std::vector<float> node;                    ///< [ops x kNodeWidth]
    std::vector<float> pair;                    ///< [ops x devices x kPairWidth]
    std::vector<std::int32_t> edgeSource, edgeTarget;
    std::vector<float> edgeSize;

    float at(int op, int column) const {
        return node[static_cast<std::size_t>(op) * kNodeWidth + static_cast<std::size_t>(column)];
    }
    float pairAt(int op, int device, int column) const {
        return pair[(static_cast<std::size_t>(op) * static_cast<std::size_t>(devices) + static_cast<std::size_t>(device)) * kPairWidth +
                    static_cast<std::size_t>(column)];
    }
};

/// Column names, nodes then pairs (model cards, docs).
std::vector<std::string> featureColumns();

/// The features of `problem` with the statistics of `population` (REGAL's chromosomes, best
/// first; not empty). Throws GraphError / std::invalid_argument.
GraphFeatures computeFeatures(const Problem& problem, std::span<const brkga::Chromosome> population,
                              bool symmetry = true, PlacementRule placement = {});

} // namespace sl::regal
