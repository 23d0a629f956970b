// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The pieces both hlo-step models are built from (private to core/generators): dense layers in
/// PyTorch's [out, in] weight layout, the softmax cross-entropy loss, layer norm, and the
/// optimizer update that turns each (weight, gradient) pair into ROOT outputs aliased to their
/// parameters. Each forward piece returns what its backward needs, as PyTorch/XLA saves it.

#include "core/generators/hlotrainingstep_emitter.h"

#include <vector>

namespace sl::hlostep {

/// A weight parameter and its gradient, both f32 and of one shape.
struct Trainable {
    Value weight, grad;
};

// ---- dense layers: x [n, in], w [out, in] ----
/// y = x w^T: a transpose of the weight and a dot; f32, or left in the matmul type.
Value linear(HloEmitter& e, const Value& x, const Value& w, bool f32Result = true);
/// dw = dy^T x, [out, in]: a transpose of the gradient and a dot.
Value linearWeightGrad(HloEmitter& e, const Value& dy, const Value& x);
/// dx = dy w, [n, in].
Value linearInputGrad(HloEmitter& e, const Value& dy, const Value& w);
/// y + b broadcast along the rows (b converted to y's type when that is the matmul type).
Value addBias(HloEmitter& e, const Value& y, const Value& b);
/// The bias gradient: dy summed over its rows.
Value biasGrad(HloEmitter& e, const Value& dy);

// ---- loss ----
struct LossOutputs {
    Value loss;      ///< f32[]: the mean negative log-likelihood
    Value dlogits;   ///< d loss / d logits
};
/// Mean softmax cross-entropy of logits [n, classes] against s64 labels [n] (one-hot by iota and
/// compare); `divideByCount` divides the sum by n, else multiplies by 1/n.
LossOutputs softmaxCrossEntropy(HloEmitter& e, const Value& logits, const Value& labels, bool divideByCount);

// ---- layer norm over the last dimension of x [n, width] ----
struct LayerNormSaved {
    Value gamma, beta;   ///< the parameters, [width]
    Value normalized;    ///< (x - mean) * rstd, [n, width]
    Value rstd;          ///< 1 / sqrt(var + eps), [n]
};
Value layerNormForward(HloEmitter& e, const Value& x, LayerNormSaved& saved, bool divideByCount);
/// dx; appends gamma's and beta's gradients to `grads`.
Value layerNormBackward(HloEmitter& e, const Value& dy, const LayerNormSaved& saved, std::vector<Trainable>& grads);

// ---- optimizer ----
struct OptimizerChoice {
    bool adam = false;
    double weightDecay = 0;    ///< 0: none; else L2 (SGD) or decoupled (AdamW)
};
/// The updated weights (then Adam's m and v states) and the parameter each updates in place.
struct StepOutputs {
    std::vector<Value> outputs;
    std::vector<std::pair<int, int>> aliases;   ///< (output index, parameter number)
};
StepOutputs applyOptimizer(HloEmitter& e, const std::vector<Trainable>& trainables, const OptimizerChoice& choice);

} // namespace sl::hlostep
