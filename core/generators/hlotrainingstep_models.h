// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The hlo-step models (private to core/generators): each writes its forward pass, loss and
/// backward pass into an emitter and returns the weights with their gradients; the optimizer
/// update and the ROOT tuple are common (hlotrainingstep.cpp).

#include "core/generators/hlotrainingstep.h"
#include "core/generators/hlotrainingstep_layers.h"
#include "core/util/random.h"

#include <optional>
#include <vector>

namespace sl::hlostep {

struct ModelStep {
    std::vector<Trainable> trainables;   ///< in the order of their first use in the forward pass
    Value loss;
};

/// Dense + bias + ReLU layers and a classifier; Megatron pairs (column- then row-parallel) when
/// sharded. Draws its choices from `rng`.
ModelStep emitMlpStep(HloEmitter& e, const HloStepSpec& spec, Rng& rng);
/// A pre-norm transformer language model. Draws its choices from `rng`.
ModelStep emitTransformerStep(HloEmitter& e, const HloStepSpec& spec, Rng& rng);

// ---- multi-head attention (hlotrainingstep_attention.cpp) ----

struct AttentionSizes {
    long batch = 0, sequence = 0, hidden = 0;
    long localHeads = 0;   ///< the heads of this tensor-parallel shard
    long headDim = 0;
};

struct AttentionChoices {
    bool bias = false;
    bool causal = false;
    bool divideScale = false;   ///< scores / sqrt(d) instead of scores * (1 / sqrt(d))
};

/// What the backward pass reads of one layer's attention.
struct AttentionSaved {
    Value input;                          ///< the normed activations [tokens, hidden]
    Value weights[3], biases[3];          ///< q, k, v: [local width, hidden] and [local width]
    Value heads[3];                       ///< q, k, v as [batch, heads, sequence, head dim]
    Value probs, context;                 ///< softmax [b, h, s, s]; probs x v [b, h, s, d]
    Value outWeight, outBias, outWeightHeads;   ///< [hidden, local width], [hidden], [hidden, heads, d]
};

/// Column-parallel q, k, v projections, scaled dot-product attention, a row-parallel output
/// projection (all-reduced when sharded); one mask for every layer.
class AttentionEmitter {
public:
    AttentionEmitter(HloEmitter& e, AttentionSizes sizes, AttentionChoices choices) : m_e(e), m_sizes(sizes), m_choices(choices) {}
    /// x [tokens, hidden] -> [tokens, hidden]; makes the layer's weights.
    Value forward(const Value& x, AttentionSaved& saved);
    /// d output -> d x (all-reduced when sharded); appends the weights' gradients in forward order.
    Value backward(const Value& dOut, const AttentionSaved& saved, std::vector<Trainable>& grads);

private:
    Value causalMask();
    Value applyMask(const Value& scores, double maskedValue);
    Value scale(const Value& scores);
    Value splitHeads(const Value& projected);

    HloEmitter& m_e;
    AttentionSizes m_sizes;
    AttentionChoices m_choices;
    std::optional<Value> m_mask;   ///< pred [sequence, sequence], made once
};

} // namespace sl::hlostep
