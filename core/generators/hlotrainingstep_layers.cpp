// SPDX-License-Identifier: MIT
// Dense layers, loss, layer norm and optimizer updates of the hlo-step generator, written the way
// PyTorch/XLA lowers them: the weight transposed before its dot, means as a sum times 1/n (or over
// n), every scalar a constant broadcast to the shape it meets.
#include "core/generators/hlotrainingstep_layers.h"

namespace sl::hlostep {
namespace {

constexpr double kLayerNormEpsilon = 1e-5;
constexpr double kAdamBeta1 = 0.9, kAdamBeta2 = 0.999, kAdamEpsilon = 1e-8;

const DotDims kRowTimesColumn{.lhsContracting = {1}, .rhsContracting = {0}};

/// x summed over one dimension, divided by that dimension's size.
Value meanOfSum(HloEmitter& e, const Value& sum, long count, bool divideByCount) {
    if (divideByCount) return e.binary("divide", sum, e.splat(static_cast<double>(count), sum.shape.dims));
    return e.scaled(sum, 1.0 / static_cast<double>(count));
}

/// `perRow` [n] broadcast along the columns of [n, width].
Value alongRows(HloEmitter& e, const Value& perRow, const std::vector<long>& dims) { return e.broadcast(perRow, dims, {0}); }

/// `perColumn` [width] broadcast down the rows of [n, width].
Value alongColumns(HloEmitter& e, const Value& perColumn, const std::vector<long>& dims) { return e.broadcast(perColumn, dims, {1}); }

} // namespace

Value linear(HloEmitter& e, const Value& x, const Value& w, bool f32Result) {
    const Value wt = e.transpose(e.matmulOperand(w), {1, 0});
    return e.matmul(x, wt, kRowTimesColumn, f32Result);
}

Value linearWeightGrad(HloEmitter& e, const Value& dy, const Value& x) {
    const Value dyt = e.transpose(e.matmulOperand(dy), {1, 0});
    return e.matmul(dyt, x, kRowTimesColumn);
}

Value linearInputGrad(HloEmitter& e, const Value& dy, const Value& w) { return e.matmul(dy, w, kRowTimesColumn); }

Value addBias(HloEmitter& e, const Value& y, const Value& b) {
    const Value bias = y.shape.type == b.shape.type ? b : e.matmulOperand(b);
    return e.binary("add", y, alongColumns(e, bias, y.shape.dims));
}

Value biasGrad(HloEmitter& e, const Value& dy) { return e.reduce(dy, {0}, Reducer::Add); }

LossOutputs softmaxCrossEntropy(HloEmitter& e, const Value& logits, const Value& labels, bool divideByCount) {
    const std::vector<long> dims = logits.shape.dims;
    const long rows = dims[0];
    // one-hot labels: the column index equals the label
    const Value column = e.iota({.type = labels.shape.type, .dims = dims}, 1);
    const Value hit = e.compare(column, alongRows(e, labels, dims), "EQ");
    const Value oneHot = e.convert(hit, "f32");
    // log-softmax, shifted by the row maximum
    const Value rowMax = e.reduce(logits, {1}, Reducer::Max);
    const Value shifted = e.binary("subtract", logits, alongRows(e, rowMax, dims));
    const Value exps = e.unary("exponential", shifted);
    const Value sums = e.reduce(exps, {1}, Reducer::Add);
    const Value logSums = e.unary("log", sums);
    const Value logProbs = e.binary("subtract", shifted, alongRows(e, logSums, dims));
    const Value picked = e.reduce(e.binary("multiply", logProbs, oneHot), {0, 1}, Reducer::Add);
    const Value negated = e.unary("negate", picked);
    const Value loss = divideByCount ? e.binary("divide", negated, e.constant("f32", static_cast<double>(rows)))
                                     : e.binary("multiply", negated, e.constant("f32", 1.0 / static_cast<double>(rows)));
    // d loss / d logits = (softmax - one-hot) / rows
    const Value probs = e.binary("divide", exps, alongRows(e, sums, dims));
    const Value residual = e.binary("subtract", probs, oneHot);
    return {loss, e.scaled(residual, 1.0 / static_cast<double>(rows))};
}

Value layerNormForward(HloEmitter& e, const Value& x, LayerNormSaved& saved, bool divideByCount) {
    const std::vector<long> dims = x.shape.dims;
    const long width = dims[1];
    saved.gamma = e.parameter({.dims = {width}});
    saved.beta = e.parameter({.dims = {width}});
    const Value mean = meanOfSum(e, e.reduce(x, {1}, Reducer::Add), width, divideByCount);
    const Value centered = e.binary("subtract", x, alongRows(e, mean, dims));
    const Value variance = meanOfSum(e, e.reduce(e.binary("multiply", centered, centered), {1}, Reducer::Add), width, divideByCount);
    saved.rstd = e.unary("rsqrt", e.binary("add", variance, e.splat(kLayerNormEpsilon, variance.shape.dims)));
    saved.normalized = e.binary("multiply", centered, alongRows(e, saved.rstd, dims));
    const Value scaled = e.binary("multiply", saved.normalized, alongColumns(e, saved.gamma, dims));
    return e.binary("add", scaled, alongColumns(e, saved.beta, dims));
}

Value layerNormBackward(HloEmitter& e, const Value& dy, const LayerNormSaved& saved, std::vector<Trainable>& grads) {
    const std::vector<long> dims = dy.shape.dims;
    const long width = dims[1];
    grads.push_back({saved.gamma, e.reduce(e.binary("multiply", dy, saved.normalized), {0}, Reducer::Add)});
    grads.push_back({saved.beta, e.reduce(dy, {0}, Reducer::Add)});
    // dx = rstd / width * (width * dxhat - sum(dxhat) - xhat * sum(dxhat * xhat))
    const Value dxhat = e.binary("multiply", dy, alongColumns(e, saved.gamma, dims));
    const Value sumDxhat = e.reduce(dxhat, {1}, Reducer::Add);
    const Value sumDxhatXhat = e.reduce(e.binary("multiply", dxhat, saved.normalized), {1}, Reducer::Add);
    const Value widened = e.scaled(dxhat, static_cast<double>(width));
    const Value spread = e.binary("subtract", widened, alongRows(e, sumDxhat, dims));
    const Value projected = e.binary("subtract", spread, e.binary("multiply", saved.normalized, alongRows(e, sumDxhatXhat, dims)));
    const Value factor = e.scaled(saved.rstd, 1.0 / static_cast<double>(width));
    return e.binary("multiply", projected, alongRows(e, factor, dims));
}

namespace {

/// `scalar` (a parameter, f32[]) broadcast to the shape of `like`.
Value hyperParameter(HloEmitter& e, const Value& scalar, const Value& like) { return e.broadcast(scalar, like.shape.dims, {}); }

Value sgdUpdate(HloEmitter& e, const Trainable& t, const Value& learningRate, double weightDecay) {
    Value grad = t.grad;
    if (weightDecay > 0) grad = e.binary("add", grad, e.scaled(t.weight, weightDecay));   // L2, as torch.optim.SGD
    const Value step = e.binary("multiply", grad, hyperParameter(e, learningRate, t.weight));
    return e.binary("subtract", t.weight, step);
}

struct AdamUpdate {
    Value weight, m, v;   ///< the new values
    Value mParameter, vParameter;
};

AdamUpdate adamUpdate(HloEmitter& e, const Trainable& t, const Value& stepSize, double weightDecay) {
    AdamUpdate u;
    u.mParameter = e.parameter(t.weight.shape);
    u.vParameter = e.parameter(t.weight.shape);
    const Value mDecayed = e.scaled(u.mParameter, kAdamBeta1);
    u.m = e.binary("add", mDecayed, e.scaled(t.grad, 1 - kAdamBeta1));
    const Value gradSquared = e.binary("multiply", t.grad, t.grad);
    const Value vDecayed = e.scaled(u.vParameter, kAdamBeta2);
    u.v = e.binary("add", vDecayed, e.scaled(gradSquared, 1 - kAdamBeta2));
    const Value root = e.unary("sqrt", u.v);
    const Value denominator = e.binary("add", root, e.splat(kAdamEpsilon, t.weight.shape.dims));
    Value direction = e.binary("divide", u.m, denominator);
    if (weightDecay > 0) direction = e.binary("add", direction, e.scaled(t.weight, weightDecay));   // AdamW
    // the host folds the bias corrections into the step size it feeds each step
    u.weight = e.binary("subtract", t.weight, e.binary("multiply", direction, hyperParameter(e, stepSize, t.weight)));
    return u;
}

} // namespace

StepOutputs applyOptimizer(HloEmitter& e, const std::vector<Trainable>& trainables, const OptimizerChoice& choice) {
    StepOutputs out;
    const Value rate = e.parameter({.type = "f32"});
    std::vector<Value> ms, vs;
    std::vector<int> mNumbers, vNumbers;
    for (const Trainable& t : trainables) {
        out.aliases.emplace_back(static_cast<int>(out.outputs.size()), e.parameterNumber(t.weight));
        if (!choice.adam) {
            out.outputs.push_back(sgdUpdate(e, t, rate, choice.weightDecay));
            continue;
        }
        const AdamUpdate u = adamUpdate(e, t, rate, choice.weightDecay);
        out.outputs.push_back(u.weight);
        ms.push_back(u.m);
        vs.push_back(u.v);
        mNumbers.push_back(e.parameterNumber(u.mParameter));
        vNumbers.push_back(e.parameterNumber(u.vParameter));
    }
    // the states after the weights, as PyTorch/XLA returns the optimizer's tensors
    for (std::size_t i = 0; i < ms.size(); ++i) {
        out.aliases.emplace_back(static_cast<int>(out.outputs.size()), mNumbers[i]);
        out.outputs.push_back(ms[i]);
    }
    for (std::size_t i = 0; i < vs.size(); ++i) {
        out.aliases.emplace_back(static_cast<int>(out.outputs.size()), vNumbers[i]);
        out.outputs.push_back(vs[i]);
    }
    return out;
}

} // namespace sl::hlostep
