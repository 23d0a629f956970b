// SPDX-License-Identifier: MIT
// ONNX ops as ATen calls (onnxops.h; the approach is at the top of onnxops.cpp), the ops that map
// or move elements: the element-wise ops (the unary, binary and variadic ones by their ATen
// function; Pow, Clip, the activations with attributes, Where, Cast), then the shapes and copies:
// views where ORT aliases (Reshape, Flatten, Squeeze, Unsqueeze), copies where it writes
// (Transpose, Concat, Split, Slice, Expand, Tile, Gather, Pad, DepthToSpace, SpaceToDepth,
// Resize), and Shape, ConstantOfShape and Range.
#include "models/timing/onnxopsbuilders.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sl::models::timing::onnxops {

// --- element-wise ----------------------------------------------------------------------------

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
    if (c.inRank(0) == 0) throw NotMeasurable("Gather of a scalar (ONNX wants rank 1 or more)");
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
    if (c.inRank(0) == 0) throw NotMeasurable("GatherElements of a scalar (ONNX wants rank 1 or more)");
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

} // namespace sl::models::timing::onnxops
