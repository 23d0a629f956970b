// SPDX-License-Identifier: MIT
// The hlo-step transformer: token embedding (a gather, or a one-hot dot) plus learned positions,
// pre-norm blocks (layer norm, attention, residual; layer norm, GELU MLP, residual), a final layer
// norm, the LM head and the token cross-entropy; then the backward pass in reverse. Tensor
// parallel: q/k/v and the first MLP dot column-parallel, the output projection and the second MLP
// dot row-parallel (all-reduced), the input gradients of the column-parallel dots all-reduced.
#include "core/generators/hlotrainingstep_models.h"

#include <algorithm>
#include <cmath>

namespace sl::hlostep {
namespace {

constexpr double kGeluCubic = 0.044715;
const double kSqrtTwoOverPi = std::sqrt(2.0 / 3.14159265358979323846);
constexpr double kSigmoidGeluSlope = 1.702;

struct TransformerChoices {
    AttentionChoices attention;
    bool gatherEmbedding = true;   ///< else a dot of one-hot rows, as some lowerings write it
    bool sigmoidGelu = false;      ///< x * sigmoid(1.702 x) instead of the tanh form
    bool divideByCount = false;
    long ffn = 0;                  ///< the MLP width, full
};

/// What the backward pass reads of one block's MLP.
struct MlpBlockSaved {
    Value input;                     ///< the normed activations
    Value up, upBias, down, downBias;
    Value hidden, activation;        ///< before and after GELU
    Value tanhOrSigmoid, onePlusTanh, halfHidden;   ///< GELU's pieces its derivative reuses
};

struct BlockSaved {
    LayerNormSaved norm1, norm2;
    AttentionSaved attention;
    MlpBlockSaved mlp;
};

TransformerChoices drawTransformerChoices(const HloStepSpec& spec, Rng& rng) {
    TransformerChoices c;
    c.attention.bias = rng.uniform() < 0.5;
    c.attention.causal = rng.uniform() < 0.75;
    c.attention.divideScale = rng.uniform() < 0.5;
    c.gatherEmbedding = rng.uniform() < 0.6;
    c.sigmoidGelu = rng.uniform() < 0.3;
    c.divideByCount = rng.uniform() < 0.5;
    const long tp = spec.tensorParallel;
    const long base = spec.ffn > 0 ? spec.ffn : 4L * spec.hidden;
    c.ffn = std::max(tp, (base + 8 * tp * rng.integer(-2, 2)) / tp * tp);
    return c;
}

class TransformerEmitter {
public:
    TransformerEmitter(HloEmitter& e, const HloStepSpec& spec, const TransformerChoices& c)
        : m_e(e), m_spec(spec), m_c(c), m_tokens(static_cast<long>(spec.batch) * spec.sequence),
          m_attention(e, {.batch = spec.batch, .sequence = spec.sequence, .hidden = spec.hidden,
                          .localHeads = spec.heads / spec.tensorParallel, .headDim = spec.hidden / spec.heads},
                      c.attention) {}

    ModelStep emit() {
        const Value ids = m_e.reshape(m_e.parameter({.type = "s64", .dims = {m_spec.batch, m_spec.sequence}}), {m_tokens});
        Value x = embed(ids);
        std::vector<BlockSaved> blocks(static_cast<std::size_t>(m_spec.layers));
        for (BlockSaved& b : blocks) x = blockForward(x, b);
        LayerNormSaved finalNorm;
        const Value normed = layerNormForward(m_e, x, finalNorm, m_c.divideByCount);
        const Value head = m_e.parameter({.dims = {m_spec.vocab, m_spec.hidden}});
        const Value labels = m_e.reshape(m_e.parameter({.type = "s64", .dims = {m_spec.batch, m_spec.sequence}}), {m_tokens});
        const LossOutputs loss = softmaxCrossEntropy(m_e, linear(m_e, normed, head), labels, m_c.divideByCount);

        std::vector<Trainable> tail;
        const Value dHead = linearWeightGrad(m_e, loss.dlogits, normed);
        Value dx = layerNormBackward(m_e, linearInputGrad(m_e, loss.dlogits, head), finalNorm, tail);
        tail.push_back({head, dHead});
        std::vector<std::vector<Trainable>> perBlock(blocks.size());
        for (std::size_t b = blocks.size(); b-- > 0;) dx = blockBackward(dx, blocks[b], perBlock[b]);
        ModelStep step{.trainables = embedBackward(dx, ids), .loss = loss.loss};
        for (const auto& grads : perBlock) step.trainables.insert(step.trainables.end(), grads.begin(), grads.end());
        step.trainables.insert(step.trainables.end(), tail.begin(), tail.end());
        return step;
    }

private:
    // ---- embedding ----
    Value embed(const Value& ids) {
        m_table = m_e.parameter({.dims = {m_spec.vocab, m_spec.hidden}});
        Value x;
        if (m_c.gatherEmbedding) {
            x = m_e.gatherRows(m_table, ids);
        } else {
            const std::vector<long> dims{m_tokens, m_spec.vocab};
            const Value column = m_e.iota({.type = "s64", .dims = dims}, 1);
            const Value hit = m_e.compare(column, m_e.broadcast(ids, dims, {0}), "EQ");
            m_oneHot = m_e.convert(hit, m_e.matmulType());   // straight to the dot's type
            x = m_e.matmul(m_oneHot, m_table, {{}, {1}, {}, {0}});
        }
        m_positions = m_e.parameter({.dims = {m_spec.sequence, m_spec.hidden}});
        const Value spread = m_e.broadcast(m_positions, {m_spec.batch, m_spec.sequence, m_spec.hidden}, {1, 2});
        return m_e.binary("add", x, m_e.reshape(spread, {m_tokens, m_spec.hidden}));
    }

    std::vector<Trainable> embedBackward(const Value& dx, const Value& ids) {
        const Value dTable = m_c.gatherEmbedding
                                 ? m_e.scatterAddRows(m_e.splat(0, {m_spec.vocab, m_spec.hidden}), ids, dx)
                                 : linearWeightGrad(m_e, m_oneHot, dx);   // one-hot^T dx
        const Value perPosition = m_e.reshape(dx, {m_spec.batch, m_spec.sequence, m_spec.hidden});
        return {{m_table, dTable}, {m_positions, m_e.reduce(perPosition, {0}, Reducer::Add)}};
    }

    // ---- blocks ----
    Value blockForward(const Value& x, BlockSaved& b) {
        const Value attended = m_attention.forward(layerNormForward(m_e, x, b.norm1, m_c.divideByCount), b.attention);
        const Value x1 = m_e.binary("add", x, attended);
        return m_e.binary("add", x1, mlpForward(layerNormForward(m_e, x1, b.norm2, m_c.divideByCount), b.mlp));
    }

    Value blockBackward(const Value& dOut, const BlockSaved& b, std::vector<Trainable>& grads) {
        std::vector<Trainable> norm1, attention, norm2, mlp;
        const Value dx1 = m_e.binary("add", dOut, layerNormBackward(m_e, mlpBackward(dOut, b.mlp, mlp), b.norm2, norm2));
        const Value dx = m_e.binary("add", dx1, layerNormBackward(m_e, m_attention.backward(dx1, b.attention, attention), b.norm1, norm1));
        for (const auto* part : {&norm1, &attention, &norm2, &mlp}) grads.insert(grads.end(), part->begin(), part->end());
        return dx;
    }

    // ---- MLP block ----
    Value mlpForward(const Value& x, MlpBlockSaved& s) {
        const long local = m_c.ffn / m_e.tensorParallel();
        s.input = x;
        s.up = m_e.parameter({.dims = {local, m_spec.hidden}});
        s.hidden = linear(m_e, x, s.up);
        if (m_c.attention.bias) {
            s.upBias = m_e.parameter({.dims = {local}});
            s.hidden = addBias(m_e, s.hidden, s.upBias);
        }
        s.activation = gelu(s);
        s.down = m_e.parameter({.dims = {m_spec.hidden, local}});
        Value out = linear(m_e, s.activation, s.down);
        if (m_e.tensorParallel() > 1) out = m_e.allReduce(out);   // row-parallel
        if (m_c.attention.bias) {
            s.downBias = m_e.parameter({.dims = {m_spec.hidden}});
            out = addBias(m_e, out, s.downBias);
        }
        return out;
    }

    Value mlpBackward(const Value& dOut, const MlpBlockSaved& s, std::vector<Trainable>& grads) {
        const Value dDown = linearWeightGrad(m_e, dOut, s.activation);
        const Value dHidden = geluBackward(linearInputGrad(m_e, dOut, s.down), s);
        grads.push_back({s.up, linearWeightGrad(m_e, dHidden, s.input)});
        if (m_c.attention.bias) grads.push_back({s.upBias, biasGrad(m_e, dHidden)});
        grads.push_back({s.down, dDown});
        if (m_c.attention.bias) grads.push_back({s.downBias, biasGrad(m_e, dOut)});
        const Value dx = linearInputGrad(m_e, dHidden, s.up);
        return m_e.tensorParallel() > 1 ? m_e.allReduce(dx) : dx;   // column-parallel input
    }

    Value ones(const Value& like) { return m_e.splat(1, like.shape.dims); }

    /// tanh form: 0.5 h (1 + tanh(sqrt(2/pi) (h + 0.044715 h^3))); or h * sigmoid(1.702 h).
    Value gelu(MlpBlockSaved& s) {
        const Value& h = s.hidden;
        if (m_c.sigmoidGelu) {
            s.tanhOrSigmoid = m_e.unary("logistic", m_e.scaled(h, kSigmoidGeluSlope));
            return m_e.binary("multiply", h, s.tanhOrSigmoid);
        }
        const Value cube = m_e.binary("multiply", m_e.binary("multiply", h, h), h);
        const Value inner = m_e.binary("add", h, m_e.scaled(cube, kGeluCubic));
        s.tanhOrSigmoid = m_e.unary("tanh", m_e.scaled(inner, kSqrtTwoOverPi));
        s.onePlusTanh = m_e.binary("add", s.tanhOrSigmoid, ones(h));
        s.halfHidden = m_e.scaled(h, 0.5);
        return m_e.binary("multiply", s.halfHidden, s.onePlusTanh);
    }

    Value geluBackward(const Value& dActivation, const MlpBlockSaved& s) {
        const Value& h = s.hidden;
        const Value& t = s.tanhOrSigmoid;
        Value slope;
        if (m_c.sigmoidGelu) {   // s + 1.702 h s (1 - s)
            const Value ht = m_e.binary("multiply", h, t);
            const Value spread = m_e.binary("multiply", ht, m_e.binary("subtract", ones(h), t));
            slope = m_e.binary("add", t, m_e.scaled(spread, kSigmoidGeluSlope));
        } else {                 // 0.5 (1 + t) + 0.5 h (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 h^2)
            const Value tSquared = m_e.binary("multiply", t, t);
            const Value sech2 = m_e.binary("subtract", ones(h), tSquared);
            const Value cubicTermSlope = m_e.scaled(m_e.binary("multiply", h, h), 3 * kGeluCubic);
            const Value poly = m_e.binary("add", ones(h), cubicTermSlope);
            const Value chain = m_e.binary("multiply", sech2, m_e.scaled(poly, kSqrtTwoOverPi));
            const Value halfSlope = m_e.scaled(s.onePlusTanh, 0.5);
            slope = m_e.binary("add", halfSlope, m_e.binary("multiply", s.halfHidden, chain));
        }
        return m_e.binary("multiply", dActivation, slope);
    }

    HloEmitter& m_e;
    const HloStepSpec& m_spec;
    TransformerChoices m_c;
    long m_tokens;
    AttentionEmitter m_attention;
    Value m_table, m_positions, m_oneHot;
};

} // namespace

ModelStep emitTransformerStep(HloEmitter& e, const HloStepSpec& spec, Rng& rng) {
    return TransformerEmitter(e, spec, drawTransformerChoices(spec, rng)).emit();
}

} // namespace sl::hlostep
