// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The training step of a graph: its forward ops, a loss, one gradient op per forward op and an
/// optimizer update per parameterised op (docs/training-graphs.md has the rule with examples).
///
/// For a forward graph of n ops, p of them with parameters, the training graph has 2n + 1 + p ops:
///  - the forward ops and tensors with their names and ids (0..n-1, 0..m-1), the tensors also read
///    by the gradient ops that save them; a forward op without successors and without outputs
///    gets a zero-byte tensor "<op>->loss";
///  - **loss** (type "Loss") reads every tensor nobody consumes (the graph outputs) and seeds
///    their gradients;
///  - **grad/<op>** (type "<Type>Grad", the same machine type and resource demand) for every
///    forward op, ids in the reverse of the forward graph's topological order. It reads the gradients of the op's outputs and
///    the forward tensors savedTensorsOf(type) names (positive-byte inputs and/or outputs), and
///    writes one gradient per input (as big as that input) and, with parameter bytes P > 0, a
///    parameter gradient "grad/<op>:params" of P bytes. It reads the op's weights too: its
///    parameter bytes are P, as the forward op's;
///  - **update/<op>** (type "SgdUpdate" or "AdamUpdate") for every op with P > 0: it reads the
///    parameter gradient; its parameter bytes are P (SGD: the weights) or 3P (Adam: the weights
///    and the two moment tensors m and v).
/// Names that collide with forward names get "~1", "~2", ... (the first free one, in creation
/// order), so the result is deterministic.
///
/// **Gradient accumulation.** A forward tensor t with k consumers receives k partial gradients,
/// one from each consumer's gradient op ("grad/<t>/<consumer>", each of t's size; one consumer:
/// "grad/<t>"), and the producer's gradient op sums them: all k live until it runs, as with
/// TensorFlow's default AddN aggregation. A zero-byte (control) tensor is reversed as a zero-byte
/// tensor, so the backward pass keeps the forward structure mirrored.
///
/// **Memory** under the cost model (core/costmodel): a saved forward tensor lives from its
/// producer's step to the last gradient op that reads it; gradients live from the op that writes
/// them to the gradient op that sums them; parameter gradients until their update. Weights and
/// Adam's state are parameter bytes, counted at the steps of the ops that read them (forward,
/// gradient and update), the convention of inference graphs; what truly stays resident across the
/// whole step (weights, and 2x the weights more with Adam) is the same for every schedule.
///
/// **Durations**: gradient op = backwardFactor x forward (per-device durations too); update =
/// rate x traffic x P with traffic 3 (SGD: read w and g, write w) or 7 (Adam: read w, g, m, v;
/// write w, m, v); loss = rate x 2 x the bytes it reads (outputs in, seeds out). The rate is the
/// time per byte of the median forward op, each op's duration divided by the input, output and
/// parameter bytes it touches (ops touching none left out; 0 if none remain; of an even count,
/// the upper middle): updates stream memory like the graph's typical elementwise op. Loss and
/// updates take `duration` on every device (no per-device table).
///
/// \code
///   sl::Graph train = sl::makeTrainingGraph(*loaded.graph, {.rule = sl::UpdateRule::Adam});
///   sl::StepMemory mem(train, 1);
///   double peak = mem.peak(train.topologicalOrder());
/// \endcode
///
/// Cost O(ops + tensors + consumer entries). Thread-safe (reads `forward` only).

#include "core/graph/graph.h"
#include "core/graph/savedtensors.h"

#include <optional>
#include <string_view>

namespace sl {

enum class UpdateRule { Sgd, Adam };

/// Backward ops cost about twice their forward op (two products per forward product for Conv and
/// MatMul: one for the input gradient, one for the weight gradient).
inline constexpr double kBackwardFactor = 2.0;
/// Bytes an update streams per parameter byte: SGD reads w and g and writes w; Adam also reads
/// and writes m and v.
inline constexpr double kSgdTraffic = 3.0;
inline constexpr double kAdamTraffic = 7.0;
/// Adam keeps two moment tensors per weight: its update's parameter bytes are this x P.
inline constexpr double kAdamParamFactor = 3.0;

struct TrainingGraphOptions {
    UpdateRule rule = UpdateRule::Sgd;
    double backwardFactor = kBackwardFactor;   ///< gradient op duration / forward op duration, >= 0
};

/// The training step of `forward` (finalized; an unfinalized `forward` is finalized on a copy
/// first). Throws GraphError naming the op at fault (a fault of `forward`, weights whose training
/// step passes 2^53 bytes) or saying the graph has no ops; std::invalid_argument for a
/// backwardFactor that is negative or not finite.
Graph makeTrainingGraph(const Graph& forward, const TrainingGraphOptions& options = {});

/// "sgd" | "adam" (case-insensitive); nullopt otherwise.
std::optional<UpdateRule> parseUpdateRule(std::string_view text);
/// "sgd" | "adam".
std::string_view updateRuleName(UpdateRule rule);

/// Sum of the parameter bytes that stay resident across a training step under `rule`: the
/// weights (P per op) and, with Adam, the two moment tensors (2P). Not counted by the step clock
/// beyond the steps that read them (see above): a capacity planner adds it.
double residentParameterBytes(const Graph& forward, UpdateRule rule);

} // namespace sl
