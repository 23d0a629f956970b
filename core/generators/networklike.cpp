// SPDX-License-Identifier: MIT
// The "nn" family: computation graphs shaped like real networks (docs/training-graphs.md). Each
// graph draws a style (ResNet, Inception, DenseNet, Transformer, a mixed CNN, or a CNN with a
// transformer on top), an image batch and a width, then appends blocks of that style until it
// has exactly `nodes` ops: a 3-op stem, the blocks, a 4-op classifier head. Sizes are float32
// NCHW activations; durations are the ONNX importer's roofline on its nominal device.
#include "core/generators/generators.h"

#include "core/util/random.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sl {
namespace {

constexpr double kFloat = 4;                                    // bytes per element
constexpr double kFlopsPerMicrosecond = 1e6, kBytesPerMicrosecond = 1e5;   // as core/io's ONNX roofline
constexpr double kMaxActivation = 50.0 * 1024 * 1024;           // largest activation we make
constexpr double kMinStem = 1024.0 * 1024;                      // smallest first activation

enum class Style { ResNet, Inception, DenseNet, Transformer, MixedCnn, Hybrid };

/// An image activation (batch x c x h x w) or a token sequence (batch x n x d: c = d, h = n, w = 1).
struct Act {
    TensorId t = -1;
    long c = 0, h = 0, w = 0;
};

/// A block that fits the remaining op budget: its op count and how to build it.
struct Plan {
    int ops = 0;
    std::function<Act(Act)> build;
};

class NetBuilder {
public:
    NetBuilder(int nodes, std::uint64_t seed) : m_nodes(nodes), m_rng(seed) {}

    GeneratedInstance build() {
        m_style = static_cast<Style>(m_rng.integer(0, 5));
        m_batch = 1L << m_rng.integer(0, 5);                                  // 1..32
        const long side = std::array{32L, 64L, 112L, 224L}[static_cast<size_t>(m_rng.integer(0, 3))];
        const long width = 16L << m_rng.integer(0, 2);                       // 16, 32, 64
        // The stem's activation between kMinStem and kMaxActivation: small images get bigger batches.
        while (m_batch > 1 && bytes({-1, width, side / 2, side / 2}) > kMaxActivation) m_batch /= 2;
        while (m_batch < 256 && bytes({-1, width, side / 2, side / 2}) < kMinStem) m_batch *= 2;
        m_stages = {0.25 + 0.1 * m_rng.uniform(), 0.5 + 0.1 * m_rng.uniform(), 0.75 + 0.1 * m_rng.uniform()};
        m_switchAt = 0.35 + 0.3 * m_rng.uniform();
        m_tokens = m_style == Style::Transformer;
        Act x = m_tokens ? patchify({-1, 3, side, side}) : stem(side, width);
        while (m_g->opCount() < m_nodes - 4) x = nextBlock(x);
        head(x);
        if (m_g->opCount() != m_nodes) throw std::logic_error("nn generator: op budget miscounted");
        m_g->setTimeUnit(TimeUnit::Microseconds);   // roofline durations, as ONNX imports
        m_g->finalize();
        return {m_g, Platform::identical(1)};
    }

private:
    // ---- primitives ----
    double bytes(const Act& a) const { return static_cast<double>(m_batch * a.c * a.h * a.w) * kFloat; }
    double elements(const Act& a) const { return bytes(a) / kFloat; }

    /// One op reading `in`, writing one tensor per entry of `out`; returns the output tensors.
    std::vector<TensorId> emit(const std::string& type, const std::vector<TensorId>& in, const std::vector<double>& out,
                               double flops, double params) {
        const std::string name = "b" + std::to_string(m_block) + "." + type + std::to_string(m_inBlock++);
        double moved = params;
        for (TensorId t : in) moved += m_g->tensor(t).bytes;
        for (double b : out) moved += b;
        const OpId v = m_g->addOp({.name = name, .type = type,
                                   .duration = std::max(flops / kFlopsPerMicrosecond, moved / kBytesPerMicrosecond),
                                   .paramBytes = params});
        for (TensorId t : in) m_g->addConsumer(t, v);
        std::vector<TensorId> made;
        for (size_t k = 0; k < out.size(); ++k) made.push_back(m_g->addTensor(name + ":" + std::to_string(k), v, out[k]));
        return made;
    }
    Act unary(const std::string& type, Act x, double flopsPerElement = 1, double params = 0) {
        x.t = emit(type, {x.t}, {bytes(x)}, flopsPerElement * elements(x), params).front();
        return x;
    }
    Act conv(Act x, long cout, long k, long stride) {
        Act y{-1, capChannels(cout, (x.h + stride - 1) / stride, (x.w + stride - 1) / stride),
              (x.h + stride - 1) / stride, (x.w + stride - 1) / stride};
        const double params = static_cast<double>(y.c * x.c * k * k) * kFloat;
        y.t = emit("Conv", inputs(x), {bytes(y)}, 2 * elements(y) * static_cast<double>(x.c * k * k), params).front();
        return y;
    }
    /// A source tensor for the stem (the graph input is not a tensor, as in ONNX imports).
    std::vector<TensorId> inputs(const Act& x) const { return x.t < 0 ? std::vector<TensorId>{} : std::vector<TensorId>{x.t}; }
    Act bn(Act x) { return unary("BatchNormalization", x, 4, 4.0 * static_cast<double>(x.c) * kFloat); }
    Act convBn(Act x, long cout, long k, long stride) { return bn(conv(x, cout, k, stride)); }
    Act convBnRelu(Act x, long cout, long k, long stride) { return unary("Relu", convBn(x, cout, k, stride)); }
    Act add(Act a, const Act& b) {
        a.t = emit("Add", {a.t, b.t}, {bytes(a)}, elements(a), 0).front();
        return a;
    }
    Act concat(const std::vector<Act>& parts) {
        Act y = parts.front();
        y.c = 0;
        std::vector<TensorId> in;
        for (const Act& p : parts) {
            y.c += p.c;
            in.push_back(p.t);
        }
        y.t = emit("Concat", in, {bytes(y)}, elements(y), 0).front();
        return y;
    }
    Act pool(const std::string& type, Act x, long stride) {
        x.h = (x.h + stride - 1) / stride;
        x.w = (x.w + stride - 1) / stride;
        x.t = emit(type, {x.t}, {bytes(x)}, 9 * elements(x), 0).front();
        return x;
    }
    /// Fewer channels when an activation would pass kMaxActivation.
    long capChannels(long c, long h, long w) const {
        const double perChannel = static_cast<double>(m_batch * h * w) * kFloat;
        return std::max(1L, std::min(c, static_cast<long>(kMaxActivation / perChannel)));
    }

    // ---- stem and head ----
    Act stem(long side, long width) { return convBnRelu({-1, 3, side, side}, width, 7, 2); }
    /// Image to tokens: a strided Conv (patch embedding), Reshape, Transpose; at most 256 tokens.
    Act patchify(Act x) {
        const long patch = std::max(1L, (std::max(x.h, 16L) + 15) / 16);
        const long d = std::array{128L, 256L, 384L, 512L}[static_cast<size_t>(m_rng.integer(0, 3))];
        Act y = conv(x, d, patch, patch);
        y = unary("Reshape", y, 0);
        y = unary("Transpose", y, 1);
        return {y.t, y.c, y.h * y.w, 1};   // tokens x d
    }
    void head(Act x) {
        ++m_block;
        m_inBlock = 0;
        const long classes = std::array{10L, 100L, 1000L}[static_cast<size_t>(m_rng.integer(0, 2))];
        if (m_tokens) {
            x = unary("LayerNormalization", x, 5, 2.0 * static_cast<double>(x.c) * kFloat);
            x = pool("ReduceMean", x, x.h);
        } else {
            x = pool("GlobalAveragePool", x, std::max(x.h, x.w));
            x = unary("Flatten", x, 0);
        }
        Act y{-1, classes, 1, 1};
        y.t = emit("Gemm", {x.t}, {bytes(y)}, 2 * elements(y) * static_cast<double>(x.c),
                   static_cast<double>((x.c + 1) * classes) * kFloat).front();
        unary("Softmax", y, 5);
    }

    // ---- blocks ----
    Act nextBlock(Act x) {
        ++m_block;
        m_inBlock = 0;
        const int left = m_nodes - 4 - m_g->opCount();
        const Plan p = choose(x, left);
        const int before = m_g->opCount();
        Act y = p.build(x);
        if (m_g->opCount() - before != p.ops) throw std::logic_error("nn generator: a block plan miscounted its ops");
        return y;
    }

    /// A block of the style that fits `left` ops (a few tries), else a one-op filler.
    Plan choose(const Act& x, int left) {
        for (int attempt = 0; attempt < 8; ++attempt) {
            const Plan p = m_tokens ? tokenBlock() : imageBlock(x);
            if (p.ops <= left) return p;
        }
        return {1, [this](Act a) { return unary(m_tokens || m_rng.uniform() < 0.5 ? "Dropout" : "Relu", a); }};
    }

    double progress() const { return static_cast<double>(m_g->opCount()) / m_nodes; }

    Plan imageBlock(const Act& x) {
        if (m_style == Style::Hybrid && progress() >= m_switchAt)
            return {3, [this](Act a) { m_tokens = true; return patchify(a); }};
        if (m_nextStage < m_stages.size() && progress() >= m_stages[m_nextStage] && x.h >= 8) {
            ++m_nextStage;
            return downsample();
        }
        const double u = m_rng.uniform();
        switch (m_style) {
        case Style::ResNet: return u < 0.4 ? residual(false) : u < 0.8 ? residual(true) : u < 0.9 ? plainConv() : squeezeExcite();
        case Style::Inception: return u < 0.75 ? inception(x) : u < 0.9 ? plainConv() : dropout();
        case Style::DenseNet: return u < 0.8 ? dense(x) : plainConv();
        default:
            return u < 0.2 ? residual(false) : u < 0.35 ? residual(true) : u < 0.55 ? inception(x)
                 : u < 0.7 ? dense(x) : u < 0.85 ? squeezeExcite() : u < 0.95 ? plainConv() : dropout();
        }
    }

    Plan tokenBlock() {
        m_attentionNext = !m_attentionNext || m_rng.uniform() < 0.2;
        return m_attentionNext ? attention(m_rng.uniform() < 0.5) : mlp();
    }

    Plan plainConv() {
        const long k = m_rng.uniform() < 0.5 ? 1 : 3;
        return {3, [this, k](Act a) { return convBnRelu(a, a.c, k, 1); }};
    }
    Plan dropout() { return {1, [this](Act a) { return unary("Dropout", a); }}; }

    /// Stride 2 with wider channels, in the style's way.
    Plan downsample() {
        const double u = m_rng.uniform();
        if (m_style == Style::Inception || (m_style != Style::ResNet && m_style != Style::DenseNet && u < 0.3))
            return {1, [this](Act a) { return pool("MaxPool", a, 2); }};
        if (m_style == Style::DenseNet || (m_style != Style::ResNet && u < 0.6))
            return {4, [this](Act a) { return pool("AveragePool", convBnRelu(a, std::max(8L, a.c / 2), 1, 1), 2); }};
        return residualPlan(m_rng.uniform() < 0.5, 2);
    }

    Plan residual(bool bottleneck) { return residualPlan(bottleneck, 1); }
    /// Basic (3x3, 3x3) or bottleneck (1x1, 3x3, 1x1 at 4x) residual; a projection when the shape changes.
    Plan residualPlan(bool bottleneck, long stride) {
        const bool widen = stride > 1 || m_rng.uniform() < 0.1;
        const int ops = (bottleneck ? 10 : 7) + (widen ? 2 : 0);
        return {ops, [this, bottleneck, stride, widen](Act a) {
                    // ResNet's widths: up to 512 for basic blocks, 2048 (inner 512) for bottlenecks
                    const long cout = widen ? std::min(bottleneck ? 2048L : 512L, a.c * 2) : a.c;
                    Act y = bottleneck ? convBn(convBnRelu(convBnRelu(a, std::max(4L, cout / 4), 1, 1), std::max(4L, cout / 4), 3, stride), cout, 1, 1)
                                       : convBn(convBnRelu(a, cout, 3, stride), cout, 3, 1);
                    const Act shortcut = widen ? convBn(a, y.c, 1, stride) : a;
                    return unary("Relu", add(y, shortcut));
                }};
    }

    /// 2-4 parallel branches (1x1; 1x1-3x3; 1x1-5x5; pool-1x1), concatenated.
    Plan inception(const Act& x) {
        const int branches = static_cast<int>(m_rng.integer(2, 4));
        std::vector<int> kinds;
        int ops = 1;
        for (int b = 0; b < branches; ++b) {
            kinds.push_back(static_cast<int>(m_rng.integer(0, 3)));
            ops += kinds.back() == 0 ? 2 : kinds.back() == 3 ? 3 : 4;
        }
        // the concat is 1-1.5x as wide as the input (Inception widens block by block), capped
        const long width = std::min(1024L, capChannels(static_cast<long>(static_cast<double>(x.c) * m_rng.uniform(1.0, 1.5)), x.h, x.w));
        const long share = std::max(4L, width / branches);
        return {ops, [this, kinds, share](Act a) {
                    std::vector<Act> parts;
                    for (int kind : kinds) parts.push_back(branch(a, kind, share));
                    return concat(parts);
                }};
    }
    Act branch(const Act& a, int kind, long channels) {
        auto convRelu = [this](Act in, long c, long k) { return unary("Relu", conv(in, c, k, 1)); };
        if (kind == 0) return convRelu(a, channels, 1);
        if (kind == 3) return convRelu(pool("MaxPool", a, 1), channels, 1);
        return convRelu(convRelu(a, channels / 2 + 1, 1), channels, kind == 1 ? 3 : 5);
    }

    /// L layers, each BN-Relu-Conv3x3 (growth channels) over the concat of all earlier outputs,
    /// then a 1x1 Conv-BN-Relu back to the input width plus one growth (DenseNet-BC's compression,
    /// so that widths stay bounded over many blocks).
    Plan dense(const Act& x) {
        int layers = static_cast<int>(m_rng.integer(2, 5));
        const long growth = std::max(4L, std::min(32L, x.c / 4));
        while (layers > 1 && capChannels(x.c + layers * growth, x.h, x.w) < x.c + layers * growth) --layers;
        return {4 * layers + 3, [this, layers, growth](Act a) {
                    std::vector<Act> features{a};
                    for (int i = 0; i < layers; ++i) {
                        const Act in = i == 0 ? a : concat(features);
                        features.push_back(conv(unary("Relu", bn(in)), growth, 3, 1));
                    }
                    // at most 2/3 of the widest activation that fits, so the next block has room to grow
                    const long room = 2 * capChannels(1L << 20, a.h, a.w) / 3;
                    return convBnRelu(concat(features), std::max(4L, std::min({1024L, a.c + growth, room})), 1, 1);
                }};
    }

    /// Squeeze-and-excitation: channel weights from a pooled MLP, Sigmoid, scaling the input.
    Plan squeezeExcite() {
        return {6, [this](Act a) {
                    Act s = pool("GlobalAveragePool", a, std::max(a.h, a.w));
                    s = fullyConnected(s, std::max(4L, a.c / 4));
                    s = unary("Relu", s);
                    s = unary("Sigmoid", fullyConnected(s, a.c), 4);
                    a.t = emit("Mul", {a.t, s.t}, {bytes(a)}, elements(a), 0).front();
                    return a;
                }};
    }
    /// A MatMul/Gemm with a weight matrix (c -> cout) per position.
    Act fullyConnected(const Act& x, long cout, const std::string& type = "Gemm") {
        Act y{-1, cout, x.h, x.w};
        y.t = emit(type, {x.t}, {bytes(y)}, 2 * elements(y) * static_cast<double>(x.c),
                   static_cast<double>(x.c * cout) * kFloat).front();
        return y;
    }

    /// Pre-norm self-attention with a residual: LN, Q/K/V (three MatMuls, or one and a Split),
    /// scores MatMul, Softmax, context MatMul, output projection, Add.
    Plan attention(bool fused) {
        return {fused ? 8 : 9, [this, fused](Act a) {
                    const Act ln = unary("LayerNormalization", a, 5, 2.0 * static_cast<double>(a.c) * kFloat);
                    Act q = ln, k = ln, v = ln;
                    if (fused) {
                        const Act qkv = fullyConnected(ln, 3 * a.c, "MatMul");
                        const auto parts = emit("Split", {qkv.t}, {bytes(a), bytes(a), bytes(a)}, 0, 0);
                        q.t = parts[0];
                        k.t = parts[1];
                        v.t = parts[2];
                    } else {
                        q = fullyConnected(ln, a.c, "MatMul");
                        k = fullyConnected(ln, a.c, "MatMul");
                        v = fullyConnected(ln, a.c, "MatMul");
                    }
                    const Act scores{-1, heads(a.h), a.h, a.h};
                    const Act s{emit("MatMul", {q.t, k.t}, {bytes(scores)}, 2 * elements(scores) * static_cast<double>(a.c / scores.c), 0).front(),
                                scores.c, scores.h, scores.w};
                    const Act p = unary("Softmax", s, 5);
                    Act ctx = a;
                    ctx.t = emit("MatMul", {p.t, v.t}, {bytes(a)}, 2 * elements(scores) * static_cast<double>(a.c / scores.c), 0).front();
                    return add(a, fullyConnected(ctx, a.c, "MatMul"));
                }};
    }
    /// Heads of an attention over n tokens: 4-12, fewer when the scores would pass kMaxActivation.
    long heads(long n) {
        long h = 4L << m_rng.integer(0, 1);
        while (h > 1 && static_cast<double>(m_batch * h * n * n) * kFloat > kMaxActivation) h /= 2;
        return h;
    }
    Plan mlp() {
        return {5, [this](Act a) {
                    const Act ln = unary("LayerNormalization", a, 5, 2.0 * static_cast<double>(a.c) * kFloat);
                    const Act hidden = unary("Gelu", fullyConnected(ln, capChannels(4 * a.c, a.h, a.w), "MatMul"), 8);
                    return add(a, fullyConnected(hidden, a.c, "MatMul"));
                }};
    }

    int m_nodes;
    Rng m_rng;
    std::shared_ptr<Graph> m_g = std::make_shared<Graph>();
    Style m_style = Style::ResNet;
    long m_batch = 1;
    std::vector<double> m_stages;   ///< progress at which the next block downsamples
    size_t m_nextStage = 0;
    double m_switchAt = 0.5;        ///< Hybrid: progress at which the image becomes tokens
    bool m_tokens = false, m_attentionNext = false;
    int m_block = 0, m_inBlock = 0;
};

} // namespace

GeneratedInstance generateNetworkLike(int nodes, std::uint64_t seed) {
    if (nodes < 8 || nodes > 100'000)
        throw std::invalid_argument("--nodes must be between 8 and 100000 for nn, got " + std::to_string(nodes));
    return NetBuilder(nodes, seed).build();
}

} // namespace sl
