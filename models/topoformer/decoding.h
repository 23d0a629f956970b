// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Decoding topological orders from per-op priorities (Gagrani et al. 2022, §4.2), plain C++:
/// greedy (list scheduling by priority), sequential sampling from the Plackett-Luce model
/// restricted to the ready set (eq. 8), and beam search with state collapsing. Every order
/// returned is a topological order of all ops. Peak memory comes from sl::StepMemory.

#include "core/costmodel/stepmemory.h"
#include "core/graph/graph.h"
#include "core/util/random.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sl::models {

/// argmax over the ready set at every step, ties by smaller id. Deterministic.
std::vector<OpId> greedyOrder(const Graph& g, std::span<const double> priority);

/// One order from eq. 8: at each step v ~ exp(y_v) / sum_{u ready} exp(y_u) with fresh randomness.
/// When `ready` is non-null it receives the ready sets, row-major [N x N] 0/1 (row t = ready set
/// before step t), for the log-probability (training).
std::vector<OpId> sampleOrder(const Graph& g, std::span<const double> priority, Rng& rng,
                              std::vector<std::uint8_t>* ready = nullptr);

/// The ready sets of a given topological order, as sampleOrder() records them.
std::vector<std::uint8_t> readySets(const Graph& g, std::span<const OpId> order);

/// log p(order) = sum_t [ y_{order_t} - logsumexp_{u ready at t} y_u ]  (Plackett-Luce on the
/// linear extensions). Throws std::invalid_argument if `order` is not topological.
double plackettLuceLogProb(const Graph& g, std::span<const double> priority, std::span<const OpId> order);

struct DecodeResult {
    std::vector<OpId> order;
    double peak = 0;       ///< StepMemory peak of `order`
    std::int64_t evaluated = 0;   ///< orders (sampling) or expanded candidates (beam)
};

/// Best of `samples` sampled orders (by peak; the first best on ties).
DecodeResult bestOfSamples(const Graph& g, std::span<const double> priority, int samples, Rng& rng,
                           bool keepOutputs = false);

/// Beam search of width `width`: expand every entry by every ready op, keep the lowest partial
/// peak among candidates with the same op set (ties: higher log-prob), then the `width` most
/// probable; return the final entry with the lowest peak (the paper's §4.2, decoding method 3; the
/// order of collapse and truncation, the ties and the final pick are ours: docs/topoformer.md, 'Choices where the paper is silent').
DecodeResult beamSearch(const Graph& g, std::span<const double> priority, int width, bool keepOutputs = false);

/// Peak memory of an order with the step clock (single device).
double orderPeak(const Graph& g, std::span<const OpId> order, bool keepOutputs = false);

} // namespace sl::models
