// SPDX-License-Identifier: MIT
// The hlo-step MLP: hidden dense layers (dot of the transposed weight, bias, ReLU as a maximum
// with a broadcast zero) and a classifier under softmax cross-entropy; backward with the ReLU
// masks as compare + select and the bias gradients as reduces. Sharded Megatron-style in pairs: a
// column-parallel layer (output split) under a row-parallel one (input split, output all-reduced);
// a column-parallel layer's input gradient is all-reduced in the backward pass.
#include "core/generators/hlotrainingstep_models.h"

#include <algorithm>

namespace sl::hlostep {
namespace {

enum class Sharding { Replicated, Column, Row };

struct MlpChoices {
    bool bias = true;
    bool maskFromOutput = false;   ///< the ReLU mask from its output (> 0) instead of its input
    bool imageInput = false;       ///< 784 features fed as [batch, 1, 28, 28] and reshaped
    bool divideByCount = false;
    std::vector<long> widths;      ///< per hidden layer, full (unsharded)
};

struct MlpLayer {
    Value weight, bias, input, preActivation, output;
    Sharding sharding = Sharding::Replicated;
    bool relu = true;
};

MlpChoices drawMlpChoices(const HloStepSpec& spec, Rng& rng) {
    MlpChoices c;
    c.bias = rng.uniform() < 0.75;
    c.maskFromOutput = rng.uniform() < 0.5;
    c.imageInput = spec.inputs == 784 && rng.uniform() < 0.5;
    c.divideByCount = rng.uniform() < 0.5;
    const long tp = spec.tensorParallel;
    const long base = (spec.hidden + tp - 1) / tp * tp;
    for (int l = 0; l < spec.layers; ++l) c.widths.push_back(std::max(tp, base + 8 * tp * rng.integer(-1, 1)));
    return c;
}

Value mlpInput(HloEmitter& e, const HloStepSpec& spec, const MlpChoices& c) {
    if (c.imageInput) return e.reshape(e.parameter({.dims = {spec.batch, 1, 28, 28}}), {spec.batch, 784});
    return e.parameter({.dims = {spec.batch, spec.inputs}});
}

/// Layer `l` of `layers` + 1 (the classifier last): (column, row) pairs counted down from the
/// classifier, which is row-parallel; a first layer left over is replicated (its input is whole).
Sharding shardingOf(int l, int layers, int tensorParallel) {
    if (tensorParallel == 1) return Sharding::Replicated;
    if ((layers - l) % 2 == 1) return Sharding::Column;
    return l == 0 ? Sharding::Replicated : Sharding::Row;
}

MlpLayer denseForward(HloEmitter& e, const Value& x, long width, Sharding sharding, bool relu, bool bias) {
    MlpLayer layer;
    layer.sharding = sharding;
    layer.relu = relu;
    layer.input = x;
    const long outputs = sharding == Sharding::Column ? width / e.tensorParallel() : width;
    layer.weight = e.parameter({.dims = {outputs, x.shape.dims[1]}});
    Value y = linear(e, x, layer.weight);
    if (sharding == Sharding::Row) y = e.allReduce(y);   // partial sums over the split input
    if (bias) {
        layer.bias = e.parameter({.dims = {outputs}});
        y = addBias(e, y, layer.bias);
    }
    layer.preActivation = y;
    layer.output = relu ? e.binary("maximum", y, e.splat(0, y.shape.dims)) : y;
    return layer;
}

/// dy of the layer's output -> dy of its input (none for the first layer); its gradients in `grads`.
Value denseBackward(HloEmitter& e, const MlpLayer& layer, Value dy, bool needInputGrad, bool maskFromOutput,
                    std::vector<Trainable>& grads) {
    if (layer.relu) {
        const Value& probe = maskFromOutput ? layer.output : layer.preActivation;
        const Value active = e.compare(probe, e.splat(0, probe.shape.dims), "GT");
        dy = e.select(active, dy, e.splat(0, dy.shape.dims));
    }
    grads.push_back({layer.weight, linearWeightGrad(e, dy, layer.input)});
    if (!layer.bias.name.empty()) grads.push_back({layer.bias, biasGrad(e, dy)});
    if (!needInputGrad) return dy;
    const Value dx = linearInputGrad(e, dy, layer.weight);
    return layer.sharding == Sharding::Column ? e.allReduce(dx) : dx;   // each shard saw part of the outputs
}

} // namespace

ModelStep emitMlpStep(HloEmitter& e, const HloStepSpec& spec, Rng& rng) {
    const MlpChoices c = drawMlpChoices(spec, rng);
    Value x = mlpInput(e, spec, c);
    const Value labels = e.parameter({.type = "s64", .dims = {spec.batch}});
    std::vector<MlpLayer> layers;
    for (int l = 0; l <= spec.layers; ++l) {
        const bool classifier = l == spec.layers;
        const long width = classifier ? spec.classes : c.widths[static_cast<std::size_t>(l)];
        layers.push_back(denseForward(e, x, width, shardingOf(l, spec.layers, e.tensorParallel()), !classifier, c.bias));
        x = layers.back().output;
    }
    const LossOutputs loss = softmaxCrossEntropy(e, x, labels, c.divideByCount);
    std::vector<std::vector<Trainable>> perLayer(layers.size());
    Value dy = loss.dlogits;
    for (std::size_t l = layers.size(); l-- > 0;) dy = denseBackward(e, layers[l], dy, l > 0, c.maskFromOutput, perLayer[l]);
    ModelStep step{.loss = loss.loss};
    for (const auto& grads : perLayer) step.trainables.insert(step.trainables.end(), grads.begin(), grads.end());
    return step;
}

} // namespace sl::hlostep
