// SPDX-License-Identifier: MIT
// ONNX ops as ATen calls (onnxops.h; the approach is at the top of onnxops.cpp), the ops whose
// every output combines many inputs: over a window (Conv, ConvTranspose and the pools, whose
// asymmetric pads are padded explicitly first), an inner dimension (Gemm, MatMul, Einsum) or axes
// (the normalisations and LRN, Softmax and LogSoftmax, the Reduce ops, ArgMax and ArgMin, TopK,
// CumSum).
#include "models/timing/onnxopsbuilders.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace sl::models::timing::onnxops {

// --- windows: Conv and the pools ------------------------------------------------------------

namespace {

/// Kernel, strides, dilations and the begin/end pads of each spatial dimension, with auto_pad
/// resolved as ONNX defines it.
struct Window {
    Dims kernel, strides, dilations, padBegin, padEnd;
};

Window windowOf(const NodeContext& c, const Dims& inDims, Dims kernel) {
    const std::size_t n = kernel.size();
    if (inDims.size() != n + 2) throw NotMeasurable("input rank " + std::to_string(inDims.size()) + " does not fit a " + std::to_string(n) + "-D kernel");
    Window w;
    w.kernel = std::move(kernel);
    w.strides = c.attrInts("strides").value_or(Dims(n, 1));
    w.dilations = c.attrInts("dilations").value_or(Dims(n, 1));
    const Dims pads = c.attrInts("pads").value_or(Dims(2 * n, 0));
    if (w.strides.size() != n || w.dilations.size() != n || pads.size() != 2 * n)
        throw NotMeasurable("strides, dilations or pads do not match the kernel's rank");
    w.padBegin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(n));
    w.padEnd.assign(pads.begin() + static_cast<std::ptrdiff_t>(n), pads.end());
    const std::string autoPad = c.attrString("auto_pad", "NOTSET");
    if (autoPad == "VALID") {
        std::fill(w.padBegin.begin(), w.padBegin.end(), 0);
        std::fill(w.padEnd.begin(), w.padEnd.end(), 0);
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
        for (std::size_t i = 0; i < n; ++i) {
            const std::int64_t in = inDims[i + 2], s = std::max<std::int64_t>(w.strides[i], 1);
            const std::int64_t out = (in + s - 1) / s;
            const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * s + (w.kernel[i] - 1) * w.dilations[i] + 1 - in);
            w.padBegin[i] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            w.padEnd[i] = total - w.padBegin[i];
        }
    }
    return w;
}

/// ATen's kernels take one symmetric pad per dimension, at most `limit[i]`; the rest of the ONNX
/// pads is padded explicitly first. Returns the kernel's pads; `explicitPad` gets the pad list
/// for at::constant_pad_nd (last dimension first), empty when nothing is left.
Dims splitPads(const Window& w, const Dims& limit, Dims& explicitPad) {
    const std::size_t n = w.kernel.size();
    Dims symmetric(n);
    explicitPad.clear();
    bool any = false;
    for (std::size_t i = 0; i < n; ++i) symmetric[i] = std::min({w.padBegin[i], w.padEnd[i], limit[i]});
    for (std::size_t k = n; k-- > 0;) {
        explicitPad.push_back(w.padBegin[k] - symmetric[k]);
        explicitPad.push_back(w.padEnd[k] - symmetric[k]);
        any = any || explicitPad[explicitPad.size() - 2] != 0 || explicitPad.back() != 0;
    }
    if (!any) explicitPad.clear();
    return symmetric;
}

at::Tensor padded(const at::Tensor& x, const Dims& explicitPad, double value) {
    return explicitPad.empty() ? x : at::constant_pad_nd(x, explicitPad, value);
}

/// The pools get their input channels-last (converted before timing): ATen's NCHW pooling kernels
/// are scalar code, 15 to 30 times slower than its channels-last ones on a ResNet stem, while ORT's
/// (MLAS) pools vectorise NCHW. An explicit pad's result is made channels-last too.
at::Tensor poolLayout(const at::Tensor& x) {
    if (x.dim() == 4) return x.contiguous(at::MemoryFormat::ChannelsLast);
    if (x.dim() == 5) return x.contiguous(at::MemoryFormat::ChannelsLast3d);
    return x;
}

} // namespace

AtenCall conv(const NodeContext& c) {
    const at::Tensor x = c.input(0), w = c.input(1);
    const c10::optional<at::Tensor> b = c.optionalInput(2);
    const Window win = windowOf(c, c.inDims(0), Dims(w.sizes().begin() + 2, w.sizes().end()));
    Dims explicitPad;
    const Dims pads = splitPads(win, Dims(win.kernel.size(), std::numeric_limits<std::int64_t>::max()), explicitPad);
    const std::int64_t groups = c.attrInt("group", 1);
    const Dims noOutputPad(win.kernel.size(), 0);
    return [=] {
        (void)at::convolution(padded(x, explicitPad, 0), w, b, win.strides, pads, win.dilations, false, noOutputPad, groups);
    };
}

/// The pads follow from the inferred output shape (which covers pads, output_shape and
/// auto_pad alike): ATen pads both sides by ceil(total / 2) and adds the odd one back as
/// output_padding.
AtenCall convTranspose(const NodeContext& c) {
    const at::Tensor x = c.input(0), w = c.input(1);
    const c10::optional<at::Tensor> b = c.optionalInput(2);
    const Window win = windowOf(c, c.inDims(0), Dims(w.sizes().begin() + 2, w.sizes().end()));
    const std::size_t n = win.kernel.size();
    const Dims outputPadding = c.attrInts("output_padding").value_or(Dims(n, 0));
    const Dims& in = c.inDims(0);
    const Dims& out = c.outDims(0);
    Dims pads(n), extra(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t total = win.strides[i] * (in[i + 2] - 1) + outputPadding[i] + (win.kernel[i] - 1) * win.dilations[i] + 1 - out[i + 2];
        if (total < 0) throw NotMeasurable("ConvTranspose with negative pads");
        pads[i] = (total + 1) / 2;
        extra[i] = outputPadding[i] + 2 * pads[i] - total;
    }
    const std::int64_t groups = c.attrInt("group", 1);
    return [=] { (void)at::convolution(x, w, b, win.strides, pads, win.dilations, true, extra, groups); };
}

AtenCall maxPool(const NodeContext& c) {
    const at::Tensor x = poolLayout(c.input(0));
    const std::optional<Dims> kernel = c.attrInts("kernel_shape");
    if (!kernel) throw NotMeasurable("MaxPool without kernel_shape");
    const Window win = windowOf(c, c.inDims(0), *kernel);
    const std::size_t n = kernel->size();
    Dims limit(n);   // ATen: a pad of at most half the dilated kernel
    for (std::size_t i = 0; i < n; ++i) limit[i] = ((win.kernel[i] - 1) * win.dilations[i] + 1) / 2;
    Dims explicitPad;
    const Dims pads = splitPads(win, limit, explicitPad);
    const bool ceil = c.attrInt("ceil_mode", 0) != 0;
    const bool indices = c.hasOutput(1);   // ORT then computes the argmax too
    const double minusInf = -std::numeric_limits<double>::infinity();
    if (n < 1 || n > 3) throw NotMeasurable(std::to_string(n) + "-D MaxPool has no ATen equivalent");
    return [=] {
        const at::Tensor in = poolLayout(padded(x, explicitPad, minusInf));
        if (n == 1) (void)(indices ? std::get<0>(at::max_pool1d_with_indices(in, win.kernel, win.strides, pads, win.dilations, ceil))
                                   : at::max_pool1d(in, win.kernel, win.strides, pads, win.dilations, ceil));
        else if (n == 2) (void)(indices ? std::get<0>(at::max_pool2d_with_indices(in, win.kernel, win.strides, pads, win.dilations, ceil))
                                        : at::max_pool2d(in, win.kernel, win.strides, pads, win.dilations, ceil));
        else (void)(indices ? std::get<0>(at::max_pool3d_with_indices(in, win.kernel, win.strides, pads, win.dilations, ceil))
                            : at::max_pool3d(in, win.kernel, win.strides, pads, win.dilations, ceil));
    };
}

/// Explicit pads are zeros, so with count_include_pad=0 the border windows divide by a larger
/// count than ORT: the same work, slightly different values.
AtenCall averagePool(const NodeContext& c) {
    const at::Tensor x = poolLayout(c.input(0));
    const std::optional<Dims> kernel = c.attrInts("kernel_shape");
    if (!kernel) throw NotMeasurable("AveragePool without kernel_shape");
    const Window win = windowOf(c, c.inDims(0), *kernel);
    const std::size_t n = kernel->size();
    if (std::any_of(win.dilations.begin(), win.dilations.end(), [](std::int64_t d) { return d != 1; }))
        throw NotMeasurable("dilated AveragePool has no ATen equivalent");
    Dims limit(n);
    for (std::size_t i = 0; i < n; ++i) limit[i] = win.kernel[i] / 2;
    Dims explicitPad;
    const Dims pads = splitPads(win, limit, explicitPad);
    const bool ceil = c.attrInt("ceil_mode", 0) != 0, includePad = c.attrInt("count_include_pad", 0) != 0;
    if (n < 1 || n > 3) throw NotMeasurable(std::to_string(n) + "-D AveragePool has no ATen equivalent");
    return [=] {
        const at::Tensor in = poolLayout(padded(x, explicitPad, 0));
        if (n == 1) (void)at::avg_pool1d(in, win.kernel, win.strides, pads, ceil, includePad);
        else if (n == 2) (void)at::avg_pool2d(in, win.kernel, win.strides, pads, ceil, includePad);
        else (void)at::avg_pool3d(in, win.kernel, win.strides, pads, ceil, includePad);
    };
}

namespace {

Dims spatialDims(std::int64_t rank) {
    Dims d;
    for (std::int64_t i = 2; i < rank; ++i) d.push_back(i);
    return d;
}

} // namespace

AtenCall globalAveragePool(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims dims = spatialDims(c.inRank(0));
    return [=] { (void)at::mean(x, dims, /*keepdim=*/true); };
}

AtenCall globalMaxPool(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims dims = spatialDims(c.inRank(0));
    return [=] { (void)at::amax(x, dims, /*keepdim=*/true); };
}

// --- matrix products -------------------------------------------------------------------------

/// Transposes are views: at::mm hands BLAS the transpose flag, as ORT's Gemm does.
AtenCall gemm(const NodeContext& c) {
    at::Tensor a = c.input(0), b = c.input(1);
    if (c.attrInt("transA", 0)) a = a.t();
    if (c.attrInt("transB", 0)) b = b.t();
    const double alpha = c.attrFloat("alpha", 1.0), beta = c.attrFloat("beta", 1.0);
    if (c.has(2) && beta != 0) {
        const at::Tensor bias = c.input(2);
        return [=] { (void)at::addmm(bias, a, b, beta, alpha); };
    }
    return [=] {
        at::Tensor y = at::mm(a, b);
        if (alpha != 1.0) y.mul_(alpha);
    };
}

AtenCall matMul(const NodeContext& c) {
    const at::Tensor a = c.input(0), b = c.input(1);
    return [=] { (void)at::matmul(a, b); };
}

AtenCall einsum(const NodeContext& c) {
    std::vector<at::Tensor> in;
    for (std::size_t i = 0; i < c.inputCount(); ++i) in.push_back(c.input(i));
    const std::string equation = c.attrString("equation", "");
    return [=] { (void)at::einsum(equation, in); };
}

// --- normalisation -------------------------------------------------------------------------

/// Inference (training_mode 0, the default): the running statistics are used. A per-activation
/// BatchNormalization (opset < 9, spatial=0) is composed from broadcasting ops.
AtenCall batchNormalization(const NodeContext& c) {
    const at::Tensor x = c.input(0), scale = c.input(1), bias = c.input(2), mean = c.input(3), var = c.input(4);
    const double eps = c.attrFloat("epsilon", 1e-5), momentum = c.attrFloat("momentum", 0.9);
    const bool training = c.attrInt("training_mode", 0) != 0;
    if (c.inRank(0) >= 2 && scale.numel() == c.inDims(0)[1])
        return [=] { (void)at::batch_norm(x, scale, bias, mean, var, training, 1 - momentum, eps, false); };
    return [=] { (void)((x - mean) / at::sqrt(var + eps) * scale + bias); };
}

AtenCall instanceNormalization(const NodeContext& c) {
    const at::Tensor x = c.input(0), scale = c.input(1), bias = c.input(2);
    const double eps = c.attrFloat("epsilon", 1e-5);
    return [=] { (void)at::instance_norm(x, scale, bias, {}, {}, true, 0.0, eps, false); };
}

AtenCall layerNormalization(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims& d = c.inDims(0);
    const auto axis = static_cast<std::size_t>(normalizedAxis(c.attrInt("axis", -1), c.inRank(0)));
    const Dims normalized(d.begin() + static_cast<std::ptrdiff_t>(axis), d.end());
    const std::int64_t count = product(normalized);
    const double eps = c.attrFloat("epsilon", 1e-5);
    auto affine = [&](std::size_t i) -> c10::optional<at::Tensor> {
        if (!c.has(i)) return c10::nullopt;
        const at::Tensor t = c.input(i);
        if (t.numel() != count) throw NotMeasurable("LayerNormalization with a broadcast scale or bias");
        return t.reshape(normalized);
    };
    const c10::optional<at::Tensor> scale = affine(1), bias = affine(2);
    return [=] { (void)at::layer_norm(x, normalized, scale, bias, eps, false); };
}

AtenCall groupNormalization(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const std::int64_t groups = c.attrInt("num_groups", 1);
    const double eps = c.attrFloat("epsilon", 1e-5);
    const std::int64_t channels = c.inRank(0) >= 2 ? c.inDims(0)[1] : 0;
    const at::Tensor scale = c.input(1), bias = c.input(2);
    // opset 18 scales per group, opset 21 per channel: ATen takes per-channel, so a per-group
    // scale is applied after an unscaled normalisation (one more pass)
    if (scale.numel() == channels) return [=] { (void)at::group_norm(x, groups, scale, bias, eps, false); };
    return [=] { (void)at::group_norm(x, groups, {}, {}, eps, false); };
}

/// Composed: the squares summed over a window of channels by shifted adds (ATen has no LRN and
/// its NCHW average pool, which torch.nn.functional.local_response_norm uses, is scalar code),
/// then scaled, raised and divided: size + 6 vectorised passes, as ORT's LRN loops over the
/// window too. The window covers ONNX's [c - floor((size-1)/2), c + ceil((size-1)/2)].
AtenCall lrn(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims& d = c.inDims(0);
    if (d.size() < 3) throw NotMeasurable("LRN of a rank-" + std::to_string(d.size()) + " tensor");
    const std::int64_t size = std::max<std::int64_t>(c.attrInt("size", 1), 1);
    const double alpha = c.attrFloat("alpha", 1e-4), beta = c.attrFloat("beta", 0.75), bias = c.attrFloat("bias", 1.0);
    const std::int64_t channels = d[1];
    const Dims flat = {d[0], channels, product(d, 2)};
    const Dims channelPad = {0, 0, (size - 1) / 2, size / 2};
    return [=] {
        const at::Tensor squares = at::constant_pad_nd((x * x).reshape(flat), channelPad, 0);
        at::Tensor sum = squares.narrow(1, 0, channels).clone();
        for (std::int64_t j = 1; j < size; ++j) sum.add_(squares.narrow(1, j, channels));
        sum.mul_(alpha / static_cast<double>(size)).add_(bias).pow_(beta);
        (void)(x / sum.reshape(x.sizes()));
    };
}

// --- softmax and reductions ----------------------------------------------------------------

/// Before opset 13 Softmax flattens its input to 2-D at `axis` (default 1) and normalises the rows;
/// from 13 on it normalises along `axis` (default -1).
template <bool Log>
AtenCall softmax(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const std::int64_t rank = c.inRank(0);
    if (c.opset() >= 13) {
        const std::int64_t axis = normalizedAxis(c.attrInt("axis", -1), rank);
        return [=] { (void)(Log ? at::log_softmax(x, axis) : at::softmax(x, axis)); };
    }
    const auto axis = static_cast<std::size_t>(normalizedAxis(c.attrInt("axis", 1), rank));
    const Dims rows = {product(c.inDims(0), 0, axis), product(c.inDims(0), axis)};
    return [=] {
        const at::Tensor flat = x.reshape(rows);   // a view: x is contiguous
        (void)(Log ? at::log_softmax(flat, 1) : at::softmax(flat, 1));
    };
}

template AtenCall softmax<false>(const NodeContext& c);
template AtenCall softmax<true>(const NodeContext& c);

namespace {

/// The reduced axes: from the attribute or the constant input; without either, all axes unless
/// noop_with_empty_axes.
Dims reducedAxes(const NodeContext& c) {
    const std::int64_t rank = c.inRank(0);
    std::optional<Dims> axes = c.axes("axes", 1);
    if (!axes && c.has(1)) throw NotMeasurable("the reduced axes are computed in the graph, not constant");
    Dims out;
    if (!axes || axes->empty()) {
        if (c.attrInt("noop_with_empty_axes", 0)) return out;
        out.resize(static_cast<std::size_t>(rank));
        std::iota(out.begin(), out.end(), 0);
        return out;
    }
    for (std::int64_t a : *axes) out.push_back(normalizedAxis(a, rank));
    return out;
}

} // namespace

AtenCall reduce(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims axes = reducedAxes(c);
    const bool keep = c.attrInt("keepdims", 1) != 0;
    const std::string& t = c.type();
    if (t == "ReduceMean") return [=] { (void)at::mean(x, axes, keep); };
    if (t == "ReduceSum") return [=] { (void)at::sum(x, axes, keep); };
    if (t == "ReduceMax") return [=] { (void)at::amax(x, axes, keep); };
    if (t == "ReduceMin") return [=] { (void)at::amin(x, axes, keep); };
    if (t == "ReduceL1") return [=] { (void)at::linalg_vector_norm(x, 1, axes, keep); };
    if (t == "ReduceL2") return [=] { (void)at::linalg_vector_norm(x, 2, axes, keep); };
    if (t == "ReduceLogSumExp") return [=] { (void)at::logsumexp(x, axes, keep); };
    if (t == "ReduceSumSquare") return [=] { (void)at::sum(x * x, axes, keep); };   // two passes; ORT fuses
    if (t == "ReduceProd")
        return [=] {   // ATen's prod takes one axis at a time
            at::Tensor y = x;
            for (auto it = axes.rbegin(); it != axes.rend(); ++it) y = at::prod(y, *it, keep);
        };
    throw NotMeasurable("no ATen equivalent for " + t);
}

AtenCall argExtreme(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const std::int64_t axis = normalizedAxis(c.attrInt("axis", 0), c.inRank(0));
    const bool keep = c.attrInt("keepdims", 1) != 0;
    if (c.type() == "ArgMax") return [=] { (void)at::argmax(x, axis, keep); };
    return [=] { (void)at::argmin(x, axis, keep); };
}

AtenCall topK(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const std::int64_t axis = normalizedAxis(c.attrInt("axis", -1), c.inRank(0));
    const std::int64_t k = c.outDims(0)[static_cast<std::size_t>(axis)];
    const bool largest = c.attrInt("largest", 1) != 0, sorted = c.attrInt("sorted", 1) != 0;
    return [=] { (void)at::topk(x, k, axis, largest, sorted); };
}

AtenCall cumSum(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const std::optional<Dims> axis = c.ints(1);
    if (!axis || axis->size() != 1) throw NotMeasurable("CumSum's axis is computed in the graph, not constant");
    const std::int64_t a = normalizedAxis((*axis)[0], c.inRank(0));
    return [=] { (void)at::cumsum(x, a); };
}

} // namespace sl::models::timing::onnxops
