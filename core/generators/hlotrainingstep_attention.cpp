// SPDX-License-Identifier: MIT
// Multi-head attention of the hlo-step transformer. The heads are split by a reshape and a
// transpose to [batch, heads, sequence, head dim]; the score, context and output-projection dots
// use batch and multi-dimensional contracting dimensions as XLA's dot canonicalisation leaves
// them, so no transposed value is ever reshaped (which would be a copy, not a bitcast).
#include "core/generators/hlotrainingstep_models.h"

#include <cmath>

namespace sl::hlostep {
namespace {

constexpr int kQuery = 0, kKey = 1, kValue = 2;

/// [b, h, s, s] over dims {0, 1, 2} of the scores: a per-row value spread along the last dimension.
Value alongScoreRows(HloEmitter& e, const Value& perRow, const std::vector<long>& dims) { return e.broadcast(perRow, dims, {0, 1, 2}); }

} // namespace

Value AttentionEmitter::splitHeads(const Value& projected) {
    const AttentionSizes& s = m_sizes;
    const Value split = m_e.reshape(projected, {s.batch, s.sequence, s.localHeads, s.headDim});
    return m_e.transpose(split, {0, 2, 1, 3});
}

Value AttentionEmitter::causalMask() {
    if (!m_mask) {   // made once and broadcast per use, as XLA's CSE leaves it
        const Shape grid{.type = "s32", .dims = {m_sizes.sequence, m_sizes.sequence}};
        const Value query = m_e.iota(grid, 0);
        const Value key = m_e.iota(grid, 1);
        m_mask = m_e.compare(query, key, "GE");   // a query sees keys up to itself
    }
    return *m_mask;
}

Value AttentionEmitter::applyMask(const Value& scores, double maskedValue) {
    if (!m_choices.causal) return scores;
    const Value visible = m_e.broadcast(causalMask(), scores.shape.dims, {2, 3});
    return m_e.select(visible, scores, m_e.splat(maskedValue, scores.shape.dims));
}

Value AttentionEmitter::scale(const Value& scores) {
    const double root = std::sqrt(static_cast<double>(m_sizes.headDim));
    if (m_choices.divideScale) return m_e.binary("divide", scores, m_e.splat(root, scores.shape.dims));
    return m_e.scaled(scores, 1.0 / root);
}

Value AttentionEmitter::forward(const Value& x, AttentionSaved& saved) {
    const AttentionSizes& s = m_sizes;
    const long localWidth = s.localHeads * s.headDim;
    saved.input = x;
    for (int p : {kQuery, kKey, kValue}) {
        saved.weights[p] = m_e.parameter({.dims = {localWidth, s.hidden}});
        Value projected = linear(m_e, x, saved.weights[p], false);   // the heads stay in the matmul type
        if (m_choices.bias) {
            saved.biases[p] = m_e.parameter({.dims = {localWidth}});
            projected = addBias(m_e, projected, saved.biases[p]);
        }
        saved.heads[p] = splitHeads(projected);
    }
    const Value scores = m_e.matmul(saved.heads[kQuery], saved.heads[kKey], {{0, 1}, {3}, {0, 1}, {3}});
    const Value logits = applyMask(scale(scores), -INFINITY);
    const std::vector<long>& dims = logits.shape.dims;
    const Value shifted = m_e.binary("subtract", logits, alongScoreRows(m_e, m_e.reduce(logits, {3}, Reducer::Max), dims));
    const Value exps = m_e.unary("exponential", shifted);
    saved.probs = m_e.binary("divide", exps, alongScoreRows(m_e, m_e.reduce(exps, {3}, Reducer::Add), dims));
    saved.context = m_e.matmul(saved.probs, saved.heads[kValue], {{0, 1}, {3}, {0, 1}, {2}}, false);
    // the output projection contracts heads and head dim at once: [b, s, hidden]
    saved.outWeight = m_e.parameter({.dims = {s.hidden, localWidth}});
    saved.outWeightHeads = m_e.reshape(m_e.matmulOperand(saved.outWeight), {s.hidden, s.localHeads, s.headDim});
    const Value merged = m_e.matmul(saved.context, saved.outWeightHeads, {{}, {1, 3}, {}, {1, 2}});
    Value out = m_e.reshape(merged, {s.batch * s.sequence, s.hidden});
    if (m_e.tensorParallel() > 1) out = m_e.allReduce(out);   // row-parallel: partial sums per shard
    if (m_choices.bias) {
        saved.outBias = m_e.parameter({.dims = {s.hidden}});
        out = addBias(m_e, out, saved.outBias);
    }
    return out;
}

Value AttentionEmitter::backward(const Value& dOut, const AttentionSaved& saved, std::vector<Trainable>& grads) {
    const AttentionSizes& s = m_sizes;
    const long localWidth = s.localHeads * s.headDim;
    const Value dMerged = m_e.reshape(dOut, {s.batch, s.sequence, s.hidden});
    const Value dOutWeight = m_e.reshape(m_e.matmul(dMerged, saved.context, {{}, {0, 1}, {}, {0, 2}}), {s.hidden, localWidth});
    const Value dContext = m_e.matmul(dMerged, saved.outWeightHeads, {{}, {2}, {}, {0}}, false);   // [b, s, h, d]
    const Value dProbs = m_e.matmul(dContext, saved.heads[kValue], {{0, 2}, {3}, {0, 1}, {3}});
    Value dHeads[3];
    dHeads[kValue] = m_e.matmul(saved.probs, dContext, {{0, 1}, {2}, {0, 2}, {1}}, false);
    // softmax backward: probs * (dprobs - sum(dprobs * probs))
    const std::vector<long>& dims = dProbs.shape.dims;
    const Value rowDot = m_e.reduce(m_e.binary("multiply", dProbs, saved.probs), {3}, Reducer::Add);
    const Value dLogits = m_e.binary("multiply", m_e.binary("subtract", dProbs, alongScoreRows(m_e, rowDot, dims)), saved.probs);
    const Value dScores = scale(applyMask(dLogits, 0));
    dHeads[kQuery] = m_e.matmul(dScores, saved.heads[kKey], {{0, 1}, {3}, {0, 1}, {2}}, false);
    dHeads[kKey] = m_e.matmul(dScores, saved.heads[kQuery], {{0, 1}, {2}, {0, 1}, {2}}, false);

    const Value input3 = m_e.reshape(saved.input, {s.batch, s.sequence, s.hidden});
    Value dInput;
    for (int p : {kQuery, kKey, kValue}) {
        const Value& d = dHeads[p];   // [b, h, s, d]
        grads.push_back({saved.weights[p], m_e.reshape(m_e.matmul(d, input3, {{}, {0, 2}, {}, {0, 1}}), {localWidth, s.hidden})});
        if (m_choices.bias) {
            const Value d32 = d.shape.type == "f32" ? d : m_e.convert(d, "f32");
            grads.push_back({saved.biases[p], m_e.reshape(m_e.reduce(d32, {0, 2}, Reducer::Add), {localWidth})});
        }
        const Value weightHeads = m_e.reshape(m_e.matmulOperand(saved.weights[p]), {s.localHeads, s.headDim, s.hidden});
        const Value part = m_e.matmul(d, weightHeads, {{}, {1, 3}, {}, {0, 1}});   // [b, s, hidden]
        dInput = dInput.name.empty() ? part : m_e.binary("add", dInput, part);
    }
    grads.push_back({saved.outWeight, dOutWeight});
    if (m_choices.bias) grads.push_back({saved.outBias, biasGrad(m_e, dOut)});
    const Value dx = m_e.reshape(dInput, {s.batch * s.sequence, s.hidden});
    return m_e.tensorParallel() > 1 ? m_e.allReduce(dx) : dx;   // column-parallel input: partial sums
}

} // namespace sl::hlostep
