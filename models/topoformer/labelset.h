// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The labelled set of Topoformer's imitation training (docs/topoformer.md, "Learning from proven
/// optima"): generated single-device memory problems, each with the order `exact-memory` proves
/// optimal (or the best it found), computed once and kept in a file. Graphs are not stored: each
/// entry names its generator, size, seed and training step, and is rebuilt from them. Torch-free.
///
/// Two mixes. Networks, in fives: training steps (SGD and Adam, docs/training-graphs.md) of `nn`
/// network-like graphs of 30-250 forward ops, of 250-400, and the paper's layered graphs of 50-100
/// ops; validation: SGD and Adam steps of 30-250 forward ops from seeds no training entry uses.
/// Compiled steps, in fours: SGD and Adam steps of MLPs (1-6 layers) and transformers (1-2 blocks)
/// as `generate hlo-step` writes them, read by the HLO reader; the seed draws widths, batch,
/// sequence, heads, tensor parallelism and dtype; validation alike from other seeds.
/// Model shapes, in fours (one and two blocks, SGD and Adam): transformer steps with the widths,
/// heads, MLP widths, vocabularies, sequence lengths and tensor-parallel splits of GPT-2, BERT base,
/// Llama 2 7B, GPT-J 6B and the tiny Llama of the PyTorch/XLA dumps (Llama in bf16); the seed picks
/// the model, the split, the sequence and the batch.

#include "core/generators/hlotrainingstep.h"
#include "core/graph/graph.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sl::models {

struct MemoryStepSpec {
    std::string family;     ///< "nn" or "layered" (core/generators), "hlo-mlp", "hlo-transformer" or "hlo-model"
    int nodes = 0;          ///< the generator's size (forward ops for nn, layers for hlo-*)
    std::uint64_t seed = 0;
    std::string training;   ///< "", "sgd" or "adam": the graph's training step instead (hlo-*: the optimizer)
};

struct LabelledStep {
    MemoryStepSpec spec;
    int ops = 0;
    std::vector<OpId> order;   ///< the label: optimal when `optimal`
    double peak = 0;           ///< its step-clock peak
    bool optimal = false;
};

enum class LabelMix { Networks, CompiledSteps, ModelShapes };

struct LabelSet {
    std::vector<LabelledStep> train, validation;
    double seconds = 0;   ///< wall time that built it (exact-memory and generation)
    int threads = 1;      ///< ... on this many threads
    LabelMix mix = LabelMix::Networks;
};

struct LabelSetSize {
    int train = 2400;
    int validation = 64;
    double secondsPerStep = 10;   ///< exact-memory's time limit per entry
    LabelMix mix = LabelMix::Networks;
    int threads = 1;              ///< entries labelled side by side (each exact-memory on one thread)
};

/// "networks", "compiled" or "models"; nullopt otherwise.
std::optional<LabelMix> parseLabelMix(const std::string& name);
/// The name parseLabelMix() reads.
const char* labelMixName(LabelMix mix);

/// Seeds of the set's graphs: training entry i uses kLabelTrainSeedBase + i, validation entry i
/// kLabelValidationSeedBase + i (below Topoformer's other training and validation seeds, above
/// the benchmarks').
inline constexpr std::uint64_t kLabelTrainSeedBase = 200'000'000'000ULL;
inline constexpr std::uint64_t kLabelValidationSeedBase = 300'000'000'000ULL;
/// The compiled-steps mix's seeds.
inline constexpr std::uint64_t kCompiledLabelTrainSeedBase = 210'000'000'000ULL;
inline constexpr std::uint64_t kCompiledLabelValidationSeedBase = 310'000'000'000ULL;
/// The model-shapes mix's seeds.
inline constexpr std::uint64_t kShapedLabelTrainSeedBase = 220'000'000'000ULL;
inline constexpr std::uint64_t kShapedLabelValidationSeedBase = 320'000'000'000ULL;

/// The generator spec of an "hlo-model" entry: a real model's shape, the seed picking the model,
/// sequence length, tensor-parallel split and batch.
HloStepSpec modelShapedStepSpec(const MemoryStepSpec& spec);

/// The graph an entry names, finalized.
std::shared_ptr<Graph> graphOf(const MemoryStepSpec& spec);

/// Builds the set (exact-memory on every entry); `log` gets a line every few dozen entries. With
/// a time limit the labels depend on the machine's speed: the file, not the builder, is the record.
LabelSet buildLabelSet(const LabelSetSize& size, const std::function<void(const std::string&)>& log, std::stop_token stop = {});

/// JSON lines: a header line, then one entry per line. Written atomically.
void saveLabelSet(const LabelSet& set, const std::string& path);
/// Throws std::runtime_error naming the file and line on a malformed file, and when an entry's
/// order is not a topological order of its graph or its peak differs from the order's.
LabelSet loadLabelSet(const std::string& path);
/// loadLabelSet(path) when the file exists, else buildLabelSet and saveLabelSet.
LabelSet loadOrBuildLabelSet(const std::string& path, const LabelSetSize& size,
                             const std::function<void(const std::string&)>& log, std::stop_token stop = {});

} // namespace sl::models
