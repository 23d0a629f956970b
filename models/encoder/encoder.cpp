// SPDX-License-Identifier: MIT
// The masked multi-head Topoformer encoder (Gagrani et al. 2022, §4.1 eqs. 4-5, App. C.2) and its
// input tensors.
#include "models/encoder/encoder.h"
#include "models/encoder/relationattention.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

#include <dlfcn.h>

namespace sl::models {

namespace {

// ---- attention without per-matrix dispatch --------------------------------------------------------

/// The BLAS sgemm_ that LibTorch calls, looked up at run time (as in maththreads.cpp: no link flag;
/// null without a BLAS, then the LibTorch path runs).
using SgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                         const int*, const float*, const int*, const float*, float*, const int*);
SgemmFn blasSgemm() {
    static const auto fn = reinterpret_cast<SgemmFn>(dlsym(RTLD_DEFAULT, "sgemm_"));
    return fn;
}

/// LibTorch 1.13's bmm/baddbmm multiply each matrix of a batch with the BLAS only when
/// contraction x rows x columns >= 400 (below, a plain loop): attendDirect reproduces the BLAS path.
bool directAttentionApplies(const EncoderContext& c, std::int64_t dk) {
    return c.directAttention && !at::GradMode::is_enabled() && blasSgemm() && c.ops * c.ops * dk >= 400;
}

/// The attention messages [B, N, H * dk] of qkv [B, N, 3, H, dk] (contiguous), no gradient: per
/// graph and head, the two sgemm_ calls that at::baddbmm(bias, q, k^T, 1, scale) and
/// at::matmul(attn, v) make per matrix (same transposes, sizes, alpha and beta: the same numbers,
/// checked bit for bit by tst_encoder), reading q, k and v in place and writing the messages in
/// place (leading dimensions instead of copies). What it saves is LibTorch's per-matrix dispatch
/// (select, as_strided, addmm_ per matrix): on small graphs it cost more than the products.
at::Tensor attendDirect(const at::Tensor& qkv, const EncoderContext& c, std::int64_t heads, std::int64_t dk, double scale) {
    const SgemmFn gemm = blasSgemm();
    const std::int64_t b = c.batch, n = c.ops;
    const int ni = static_cast<int>(n), dki = static_cast<int>(dk);
    const int ldQkv = static_cast<int>(3 * heads * dk), ldMsg = static_cast<int>(heads * dk), ldS = ni;
    const float alpha = static_cast<float>(scale), one = 1.0f, zero = 0.0f;
    const float* in = qkv.data_ptr<float>();
    at::Tensor scores = c.bias.clone();   // baddbmm's result starts as its input
    float* s = scores.data_ptr<float>();
    for (std::int64_t g = 0; g < b; ++g)
        for (std::int64_t h = 0; h < heads; ++h) {
            const float* q = in + g * n * ldQkv + h * dk;
            const float* k = q + heads * dk;
            // scores^T (column-major) = alpha * k q^T + scores^T: row-major scores = bias + alpha q k^T
            gemm("T", "N", &ni, &ni, &dki, &alpha, k, &ldQkv, q, &ldQkv, &one, s + (g * heads + h) * n * n, &ldS);
        }
    const at::Tensor attn = at::softmax(scores.view({b, heads, n, n}), -1).mul_(c.rowKey);   // see forward()
    const float* a = attn.data_ptr<float>();
    at::Tensor msg = at::empty({b, n, heads * dk}, qkv.options());
    float* out = msg.data_ptr<float>();
    for (std::int64_t g = 0; g < b; ++g)
        for (std::int64_t h = 0; h < heads; ++h) {
            const float* v = in + g * n * ldQkv + 2 * heads * dk + h * dk;
            // msg^T (column-major, head h's columns) = v^T attn^T: row-major msg = attn v
            gemm("N", "N", &dki, &ni, &ni, &one, v, &ldQkv, a + (g * heads + h) * n * n, &ldS, &zero,
                 out + g * n * ldMsg + h * dk, &ldMsg);
        }
    return msg;
}

} // namespace

// ---- input tensors ------------------------------------------------------------------------------

EncoderInput makeEncoderInput(const NodeFeatures& features, const GraphMasks& masks) {
    if (features.ops != masks.ops) throw std::invalid_argument("makeEncoderInput: features and masks differ in size");
    const std::int64_t n = features.ops;
    EncoderInput in;
    in.x = at::from_blob(const_cast<float*>(features.values.data()), {n, features.width}, at::kFloat).clone();
    in.maskBias = at::full({kMaskCount, n, n}, kMaskedBias, at::kFloat);
    float* bias = in.maskBias.data_ptr<float>();
    const size_t nn = static_cast<size_t>(n) * static_cast<size_t>(n);
    // Row v (receiver), column u (sender): allowed iff (u, v) is in the set.
    const std::vector<std::uint8_t>* forward[3] = {&masks.reduction, &masks.redundant, &masks.closureRest};
    for (int k = 0; k < 3; ++k) {
        const std::vector<std::uint8_t>& m = *forward[k];
        float* fwd = bias + static_cast<size_t>(k) * nn;
        float* back = bias + static_cast<size_t>(k + 3) * nn;
        for (std::int64_t u = 0; u < n; ++u)
            for (std::int64_t v = 0; v < n; ++v)
                if (m[static_cast<size_t>(u * n + v)]) {
                    fwd[static_cast<size_t>(v * n + u)] = 0;    // forward: v hears u
                    back[static_cast<size_t>(u * n + v)] = 0;   // backward: (v, u) in the set, u hears v
                }
    }
    float* inc = bias + 6 * nn;
    for (size_t i = 0; i < nn; ++i)
        if (masks.incomparable[i]) inc[i] = 0;
    in.rowHasKey = (in.maskBias > -1.0f).any(-1, /*keepdim=*/true).to(at::kFloat);
    in.nodeMask = at::ones({n}, at::kFloat);
    in.sizes = {static_cast<int>(n)};
    return in;
}

EncoderInput makeEncoderInput(const NodeFeatures& features, std::shared_ptr<const GraphRelations> relations) {
    if (!relations || features.ops != relations->ops)
        throw std::invalid_argument("makeEncoderInput: features and relations differ in size");
    const std::int64_t n = features.ops;
    EncoderInput in;
    in.x = at::from_blob(const_cast<float*>(features.values.data()), {n, features.width}, at::kFloat).clone();
    in.nodeMask = at::ones({n}, at::kFloat);
    in.sizes = {static_cast<int>(n)};
    in.relations = std::move(relations);
    return in;
}

EncoderInput batchInputs(const std::vector<EncoderInput>& inputs) {
    if (inputs.empty()) throw std::invalid_argument("batchInputs: no inputs");
    std::int64_t nmax = 0;
    for (const auto& in : inputs) {
        if (in.batched()) throw std::invalid_argument("batchInputs: inputs must be unbatched");
        if (in.relations) throw std::invalid_argument("batchInputs: an input by relations is for one graph alone");
        nmax = std::max<std::int64_t>(nmax, in.x.size(0));
    }
    const auto b = static_cast<std::int64_t>(inputs.size());
    const std::int64_t f = inputs[0].x.size(1);
    EncoderInput out;
    out.x = at::zeros({b, nmax, f}, at::kFloat);
    out.maskBias = at::full({b, kMaskCount, nmax, nmax}, kMaskedBias, at::kFloat);
    out.rowHasKey = at::zeros({b, kMaskCount, nmax, 1}, at::kFloat);
    out.nodeMask = at::zeros({b, nmax}, at::kFloat);
    for (std::int64_t i = 0; i < b; ++i) {
        const EncoderInput& in = inputs[static_cast<size_t>(i)];
        const std::int64_t n = in.x.size(0);
        if (in.x.size(1) != f) throw std::invalid_argument("batchInputs: feature widths differ");
        out.x[i].narrow(0, 0, n).copy_(in.x);
        out.maskBias[i].narrow(1, 0, n).narrow(2, 0, n).copy_(in.maskBias);
        out.rowHasKey[i].narrow(1, 0, n).copy_(in.rowHasKey);
        out.nodeMask[i].narrow(0, 0, n).fill_(1);
        out.sizes.push_back(static_cast<int>(n));
    }
    return out;
}

// ---- module -------------------------------------------------------------------------------------

TopoformerEncoderImpl::TopoformerEncoderImpl(const EncoderConfig& config) : m_config(config) {
    const std::int64_t d = config.width;
    const std::int64_t heads = config.totalHeads();
    const std::int64_t inner = heads * config.headDim;
    m_embed = register_module("embed", torch::nn::Linear(config.inputWidth, d));
    for (int k = 0; k < kMaskCount; ++k)
        for (int h = 0; h < config.headsPerMask[static_cast<size_t>(k)]; ++h) m_headMask.push_back(k);
    for (int l = 0; l < config.layers; ++l) {
        const std::string p = "layer" + std::to_string(l) + "_";
        Layer layer;
        layer.norm1 = register_module(p + "norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        layer.norm2 = register_module(p + "norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        if (heads > 0) {
            layer.qkv = register_module(p + "qkv", torch::nn::Linear(d, 3 * inner));
            layer.out = register_module(p + "out", torch::nn::Linear(inner, d));
        }
        layer.mlp1 = register_module(p + "mlp1", torch::nn::Linear(d, config.mlpHidden));
        layer.mlp2 = register_module(p + "mlp2", torch::nn::Linear(config.mlpHidden, d));
        if (config.filmDim > 0) {
            layer.filmScale = register_module(p + "film_scale", torch::nn::Linear(config.filmDim, config.mlpHidden));
            layer.filmShift = register_module(p + "film_shift", torch::nn::Linear(config.filmDim, config.mlpHidden));
            // Identity at initialisation (scale 1, shift 0, whatever the temperature): the GFlowNet paper
            // does not say how FiLM starts (docs/gflownet.md, 'Choices where the paper is silent').
            torch::NoGradGuard noGrad;
            layer.filmScale->weight.zero_();
            layer.filmScale->bias.fill_(1);
            layer.filmShift->weight.zero_();
            layer.filmShift->bias.zero_();
        }
        m_layers.push_back(layer);
    }
    if (config.filmDim > 0) {
        m_filmA = register_module("film_a", torch::nn::Linear(1, config.filmDim));
        m_filmB = register_module("film_b", torch::nn::Linear(config.filmDim, config.filmDim));
    }
    if (config.finalNorm) m_finalNorm = register_module("final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
}

torch::Tensor TopoformerEncoderImpl::temperatureEmbedding(const torch::Tensor& logSigma, std::int64_t batch) {
    if (!logSigma.defined()) throw std::invalid_argument("TopoformerEncoder: a FiLM model needs log sigma");
    at::Tensor s = logSigma.to(at::kFloat).reshape({-1, 1});
    if (s.size(0) == 1) s = s.expand({batch, 1});
    if (s.size(0) != batch) throw std::invalid_argument("TopoformerEncoder: one log sigma per graph of the batch");
    return at::relu(m_filmB->forward(at::relu(m_filmA->forward(s))));
}

torch::Tensor TopoformerEncoderImpl::forward(const EncoderInput& input, const torch::Tensor& logSigma) {
    const bool batched = input.batched();
    const at::Tensor x = batched ? input.x : input.x.unsqueeze(0);
    const at::Tensor h = forward(x, prepare(input, x.size(0), logSigma));
    return batched ? h : h.squeeze(0);
}

EncoderContext TopoformerEncoderImpl::prepare(const EncoderInput& input, std::int64_t b, const torch::Tensor& logSigma) {
    EncoderContext c;
    c.batch = b;
    c.ops = input.relations ? input.x.size(-2) : input.maskBias.size(-1);
    const std::int64_t n = c.ops, heads = m_config.totalHeads();
    if (input.relations) {
        if (b != 1) throw std::invalid_argument("TopoformerEncoder: an input by relations is one graph");
        c.relations = input.relations;
    } else if (heads > 0) {
        // Unbatched masks serve every graph of a batch of states of one graph (expand: no copy
        // until the reshape, once per context; a view for per-graph masks).
        const at::Tensor maskBias = input.maskBias.dim() == 4 ? input.maskBias : input.maskBias.unsqueeze(0);
        const at::Tensor rowHasKey = input.rowHasKey.dim() == 4 ? input.rowHasKey : input.rowHasKey.unsqueeze(0);
        const at::Tensor index = at::tensor(m_headMask, at::kLong);
        c.bias = maskBias.index_select(1, index).expand({b, heads, n, n}).reshape({b * heads, n, n});
        c.rowKey = rowHasKey.index_select(1, index);   // [B or 1, H, N, 1]
    }
    if (m_config.filmDim > 0) {
        const at::Tensor film = temperatureEmbedding(logSigma, b).unsqueeze(1);   // [B, 1, filmDim]
        for (Layer& layer : m_layers) {
            c.filmScale.push_back(layer.filmScale->forward(film));
            c.filmShift.push_back(layer.filmShift->forward(film));
        }
    }
    return c;
}

torch::Tensor TopoformerEncoderImpl::forward(const torch::Tensor& x, const EncoderContext& c) {
    if (x.size(2) != m_config.inputWidth)
        throw std::invalid_argument("TopoformerEncoder: input has " + std::to_string(x.size(2)) + " features, expected " +
                                    std::to_string(m_config.inputWidth));
    const std::int64_t b = x.size(0), n = x.size(1);
    if (b != c.batch || n != c.ops) throw std::invalid_argument("TopoformerEncoder: the input does not fit the context");
    const std::int64_t heads = m_config.totalHeads();
    const std::int64_t dk = m_config.headDim;
    const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
    const bool direct = heads > 0 && directAttentionApplies(c, dk);
    at::Tensor h = m_embed->forward(x);
    for (size_t l = 0; l < m_layers.size(); ++l) {
        Layer& layer = m_layers[l];
        if (heads > 0 && c.relations) {
            if (at::GradMode::is_enabled()) throw std::invalid_argument("TopoformerEncoder: attention by relations is for inference (no gradient)");
            const at::Tensor qkv = layer.qkv->forward(layer.norm1->forward(h))[0].contiguous();
            h = h + layer.out->forward(attendByRelations(qkv, *c.relations, m_headMask, dk, scale).unsqueeze(0));
        } else if (heads > 0 && direct) {
            h = h + layer.out->forward(attendDirect(layer.qkv->forward(layer.norm1->forward(h)), c, heads, dk, scale));
        } else if (heads > 0) {
            const at::Tensor z = layer.norm1->forward(h);
            const at::Tensor qkv = layer.qkv->forward(z).view({b, n, 3, heads, dk}).permute({2, 0, 3, 1, 4});
            const at::Tensor q = qkv[0], k = qkv[1], v = qkv[2];   // [B, H, N, dk]
            // scale * q k^T + bias in one [B*H, N, N] buffer (fewer N^2 temporaries: at 1,000 ops
            // each one is 56 MB of fresh pages).
            const at::Tensor scores =
                at::baddbmm(c.bias, q.reshape({b * heads, n, dk}), k.reshape({b * heads, n, dk}).transpose(1, 2),
                            /*beta=*/1.0, /*alpha=*/scale)
                    .view({b, heads, n, n});
            // Fully masked rows: softmax of equal -1e9 values is uniform; the row indicator zeroes it
            // (finite everywhere, so no NaN gradient as with -inf + nan_to_num). In place when no
            // gradient is recorded (inference).
            at::Tensor attn = at::softmax(scores, -1);
            attn = at::GradMode::is_enabled() ? attn * c.rowKey : attn.mul_(c.rowKey);
            const at::Tensor msg = at::matmul(attn, v).permute({0, 2, 1, 3}).reshape({b, n, heads * dk});
            h = h + layer.out->forward(msg);
        }
        at::Tensor hidden = layer.mlp1->forward(layer.norm2->forward(h));
        if (!c.filmScale.empty()) hidden = c.filmScale[l] * hidden + c.filmShift[l];   // Eq. 30
        h = h + layer.mlp2->forward(m_config.reluMlp ? at::relu(hidden) : at::gelu(hidden));
    }
    if (m_config.finalNorm) h = m_finalNorm->forward(h);
    return h;
}

} // namespace sl::models
