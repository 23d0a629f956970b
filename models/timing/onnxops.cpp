// SPDX-License-Identifier: MIT
// ONNX ops as ATen calls (onnxops.h). The goal is the time ONNX Runtime's CPU kernel would take at
// these shapes, so each builder picks the ATen function doing the same work, and:
//   - views stay views where ORT aliases its output to its input (Reshape, Flatten, Squeeze,
//     Unsqueeze, Identity, Dropout at inference): their time is the dispatch alone;
//   - a view is made contiguous where ORT writes a new buffer (Transpose, Slice, Split, Expand,
//     DepthToSpace, SpaceToDepth): the copy is the op;
//   - ops ATen has no single kernel for are composed from the kernels PyTorch itself uses (LRN as
//     torch.nn.functional.local_response_norm, HardSigmoid with other constants, Softsign): those
//     make several passes where ORT makes one, and say so at their builder;
//   - asymmetric pads of Conv and the pools become an explicit at::constant_pad_nd before the
//     kernel (ATen pads symmetrically), as ORT's own Conv pads inside its im2col.
// Anything else is "no ATen equivalent for <op_type>": the op keeps its catalogue estimate.
#include "models/timing/onnxops.h"

#include <ATen/ATen.h>

#include <onnx/defs/tensor_proto_util.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>

namespace sl::models::timing {

namespace {

using Dims = std::vector<std::int64_t>;

at::ScalarType atenScalarType(int elemType) {
    using T = onnx::TensorProto_DataType;
    switch (elemType) {
    case T::TensorProto_DataType_FLOAT: return at::kFloat;
    case T::TensorProto_DataType_DOUBLE: return at::kDouble;
    case T::TensorProto_DataType_FLOAT16: return at::kHalf;
    case T::TensorProto_DataType_BFLOAT16: return at::kBFloat16;
    case T::TensorProto_DataType_INT8: return at::kChar;
    case T::TensorProto_DataType_UINT8: return at::kByte;
    case T::TensorProto_DataType_INT16: return at::kShort;
    case T::TensorProto_DataType_INT32: return at::kInt;
    case T::TensorProto_DataType_INT64: return at::kLong;
    case T::TensorProto_DataType_BOOL: return at::kBool;
    default:
        throw NotMeasurable("element type " + std::string(onnx::TensorProto_DataType_Name(static_cast<T>(elemType))) +
                            " has no ATen equivalent");
    }
}

std::int64_t product(const Dims& d, std::size_t from = 0, std::size_t to = std::numeric_limits<std::size_t>::max()) {
    std::int64_t p = 1;
    for (std::size_t i = from; i < std::min(to, d.size()); ++i) p *= d[i];
    return p;
}

/// ONNX axes may count from the end.
std::int64_t normalizedAxis(std::int64_t axis, std::int64_t rank) {
    const std::int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || (rank > 0 && a >= rank) || (rank == 0 && a != 0))
        throw NotMeasurable("axis " + std::to_string(axis) + " is outside rank " + std::to_string(rank));
    return a;
}

/// What a builder reads of its node: attributes, input values of the inferred shapes, constants.
class NodeContext {
public:
    NodeContext(const onnx::NodeProto& node, const NodeIo& io) : m_node(node), m_io(io) {}

    const std::string& type() const { return m_node.op_type(); }
    int opset() const { return m_io.opset; }
    std::size_t inputCount() const { return m_io.inputs.size(); }
    bool has(std::size_t i) const { return i < m_io.inputNames.size() && !m_io.inputNames[i].empty(); }
    bool hasOutput(std::size_t i) const { return i < m_io.outputNames.size() && !m_io.outputNames[i].empty(); }

    const Dims& inDims(std::size_t i) const { return known(m_io.inputs, m_io.inputNames, i, "input").dims; }
    const Dims& outDims(std::size_t i) const { return known(m_io.outputs, m_io.outputNames, i, "output").dims; }
    std::int64_t inRank(std::size_t i) const { return static_cast<std::int64_t>(inDims(i).size()); }
    at::ScalarType outType(std::size_t i) const { return atenScalarType(known(m_io.outputs, m_io.outputNames, i, "output").elemType); }

    /// Input i as a tensor: the model's data for integer constants (shapes, indices, axes), else
    /// random values (normal for floating types; 1..7 for integers, so that no Div or Mod divides
    /// by zero; either for bool) of its shape.
    at::Tensor input(std::size_t i) const {
        const ValueSig& v = known(m_io.inputs, m_io.inputNames, i, "input");
        const at::ScalarType t = atenScalarType(v.elemType);
        if (v.constant && !c10::isFloatingType(t))
            if (const std::optional<Dims> data = ints(i)) return at::tensor(*data, at::kLong).reshape(v.dims).to(t);
        if (c10::isFloatingType(t)) return at::randn(v.dims, at::kFloat).to(t);
        if (t == at::kBool) return at::randint(0, 2, v.dims, at::kLong).to(t);
        return at::randint(1, 8, v.dims, at::kLong).to(t);
    }
    c10::optional<at::Tensor> optionalInput(std::size_t i) const {
        if (!has(i)) return c10::nullopt;
        return input(i);
    }

    /// Integer data of a constant input (an initializer or a Constant node's value).
    std::optional<Dims> ints(std::size_t i) const {
        if (!has(i) || i >= m_io.inputs.size() || !m_io.inputs[i].constant) return std::nullopt;
        const onnx::TensorProto* t = m_io.inputs[i].constant;
        try {
            if (t->data_type() == onnx::TensorProto_DataType_INT64) return onnx::ParseData<std::int64_t>(t);
            if (t->data_type() == onnx::TensorProto_DataType_INT32) {
                const std::vector<std::int32_t> v = onnx::ParseData<std::int32_t>(t);
                return Dims(v.begin(), v.end());
            }
        } catch (const std::exception&) {   // external or malformed data: the caller falls back
        }
        return std::nullopt;
    }
    /// One floating-point value of a constant input (Clip's bounds, Pow's exponent).
    std::optional<double> scalar(std::size_t i) const {
        if (!has(i) || i >= m_io.inputs.size() || !m_io.inputs[i].constant) return std::nullopt;
        const onnx::TensorProto* t = m_io.inputs[i].constant;
        try {
            if (t->data_type() == onnx::TensorProto_DataType_FLOAT) {
                const std::vector<float> v = onnx::ParseData<float>(t);
                if (v.size() == 1) return v[0];
            } else if (t->data_type() == onnx::TensorProto_DataType_DOUBLE) {
                const std::vector<double> v = onnx::ParseData<double>(t);
                if (v.size() == 1) return v[0];
            } else if (const std::optional<Dims> v = ints(i); v && v->size() == 1) {
                return static_cast<double>((*v)[0]);
            }
        } catch (const std::exception&) {
        }
        return std::nullopt;
    }

    const onnx::AttributeProto* attr(const char* name) const {
        for (const auto& a : m_node.attribute())
            if (a.name() == name) return &a;
        return nullptr;
    }
    std::int64_t attrInt(const char* name, std::int64_t fallback) const {
        const auto* a = attr(name);
        return a && a->has_i() ? a->i() : fallback;
    }
    double attrFloat(const char* name, double fallback) const {
        const auto* a = attr(name);
        return a && a->has_f() ? a->f() : fallback;
    }
    std::string attrString(const char* name, const std::string& fallback) const {
        const auto* a = attr(name);
        return a && a->has_s() ? a->s() : fallback;
    }
    std::optional<Dims> attrInts(const char* name) const {
        const auto* a = attr(name);
        if (!a) return std::nullopt;
        return Dims(a->ints().begin(), a->ints().end());
    }
    /// Axes from the attribute (older opsets) or from constant input `input` (newer ones).
    std::optional<Dims> axes(const char* attribute, std::size_t input) const {
        if (std::optional<Dims> a = attrInts(attribute)) return a;
        return ints(input);
    }

private:
    const ValueSig& known(const std::vector<ValueSig>& list, const std::vector<std::string>& names, std::size_t i,
                          const char* what) const {
        if (i >= list.size() || i >= names.size() || names[i].empty())
            throw NotMeasurable(std::string(type()) + " without its " + what + " #" + std::to_string(i));
        if (!list[i].known) throw NotMeasurable(std::string(what) + " '" + names[i] + "' has no inferred shape");
        return list[i];
    }

    const onnx::NodeProto& m_node;
    const NodeIo& m_io;
};

using Builder = AtenCall (*)(const NodeContext&);

// --- windows: Conv and the pools ------------------------------------------------------------

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

Dims spatialDims(std::int64_t rank) {
    Dims d;
    for (std::int64_t i = 2; i < rank; ++i) d.push_back(i);
    return d;
}

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

// --- element-wise ----------------------------------------------------------------------------

using Unary = at::Tensor (*)(const at::Tensor&);
using Binary = at::Tensor (*)(const at::Tensor&, const at::Tensor&);

const std::map<std::string, Unary>& unaryOps() {
    static const std::map<std::string, Unary> ops = {
        {"Abs", [](const at::Tensor& x) { return at::abs(x); }},
        {"Ceil", [](const at::Tensor& x) { return at::ceil(x); }},
        {"Cos", [](const at::Tensor& x) { return at::cos(x); }},
        {"Erf", [](const at::Tensor& x) { return at::erf(x); }},
        {"Exp", [](const at::Tensor& x) { return at::exp(x); }},
        {"Floor", [](const at::Tensor& x) { return at::floor(x); }},
        {"HardSwish", [](const at::Tensor& x) { return at::hardswish(x); }},
        {"IsNaN", [](const at::Tensor& x) { return at::isnan(x); }},
        {"Log", [](const at::Tensor& x) { return at::log(x); }},
        {"Mish", [](const at::Tensor& x) { return at::mish(x); }},
        {"Neg", [](const at::Tensor& x) { return at::neg(x); }},
        {"Not", [](const at::Tensor& x) { return at::logical_not(x); }},
        {"Reciprocal", [](const at::Tensor& x) { return at::reciprocal(x); }},
        {"Relu", [](const at::Tensor& x) { return at::relu(x); }},
        {"Round", [](const at::Tensor& x) { return at::round(x); }},
        {"Sigmoid", [](const at::Tensor& x) { return at::sigmoid(x); }},
        {"Sign", [](const at::Tensor& x) { return at::sign(x); }},
        {"Sin", [](const at::Tensor& x) { return at::sin(x); }},
        {"Softsign", [](const at::Tensor& x) { return x / (at::abs(x) + 1); }},   // composed: 3 passes
        {"Sqrt", [](const at::Tensor& x) { return at::sqrt(x); }},
        {"Tan", [](const at::Tensor& x) { return at::tan(x); }},
        {"Tanh", [](const at::Tensor& x) { return at::tanh(x); }},
        // ORT aliases these outputs to their inputs (Dropout is the identity at inference; its
        // optional mask output is not made): a view, the dispatch alone
        {"Dropout", [](const at::Tensor& x) { return at::alias(x); }},
        {"Identity", [](const at::Tensor& x) { return at::alias(x); }},
    };
    return ops;
}

/// Broadcasting as ONNX (numpy) broadcasts.
const std::map<std::string, Binary>& binaryOps() {
    static const std::map<std::string, Binary> ops = {
        {"Add", [](const at::Tensor& a, const at::Tensor& b) { return at::add(a, b); }},
        {"And", [](const at::Tensor& a, const at::Tensor& b) { return at::logical_and(a, b); }},
        {"BitShift", [](const at::Tensor& a, const at::Tensor& b) { return at::bitwise_left_shift(a, b); }},
        {"Div", [](const at::Tensor& a, const at::Tensor& b) { return at::div(a, b); }},
        {"Equal", [](const at::Tensor& a, const at::Tensor& b) { return at::eq(a, b); }},
        {"Greater", [](const at::Tensor& a, const at::Tensor& b) { return at::gt(a, b); }},
        {"GreaterOrEqual", [](const at::Tensor& a, const at::Tensor& b) { return at::ge(a, b); }},
        {"Less", [](const at::Tensor& a, const at::Tensor& b) { return at::lt(a, b); }},
        {"LessOrEqual", [](const at::Tensor& a, const at::Tensor& b) { return at::le(a, b); }},
        {"Mod", [](const at::Tensor& a, const at::Tensor& b) { return at::fmod(a, b); }},
        {"Mul", [](const at::Tensor& a, const at::Tensor& b) { return at::mul(a, b); }},
        {"Or", [](const at::Tensor& a, const at::Tensor& b) { return at::logical_or(a, b); }},
        {"PRelu", [](const at::Tensor& x, const at::Tensor& slope) { return at::where(x > 0, x, x * slope); }},   // composed
        {"Sub", [](const at::Tensor& a, const at::Tensor& b) { return at::sub(a, b); }},
        {"Xor", [](const at::Tensor& a, const at::Tensor& b) { return at::logical_xor(a, b); }},
    };
    return ops;
}

/// Sum, Max, Min, Mean of any number of inputs: n - 1 broadcasting passes (ORT makes the same).
const std::map<std::string, Binary>& variadicOps() {
    static const std::map<std::string, Binary> ops = {
        {"Sum", [](const at::Tensor& a, const at::Tensor& b) { return at::add(a, b); }},
        {"Mean", [](const at::Tensor& a, const at::Tensor& b) { return at::add(a, b); }},
        {"Max", [](const at::Tensor& a, const at::Tensor& b) { return at::maximum(a, b); }},
        {"Min", [](const at::Tensor& a, const at::Tensor& b) { return at::minimum(a, b); }},
    };
    return ops;
}

AtenCall unary(const NodeContext& c) {
    const Unary f = unaryOps().at(c.type());
    const at::Tensor x = c.input(0);
    return [=] { (void)f(x); };
}

AtenCall binary(const NodeContext& c) {
    const Binary f = binaryOps().at(c.type());
    const at::Tensor a = c.input(0), b = c.input(1);
    return [=] { (void)f(a, b); };
}

AtenCall variadic(const NodeContext& c) {
    const Binary f = variadicOps().at(c.type());
    std::vector<at::Tensor> in;
    for (std::size_t i = 0; i < c.inputCount(); ++i) in.push_back(c.input(i));
    const bool mean = c.type() == "Mean";
    return [=] {
        at::Tensor y = in.size() == 1 ? in[0].clone() : f(in[0], in[1]);
        for (std::size_t i = 2; i < in.size(); ++i) y = f(y, in[i]);
        if (mean) y.div_(static_cast<double>(in.size()));
    };
}

/// A constant scalar exponent takes ATen's scalar kernel (x*x for 2, sqrt for 0.5), as ORT
/// specialises a scalar exponent.
AtenCall power(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    if (const std::optional<double> e = c.scalar(1)) {
        const double exponent = *e;
        return [=] { (void)at::pow(x, exponent); };
    }
    const at::Tensor e = c.input(1);
    return [=] { (void)at::pow(x, e); };
}

AtenCall clip(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    c10::optional<at::Scalar> lo, hi;
    if (c.opset() < 11) {
        if (c.attr("min")) lo = c.attrFloat("min", 0);
        if (c.attr("max")) hi = c.attrFloat("max", 0);
    } else {   // bounds computed in the graph cost the same: any value will do
        if (c.has(1)) lo = c.scalar(1).value_or(-1.0);
        if (c.has(2)) hi = c.scalar(2).value_or(1.0);
    }
    if (!lo && !hi) return [=] { (void)x.clone(); };   // no bounds: ORT copies
    return [=] { (void)at::clamp(x, lo, hi); };
}

AtenCall leakyRelu(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const double alpha = c.attrFloat("alpha", 0.01);
    return [=] { (void)at::leaky_relu(x, alpha); };
}

AtenCall elu(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const double alpha = c.attrFloat("alpha", 1.0);
    return [=] { (void)at::elu(x, alpha); };
}

AtenCall selu(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const double alpha = c.attrFloat("alpha", 1.67326319217681884765625), gamma = c.attrFloat("gamma", 1.05070102214813232421875);
    return [=] { (void)at::elu(x, alpha, gamma); };
}

AtenCall gelu(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const std::string approximate = c.attrString("approximate", "none");
    return [=] { (void)at::gelu(x, approximate); };
}

AtenCall softplus(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    return [=] { (void)at::softplus(x); };
}

/// at::hardsigmoid has ONNX's constants fixed at 1/6 and 0.5; other constants are composed (three
/// passes where ORT makes one).
AtenCall hardSigmoid(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const double alpha = c.attrFloat("alpha", 0.2), beta = c.attrFloat("beta", 0.5);
    if (std::abs(alpha - 1.0 / 6) < 1e-7 && beta == 0.5) return [=] { (void)at::hardsigmoid(x); };
    return [=] { (void)at::mul(x, alpha).add_(beta).clamp_(0, 1); };
}

AtenCall where(const NodeContext& c) {
    const at::Tensor cond = c.input(0), a = c.input(1), b = c.input(2);
    return [=] { (void)at::where(cond, a, b); };
}

AtenCall cast(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const at::ScalarType to = c.outType(0);
    return [=] { (void)x.to(to, /*non_blocking=*/false, /*copy=*/true); };
}

// --- shapes and copies -----------------------------------------------------------------------

/// Reshape, Flatten, Squeeze, Unsqueeze: ORT aliases the output to the input; a view here too, at
/// the inferred output shape (which is what the shape input or the axes say).
AtenCall reshapeView(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims out = c.outDims(0);
    if (product(out) != x.numel()) throw NotMeasurable("the inferred output shape does not hold the input's elements");
    return [=] { (void)x.reshape(out); };
}

/// ORT writes the permuted tensor: permute (a view) and contiguous (the copy).
AtenCall transpose(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const std::int64_t rank = c.inRank(0);
    Dims perm = c.attrInts("perm").value_or(Dims{});
    if (perm.empty())
        for (std::int64_t i = rank; i-- > 0;) perm.push_back(i);
    return [=] { (void)x.permute(perm).contiguous(); };
}

AtenCall concat(const NodeContext& c) {
    std::vector<at::Tensor> in;
    for (std::size_t i = 0; i < c.inputCount(); ++i)
        if (c.has(i)) in.push_back(c.input(i));
    const std::int64_t axis = normalizedAxis(c.attrInt("axis", 0), c.inRank(0));
    return [=] { (void)at::cat(in, axis); };
}

/// The sizes are the outputs' inferred extents along the axis (whether `split` came as attribute,
/// input or not at all); ORT writes each part to its own buffer: contiguous copies.
AtenCall split(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const auto axis = static_cast<std::size_t>(normalizedAxis(c.attrInt("axis", 0), c.inRank(0)));
    Dims sizes;
    for (std::size_t i = 0; c.hasOutput(i); ++i) sizes.push_back(c.outDims(i).at(axis));
    return [=] {
        for (const at::Tensor& part : at::split_with_sizes(x, sizes, static_cast<std::int64_t>(axis))) (void)part.contiguous();
    };
}

/// A copy of the sliced region (ORT copies). The starts and steps come from the model's constants
/// when it has them; otherwise (or with negative steps, which ATen's slice lacks) the region is
/// taken from the start of each axis at the inferred output extent: the same bytes.
AtenCall slice(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims& in = c.inDims(0);
    const Dims out = c.outDims(0);
    const std::int64_t rank = c.inRank(0);
    std::optional<Dims> starts = c.opset() < 10 ? c.attrInts("starts") : c.ints(1);
    std::optional<Dims> axes = c.opset() < 10 ? c.attrInts("axes") : c.ints(3);
    std::optional<Dims> steps = c.opset() < 10 ? std::nullopt : c.ints(4);
    if (!axes && starts) {
        axes.emplace(starts->size());
        std::iota(axes->begin(), axes->end(), 0);
    }
    Dims start(static_cast<std::size_t>(rank), 0), step(static_cast<std::size_t>(rank), 1);
    bool exact = starts && axes && starts->size() == axes->size() && (!steps || steps->size() == axes->size());
    for (std::size_t k = 0; exact && k < axes->size(); ++k) {
        const auto a = static_cast<std::size_t>(normalizedAxis((*axes)[k], rank));
        std::int64_t s = (*starts)[k];
        if (s < 0) s += in[a];
        start[a] = std::clamp<std::int64_t>(s, 0, in[a]);
        step[a] = steps ? (*steps)[k] : 1;
        exact = step[a] > 0;
    }
    for (std::size_t a = 0; a < in.size(); ++a)
        if (!exact || (out[a] > 0 && start[a] + (out[a] - 1) * step[a] >= in[a])) {   // keep it in bounds
            start[a] = 0;
            step[a] = 1;
        }
    return [=] {
        at::Tensor v = x;
        for (std::size_t a = 0; a < out.size(); ++a)
            if (out[a] != in[a] || step[a] != 1)
                v = v.slice(static_cast<std::int64_t>(a), start[a], start[a] + (out[a] - 1) * step[a] + 1, step[a]);
        (void)v.contiguous();
    };
}

/// ORT materialises the broadcast: expand (a view) and contiguous (the copy).
AtenCall expand(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims out = c.outDims(0);
    return [=] { (void)x.expand(out).contiguous(); };
}

AtenCall tile(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims& in = c.inDims(0);
    const Dims& out = c.outDims(0);
    Dims repeats(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) repeats[i] = in[i] == 0 ? 0 : out[i] / in[i];
    return [=] { (void)x.repeat(repeats); };
}

/// Random indices in range (the model's own when constant, negatives folded): index_select
/// writes a new tensor, as ORT's Gather does.
AtenCall gather(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const std::int64_t axis = normalizedAxis(c.attrInt("axis", 0), c.inRank(0));
    const std::int64_t extent = c.inDims(0)[static_cast<std::size_t>(axis)];
    if (extent == 0) throw NotMeasurable("Gather along an empty axis");
    at::Tensor idx = c.ints(1) ? c.input(1).to(at::kLong).flatten() : at::randint(0, extent, {product(c.inDims(1))}, at::kLong);
    idx = at::remainder(idx, extent);
    const Dims out = c.outDims(0);
    return [=] { (void)at::index_select(x, axis, idx).reshape(out); };
}

AtenCall gatherElements(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const std::int64_t axis = normalizedAxis(c.attrInt("axis", 0), c.inRank(0));
    const std::int64_t extent = c.inDims(0)[static_cast<std::size_t>(axis)];
    if (extent == 0) throw NotMeasurable("GatherElements along an empty axis");
    const at::Tensor idx = at::randint(0, extent, c.inDims(1), at::kLong);
    return [=] { (void)at::gather(x, axis, idx); };
}

/// The pads: attribute (opset < 11) or constant input, else the inferred growth of each axis,
/// all at its end (the same bytes). Modes other than constant go through at::pad, which has
/// reflect and replicate kernels for the last 1 to 3 axes.
AtenCall padOp(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims& in = c.inDims(0);
    const std::size_t rank = in.size();
    std::optional<Dims> pads = c.opset() < 11 ? c.attrInts(c.opset() < 2 ? "paddings" : "pads") : c.ints(1);
    if (c.opset() >= 18 && c.has(3)) pads.reset();   // per-axis pads: take the inferred growth
    if (!pads || pads->size() != 2 * rank) {
        const Dims& out = c.outDims(0);
        pads = Dims(2 * rank, 0);
        for (std::size_t i = 0; i < rank; ++i) (*pads)[rank + i] = out[i] - in[i];
    }
    Dims atenPads;   // last axis first, (begin, end) pairs
    for (std::size_t k = rank; k-- > 0;) {
        atenPads.push_back((*pads)[k]);
        atenPads.push_back((*pads)[rank + k]);
    }
    while (atenPads.size() > 2 && atenPads[atenPads.size() - 1] == 0 && atenPads[atenPads.size() - 2] == 0) atenPads.resize(atenPads.size() - 2);
    const std::string mode = c.attrString("mode", "constant");
    const double value = c.opset() < 11 ? c.attrFloat("value", 0) : c.scalar(2).value_or(0);
    if (mode == "constant") return [=] { (void)at::constant_pad_nd(x, atenPads, value); };
    const std::string atenMode = mode == "edge" ? "replicate" : mode == "wrap" ? "circular" : mode;
    return [=] { (void)at::pad(x, atenPads, atenMode); };
}

/// DepthToSpace and SpaceToDepth are a reshape, a permutation and a copy in ORT too.
AtenCall depthSpace(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims& d = c.inDims(0);
    if (d.size() != 4) throw NotMeasurable(c.type() + " of a rank-" + std::to_string(d.size()) + " tensor");
    const std::int64_t b = c.attrInt("blocksize", 1), n = d[0], ch = d[1], h = d[2], w = d[3];
    const Dims out = c.outDims(0);
    if (c.type() == "SpaceToDepth")
        return [=] { (void)x.reshape({n, ch, h / b, b, w / b, b}).permute({0, 3, 5, 1, 2, 4}).contiguous().reshape(out); };
    const bool crd = c.attrString("mode", "DCR") == "CRD";
    const Dims split = crd ? Dims{n, ch / (b * b), b, b, h, w} : Dims{n, b, b, ch / (b * b), h, w};
    const Dims perm = crd ? Dims{0, 1, 4, 2, 5, 3} : Dims{0, 3, 4, 1, 5, 2};
    return [=] { (void)x.reshape(split).permute(perm).contiguous().reshape(out); };
}

/// Resize and Upsample at the inferred output size: nearest, (bi/tri)linear or bicubic over the
/// spatial axes of an N, C, ... tensor.
AtenCall resize(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    const Dims& in = c.inDims(0);
    const Dims& out = c.outDims(0);
    if (in.size() < 3 || in.size() > 5 || out[0] != in[0] || out[1] != in[1])
        throw NotMeasurable(c.type() + " other than over the spatial axes of a 3-D to 5-D tensor");
    const Dims size(out.begin() + 2, out.end());
    const std::string mode = c.attrString("mode", "nearest");
    const bool align = c.attrString("coordinate_transformation_mode", "half_pixel") == "align_corners";
    const std::size_t n = size.size();
    if (mode == "nearest") {
        if (n == 1) return [=] { (void)at::upsample_nearest1d(x, size); };
        if (n == 2) return [=] { (void)at::upsample_nearest2d(x, size); };
        return [=] { (void)at::upsample_nearest3d(x, size); };
    }
    if (mode == "linear" || mode == "bilinear" || mode == "trilinear") {
        if (n == 1) return [=] { (void)at::upsample_linear1d(x, size, align); };
        if (n == 2) return [=] { (void)at::upsample_bilinear2d(x, size, align); };
        return [=] { (void)at::upsample_trilinear3d(x, size, align); };
    }
    if (mode == "cubic" && n == 2) return [=] { (void)at::upsample_bicubic2d(x, size, align); };
    throw NotMeasurable(c.type() + " mode '" + mode + "' at rank " + std::to_string(in.size()) + " has no ATen equivalent");
}

AtenCall shape(const NodeContext& c) {
    const at::Tensor x = c.input(0);
    return [=] { (void)at::_shape_as_tensor(x); };
}

/// ConstantOfShape fed by the graph (those fed by initializers are weights, not ops).
AtenCall constantOfShape(const NodeContext& c) {
    const Dims out = c.outDims(0);
    const at::ScalarType t = c.outType(0);
    return [=] { (void)at::zeros(out, at::TensorOptions().dtype(t)); };
}

AtenCall range(const NodeContext& c) {
    const std::int64_t n = c.outDims(0).at(0);
    const at::ScalarType t = c.outType(0);
    return [=] { (void)at::arange(n, at::TensorOptions().dtype(t)); };
}

const std::map<std::string, Builder>& builders() {
    static const std::map<std::string, Builder> table = [] {
        std::map<std::string, Builder> t = {
            {"ArgMax", argExtreme},
            {"ArgMin", argExtreme},
            {"AveragePool", averagePool},
            {"BatchNormalization", batchNormalization},
            {"Cast", cast},
            {"Clip", clip},
            {"Concat", concat},
            {"ConstantOfShape", constantOfShape},
            {"Conv", conv},
            {"ConvTranspose", convTranspose},
            {"CumSum", cumSum},
            {"DepthToSpace", depthSpace},
            {"Einsum", einsum},
            {"Elu", elu},
            {"Expand", expand},
            {"Flatten", reshapeView},
            {"Gather", gather},
            {"GatherElements", gatherElements},
            {"Gelu", gelu},
            {"Gemm", gemm},
            {"GlobalAveragePool", globalAveragePool},
            {"GlobalMaxPool", globalMaxPool},
            {"GroupNormalization", groupNormalization},
            {"HardSigmoid", hardSigmoid},
            {"InstanceNormalization", instanceNormalization},
            {"LayerNormalization", layerNormalization},
            {"LeakyRelu", leakyRelu},
            {"LogSoftmax", softmax<true>},
            {"LRN", lrn},
            {"MatMul", matMul},
            {"MaxPool", maxPool},
            {"Pad", padOp},
            {"Pow", power},
            {"Range", range},
            {"Reshape", reshapeView},
            {"Resize", resize},
            {"Selu", selu},
            {"Shape", shape},
            {"Slice", slice},
            {"Softmax", softmax<false>},
            {"Softplus", softplus},
            {"SpaceToDepth", depthSpace},
            {"Split", split},
            {"Squeeze", reshapeView},
            {"Tile", tile},
            {"TopK", topK},
            {"Transpose", transpose},
            {"Unsqueeze", reshapeView},
            {"Upsample", resize},
            {"Where", where},
        };
        for (const char* r : {"ReduceL1", "ReduceL2", "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd",
                              "ReduceSum", "ReduceSumSquare"})
            t[r] = reduce;
        for (const auto& [name, f] : unaryOps()) t[name] = unary;
        for (const auto& [name, f] : binaryOps()) t[name] = binary;
        for (const auto& [name, f] : variadicOps()) t[name] = variadic;
        return t;
    }();
    return table;
}

/// ATen's messages run to a stack trace: the first line says what it refused.
std::string firstLine(const std::string& text) {
    const std::string line = text.substr(0, text.find('\n'));
    return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

} // namespace

AtenCall prepareAtenCall(const onnx::NodeProto& node, const NodeIo& io) {
    const bool standard = node.domain().empty() || node.domain() == "ai.onnx";
    const auto& table = builders();
    const auto it = standard ? table.find(node.op_type()) : table.end();
    if (it == table.end())
        throw NotMeasurable("no ATen equivalent for " + (standard ? node.op_type() : node.domain() + "::" + node.op_type()));
    try {
        AtenCall call = it->second(NodeContext(node, io));
        call();   // ATen checks its arguments on the first call: refuse here, not while timing
        return call;
    } catch (const NotMeasurable&) {
        throw;
    } catch (const std::exception& e) {   // c10::Error and std::out_of_range of a bad attribute
        throw NotMeasurable("ATen refused " + node.op_type() + " at these shapes: " + firstLine(e.what()));
    }
}

std::vector<std::string> atenOpTypes() {
    std::vector<std::string> out;
    for (const auto& [name, b] : builders()) out.push_back(name);
    return out;
}

} // namespace sl::models::timing
