// SPDX-License-Identifier: MIT
// ONNX models, read with libonnx (1.12): the ModelProto is parsed, onnx::shape_inference::InferShapes
// fills in the shape of every intermediate tensor, and the graph becomes:
//   - one op per node, named by the node name (or "<op_type>_<index>" when it has none);
//   - nodes that only make weights (Constant, and ConstantOfShape fed by initializers, as in the
//     weight-stripped "light" models) are not ops: their output bytes, like those of
//     initializers, count as parameter bytes of every op that reads them;
//   - one tensor per node output that some op reads or that is a graph output, sized by its
//     inferred shape x element width (unknown dims count as 1, with a warning);
//   - op durations estimated from FLOPs with a roofline: see estimateDuration and docs/formats.md.
#include "core/io/importers.h"
#include "core/io/ioutil.h"

#include <onnx/defs/schema.h>
#include <onnx/defs/tensor_proto_util.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace sl::io_detail {

namespace {

double elementBytes(int dataType) {
    using T = onnx::TensorProto_DataType;
    switch (dataType) {
    case T::TensorProto_DataType_BOOL:
    case T::TensorProto_DataType_INT8:
    case T::TensorProto_DataType_UINT8: return 1;
    case T::TensorProto_DataType_INT16:
    case T::TensorProto_DataType_UINT16:
    case T::TensorProto_DataType_FLOAT16:
    case T::TensorProto_DataType_BFLOAT16: return 2;
    case T::TensorProto_DataType_INT32:
    case T::TensorProto_DataType_UINT32:
    case T::TensorProto_DataType_FLOAT: return 4;
    case T::TensorProto_DataType_INT64:
    case T::TensorProto_DataType_UINT64:
    case T::TensorProto_DataType_DOUBLE:
    case T::TensorProto_DataType_COMPLEX64: return 8;
    case T::TensorProto_DataType_COMPLEX128: return 16;
    default: return 0;   // strings, undefined
    }
}

/// Shape and element type of a value; elements < 0 when the shape is unknown.
struct ValueInfo {
    std::vector<double> dims;
    double elements = -1;
    double bytes = 0;
    bool symbolic = false;
};

struct Reader {
    const std::string& source;

    [[noreturn]] void tooBig(const std::string& what, double elements) const {
        fail(source, what + " has " + formatNumber(elements) + " elements; that is beyond the " + formatNumber(limits().tensorBytes) +
                         "-byte limit for one tensor (corrupt file?)");
    }

    ValueInfo fromDims(const std::vector<double>& dims, int dataType, const std::string& what) const {
        ValueInfo v;
        v.dims = dims;
        v.elements = 1;
        for (double d : dims) {
            if (d < 0) fail(source, what + " has a negative dimension " + formatNumber(d));
            v.elements *= d;
            if (v.elements > limits().tensorBytes) tooBig(what, v.elements);
        }
        v.bytes = v.elements * elementBytes(dataType);
        if (v.bytes > limits().tensorBytes) tooBig(what, v.elements);
        return v;
    }

    ValueInfo fromType(const onnx::TypeProto& type, const std::string& what) const {
        if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return {};
        std::vector<double> dims;
        bool symbolic = false;
        for (const auto& d : type.tensor_type().shape().dim()) {
            if (d.has_dim_value()) {
                dims.push_back(static_cast<double>(d.dim_value()));
            } else {
                dims.push_back(1);
                symbolic = true;
            }
        }
        ValueInfo v = fromDims(dims, type.tensor_type().elem_type(), "tensor '" + what + "'");
        v.symbolic = symbolic;
        return v;
    }

    ValueInfo fromTensor(const onnx::TensorProto& t) const {
        std::vector<double> dims;
        for (auto d : t.dims()) dims.push_back(static_cast<double>(d));
        return fromDims(dims, t.data_type(), "initializer '" + t.name() + "'");
    }
};

std::int64_t intAttr(const onnx::NodeProto& n, const char* name, std::int64_t fallback) {
    for (const auto& a : n.attribute())
        if (a.name() == name && a.has_i()) return a.i();
    return fallback;
}

double productOfIntsAttr(const onnx::NodeProto& n, const char* name) {
    for (const auto& a : n.attribute())
        if (a.name() == name) {
            double p = 1;
            for (auto v : a.ints()) p *= static_cast<double>(std::max<std::int64_t>(v, 1));
            return p;
        }
    return 1;
}

/// FLOPs of one node (multiply-add = 2), from its inferred input and output shapes.
double estimateFlops(const onnx::NodeProto& n, const std::vector<const ValueInfo*>& in, const ValueInfo& out) {
    const std::string& t = n.op_type();
    const double outElems = std::max(out.elements, 0.0);
    auto inElems = [&](std::size_t i) { return i < in.size() && in[i] ? std::max(in[i]->elements, 0.0) : 0.0; };
    if (t == "Conv" || t == "ConvTranspose") {
        // Weight [M, C/group, k...]: each output element is prod(W.dims[1:]) multiply-adds.
        double macs = 0;
        if (in.size() > 1 && in[1] && in[1]->dims.size() >= 2) {
            macs = 1;
            for (std::size_t i = 1; i < in[1]->dims.size(); ++i) macs *= in[1]->dims[i];
        }
        if (t == "ConvTranspose") return 2 * inElems(0) * macs;
        return 2 * outElems * macs + (in.size() > 2 ? outElems : 0);
    }
    if (t == "Gemm" || t == "MatMul") {
        double k = 0;
        if (!in.empty() && in[0] && !in[0]->dims.empty())
            k = (t == "Gemm" && intAttr(n, "transA", 0)) ? in[0]->dims.front() : in[0]->dims.back();
        return 2 * outElems * k + (t == "Gemm" && in.size() > 2 ? outElems : 0);
    }
    if (t == "MaxPool" || t == "AveragePool" || t == "LpPool") return outElems * productOfIntsAttr(n, "kernel_shape");
    if (t == "GlobalAveragePool" || t == "GlobalMaxPool" || t == "ReduceMean" || t == "ReduceSum" || t == "ReduceMax")
        return inElems(0);
    if (t == "LRN") return outElems * static_cast<double>(std::max<std::int64_t>(intAttr(n, "size", 1), 1) + 2);
    if (t == "BatchNormalization" || t == "InstanceNormalization" || t == "LayerNormalization") return 4 * outElems;
    if (t == "Softmax" || t == "LogSoftmax") return 3 * outElems;
    if (t == "Sum" || t == "Max" || t == "Min" || t == "Mean") return outElems * static_cast<double>(std::max<std::size_t>(in.size(), 2) - 1);
    static const std::unordered_set<std::string> movement = {
        "Reshape", "Transpose", "Concat", "Dropout", "Unsqueeze", "Squeeze", "Flatten", "Identity", "Gather", "Slice",
        "Split", "Pad", "Shape", "Cast", "Expand", "Tile", "ConstantOfShape", "Constant"};
    if (movement.count(t)) return 0;
    return outElems;   // element-wise (Add, Mul, Relu, ...) and anything else: one FLOP per output element
}

// libonnx's shape inference divides by these without checking them (SIGFPE on a stride of 0,
// found by fuzz_onnx): refuse the node first, in the graph and in every subgraph (If, Loop, Scan).
void requirePositiveDivisors(const onnx::GraphProto& graph, const std::string& source) {
    for (const auto& n : graph.node()) {
        for (const auto& a : n.attribute()) {
            if (a.has_g()) requirePositiveDivisors(a.g(), source);
            for (const auto& sub : a.graphs()) requirePositiveDivisors(sub, source);
            if (a.name() != "strides" && a.name() != "dilations" && a.name() != "blocksize") continue;
            std::vector<std::int64_t> values(a.ints().begin(), a.ints().end());
            if (a.has_i()) values.push_back(a.i());
            for (const std::int64_t v : values)
                if (v < 1)
                    fail(source, "node '" + n.name() + "' (" + n.op_type() + "): attribute " + a.name() + " has " +
                                     std::to_string(v) + ", and must be at least 1");
        }
    }
}

// The rank libonnx gives the output of ConstantOfShape, Reshape and Expand when the shape values are
// unknown is the length of their shape input: a shape input of 2^31 entries made it build 2^31
// dimensions (gigabytes, found by fuzz_onnx). No real model comes near this rank. The length need not
// be declared: inference also derives it through other nodes (Identity, Concat, Shape, and from known
// values through Range, Tile, Pad, ConstantOfShape, ...). So, before inference runs, every tensor gets
// upper bounds on what inference can learn of it, node by node in the order libonnx visits them.
constexpr double kMaxShapeInputLength = 1024;
constexpr double kNoBound = std::numeric_limits<double>::infinity();

/// Upper bounds on what shape inference can learn of one tensor: its element count, its rank, and the
/// magnitude of its values (initializers, Constant, data propagation); -1 where it learns nothing.
struct Extent {
    double elements = -1;
    double rank = -1;
    double values = -1;
    std::string via;   // the input the bound came through, for the message
};

Extent extentOfDims(const std::vector<double>& dims) {
    double elements = 1;
    for (const double d : dims) elements *= d;
    return {elements, static_cast<double>(dims.size())};
}

Extent declaredExtent(const onnx::TypeProto& type) {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return {};
    std::vector<double> dims;
    for (const auto& d : type.tensor_type().shape().dim()) dims.push_back(d.has_dim_value() ? static_cast<double>(d.dim_value()) : 1.0);
    return extentOfDims(dims);
}

template <typename T> double largestMagnitude(const onnx::TensorProto& t) {
    double m = 0;
    for (const T v : onnx::ParseData<T>(&t)) m = std::max(m, std::abs(static_cast<double>(v)));
    return m;
}

/// An initializer or a Constant's tensor: inference reads its values too.
Extent tensorExtent(const onnx::TensorProto& t) {
    Extent e = extentOfDims(std::vector<double>(t.dims().begin(), t.dims().end()));
    e.values = kNoBound;
    try {
        using T = onnx::TensorProto_DataType;
        if (t.data_type() == T::TensorProto_DataType_INT64) e.values = largestMagnitude<std::int64_t>(t);
        if (t.data_type() == T::TensorProto_DataType_INT32) e.values = largestMagnitude<std::int32_t>(t);
        if (t.data_type() == T::TensorProto_DataType_FLOAT) e.values = largestMagnitude<float>(t);
        if (t.data_type() == T::TensorProto_DataType_DOUBLE) e.values = largestMagnitude<double>(t);
    } catch (const std::exception&) {   // data that does not match its dims, external data: no bound
    }
    return e;
}

Extent constantExtent(const onnx::NodeProto& n) {
    for (const auto& a : n.attribute()) {
        if (a.has_t()) return tensorExtent(a.t());
        if (a.name() == "value_int") return {1, 0, std::abs(static_cast<double>(a.i()))};
        if (a.name() == "value_float") return {1, 0, std::abs(static_cast<double>(a.f()))};
        if (a.name() == "value_ints" || a.name() == "value_floats") return {double(a.ints_size() + a.floats_size()), 1, kNoBound};
    }
    return {};
}

bool isOneOf(const std::string& op, std::initializer_list<std::string_view> ops) { return std::find(ops.begin(), ops.end(), op) != ops.end(); }

/// Ops whose output shape follows the input shapes by broadcasting (all must be known).
Extent broadcastExtent(const std::string& op, const std::vector<Extent>& in) {
    Extent e{0, 0, 0};
    double product = 1;
    for (const Extent& x : in) {
        if (x.elements < 0) return {};
        e.elements = std::max(e.elements, x.elements);
        e.rank = std::max(e.rank, x.rank);
        product *= std::max(x.elements, 1.0);
        if (e.values >= 0 && x.values >= 0) e.values = op == "Mul" ? std::max(e.values, 1.0) * x.values : e.values + x.values;
        else e.values = -1;
    }
    if (e.rank > 1) e.elements = product;   // [n, 1] + [1, m]
    if (e.values >= 0 && isOneOf(op, {"Div", "Pow", "Mod"})) e.values = kNoBound;
    if (isOneOf(op, {"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", "Xor"})) e.values = std::min(e.values, 1.0);
    return e;
}

/// Ops whose output size inference reads from input values (Reshape's shape, Tile's repeats, Pad's
/// pads, Range's limits, ...): no more than the input sizes times every value combination.
Extent sizedByValues(const onnx::NodeProto& n, const std::vector<Extent>& in) {
    Extent e{1, 0, -1};
    bool learns = false;
    for (const Extent& x : in) {
        learns = learns || x.elements >= 0 || x.values >= 0;
        e.elements *= std::max(x.elements, 1.0);
        if (x.values >= 0) e.elements *= std::pow(x.values + 1, std::max(x.elements, 1.0));
        e.rank = std::max(e.rank, x.rank);
        e.values = std::max(e.values, x.values);
    }
    if (!learns) return {};
    const std::string& op = n.op_type();
    if (op == "Range") e = {e.elements, 1, e.values >= 0 ? 2 * e.values : -1};
    if (op == "OneHot") e.rank += 1;
    if (op == "Reshape" || op == "Expand") e.rank = std::max(in[0].rank, in.size() > 1 ? in[1].elements : 0.0);
    if (op == "ConstantOfShape") e = {e.elements, in[0].elements, 0};
    for (const auto& a : n.attribute())
        if (op == "ConstantOfShape" && a.has_t()) e.values = tensorExtent(a.t()).values;
    return e;
}

/// The bounds of node n's outputs from those of its inputs. Ops not named here give none (-1): an
/// output that inference could still size through one of them is the gap docs/reliability.md names.
Extent nodeExtent(const onnx::NodeProto& n, const std::vector<Extent>& in) {
    const std::string& op = n.op_type();
    const Extent& x = in.empty() ? Extent{} : in[0];
    const bool known = x.values >= 0;
    if (op == "Constant") return constantExtent(n);
    if (isOneOf(op, {"Identity", "Cast", "CastLike", "Abs", "Neg", "Floor", "Ceil", "Round", "Relu", "Sign", "Clip", "Transpose",
                     "Dropout", "Slice", "Squeeze", "Split", "ReduceMax", "ReduceMin"}))
        return {x.elements, x.rank, x.values};
    if (isOneOf(op, {"Sqrt", "Exp", "Log", "Reciprocal", "Sigmoid", "Tanh", "Erf", "ReduceProd", "ReduceSum", "ReduceMean"}))
        return {x.elements, x.rank, known ? kNoBound : -1};
    if (op == "Not") return {x.elements, x.rank, known ? 1.0 : -1.0};
    if (op == "Flatten") return {x.elements, 2, x.values};
    if (op == "Unsqueeze") {
        double axes = in.size() > 1 ? in[1].elements : 0.0;   // opset 13, or the attribute before
        for (const auto& a : n.attribute()) axes = std::max(axes, static_cast<double>(a.ints_size()));
        return {x.elements, x.rank < 0 ? -1 : x.rank + axes, x.values};
    }
    if (op == "Shape") return {x.rank, 1, x.elements};   // the values are dimensions, each at most the element count
    if (op == "Size") return {x.elements < 0 ? -1.0 : 1.0, 0, x.elements};
    if (op == "Gather") {
        if (x.elements < 0 || in.size() < 2 || in[1].elements < 0) return {};
        return {x.elements * std::max(in[1].elements, 1.0), x.rank + in[1].rank, x.values};
    }
    if (op == "Concat") {
        Extent e = broadcastExtent("Max", in);
        if (e.elements >= 0)
            e.elements = std::accumulate(in.begin(), in.end(), 0.0, [](double s, const Extent& v) { return s + v.elements; });
        return e;
    }
    if (isOneOf(op, {"Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean", "Where", "Equal", "Less", "LessOrEqual",
                     "Greater", "GreaterOrEqual", "And", "Or", "Xor", "PRelu"}))
        return broadcastExtent(op, in);
    if (isOneOf(op, {"Reshape", "Expand", "Tile", "ConstantOfShape", "Range", "Pad", "Resize", "Upsample", "OneHot", "CenterCropPad"}))
        return sizedByValues(n, in);
    return {};
}

int shapeInputOf(const onnx::NodeProto& n) {
    return n.op_type() == "ConstantOfShape" ? 0 : (n.op_type() == "Reshape" || n.op_type() == "Expand") ? 1 : -1;
}

/// "a -> b -> c", the tensors a bound came through (the middle elided on long chains).
std::string pathTo(const std::unordered_map<std::string, Extent>& extents, const std::string& name) {
    std::vector<std::string> path{name};
    std::unordered_set<std::string> seen{name};
    for (auto it = extents.find(name); it != extents.end() && !it->second.via.empty() && seen.insert(it->second.via).second;
         it = extents.find(it->second.via))
        path.push_back(it->second.via);
    if (path.size() > 6) path.erase(path.begin() + 3, path.end() - 2), path.insert(path.begin() + 3, "...");
    std::string s;
    for (auto p = path.rbegin(); p != path.rend(); ++p) s += (s.empty() ? "" : " -> ") + *p;
    return s;
}

void requireShortShapeInputs(const onnx::GraphProto& graph, const std::string& source) {
    std::unordered_map<std::string, Extent> declared, extents;
    for (const auto* list : {&graph.input(), &graph.value_info(), &graph.output()})
        for (const auto& v : *list) declared[v.name()] = declaredExtent(v.type());
    for (const auto& t : graph.initializer()) extents[t.name()] = tensorExtent(t);
    auto extentOf = [&](const std::string& name) {   // inference merges a declared shape with its own
        Extent e = extents.count(name) ? extents[name] : Extent{};
        if (auto d = declared.find(name); d != declared.end()) {
            e.elements = std::max(e.elements, d->second.elements);
            e.rank = std::max(e.rank, d->second.rank);
        }
        return e;
    };
    for (const auto& n : graph.node()) {
        std::vector<Extent> in;
        for (const std::string& s : n.input()) in.push_back(s.empty() ? Extent{} : extentOf(s));
        if (const int i = shapeInputOf(n); i >= 0 && i < n.input_size() && in[std::size_t(i)].elements > kMaxShapeInputLength) {
            const std::string& name = n.input(i);
            const std::string path = pathTo(extents, name);
            fail(source, "node '" + n.name() + "' (" + n.op_type() + "): its shape input '" + name + "' " +
                             (path == name ? "has " : "can have ") + formatNumber(in[std::size_t(i)].elements) + " entries" +
                             (path == name ? "" : " (through '" + path + "')") + ", a rank beyond the " +
                             formatNumber(kMaxShapeInputLength) + " this reader accepts");
        }
        Extent out = nodeExtent(n, in);
        auto weight = [&](std::size_t i) { return std::max(in[i].elements, in[i].values); };
        std::size_t largest = 0;   // the input named in the message: the longest, or the largest values
        for (std::size_t i = 1; i < in.size(); ++i)
            if (weight(i) > weight(largest)) largest = i;
        if (!in.empty()) out.via = n.input(int(largest));
        for (const std::string& o : n.output()) extents[o] = out;
    }
}

} // namespace

LoadedGraph readOnnx(std::string_view bytes, const std::string& source) {
    if (bytes.size() > static_cast<std::size_t>(INT_MAX)) fail(source, "larger than protobuf's 2 GiB limit");
    onnx::ModelProto model;
    if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        fail(source, "not a valid ONNX model: the protobuf data does not parse (truncated or not an .onnx file?)");
    if (!model.has_graph() || model.graph().node_size() == 0) fail(source, "the ONNX model has no graph nodes (truncated file?)");
    if (model.graph().node_size() > limits().ops)
        fail(source, std::to_string(model.graph().node_size()) + " nodes is more than this reader accepts");
    const Reader r{source};
    LoadedGraph out;

    // Sizes from the file itself first: a 10^12-element initializer or declared input is refused
    // before shape inference does any work on it.
    std::unordered_map<std::string, ValueInfo> info;
    std::unordered_set<std::string> initializers;
    for (const auto& t : model.graph().initializer()) {
        info[t.name()] = r.fromTensor(t);
        initializers.insert(t.name());
    }
    for (const auto& v : model.graph().input())
        if (!initializers.count(v.name())) info[v.name()] = r.fromType(v.type(), v.name());

    requirePositiveDivisors(model.graph(), source);
    requireShortShapeInputs(model.graph(), source);
    try {
        // With libonnx's (limited) data propagation for shape computations. Node-level inference
        // failures do not throw (error_mode 0): those tensors keep an unknown shape and a warning.
        const onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0, /*data_propagation=*/true);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        fail(source, std::string("ONNX shape inference failed: ") + e.what());
    }
    const onnx::GraphProto& graph = model.graph();
    int symbolic = 0;
    for (const auto* list : {&graph.value_info(), &graph.output()})
        for (const auto& v : *list)
            if (!initializers.count(v.name())) {
                info[v.name()] = r.fromType(v.type(), v.name());
                symbolic += info[v.name()].symbolic;
            }

    // Who produces what: graph inputs, initializers, nodes.
    const int nodeCount = graph.node_size();
    std::unordered_map<std::string, int> producerNode;
    for (int i = 0; i < nodeCount; ++i)
        for (const std::string& o : graph.node(i).output())
            if (!o.empty()) producerNode[o] = i;
    std::unordered_set<std::string> graphInputs;
    for (const auto& v : graph.input()) graphInputs.insert(v.name());

    // Weight nodes: Constant, or ConstantOfShape whose inputs are all initializers.
    std::vector<bool> weightNode(static_cast<std::size_t>(nodeCount), false);
    for (int i = 0; i < nodeCount; ++i) {
        const auto& n = graph.node(i);
        if (n.op_type() == "Constant") weightNode[static_cast<std::size_t>(i)] = true;
        if (n.op_type() == "ConstantOfShape")
            weightNode[static_cast<std::size_t>(i)] = std::all_of(n.input().begin(), n.input().end(),
                                                                  [&](const std::string& s) { return s.empty() || initializers.count(s); });
    }

    auto g = std::make_shared<Graph>();
    g->setTimeUnit(TimeUnit::Microseconds);   // roofline durations
    std::vector<OpId> opOfNode(static_cast<std::size_t>(nodeCount), kNoOp);
    std::unordered_set<std::string> usedNames;
    int renamed = 0;
    for (int i = 0; i < nodeCount; ++i) {
        if (weightNode[static_cast<std::size_t>(i)]) continue;
        const auto& n = graph.node(i);
        std::string name = n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
        if (usedNames.count(name)) {
            while (usedNames.count(name)) name += "_" + std::to_string(i);
            ++renamed;
        }
        usedNames.insert(name);
        opOfNode[static_cast<std::size_t>(i)] = g->addOp({.name = name, .type = n.op_type()});
    }
    if (g->opCount() == 0) fail(source, "the ONNX graph has only constant nodes");

    int unknownShapes = 0;
    std::unordered_set<std::string> countedUnknown;
    auto sizeOf = [&](const std::string& name) -> const ValueInfo* {
        auto it = info.find(name);
        if (it == info.end() || it->second.elements < 0) {
            if (countedUnknown.insert(name).second) ++unknownShapes;
            return nullptr;
        }
        return &it->second;
    };

    // Tensors: every output of an op node that an op reads or that is a graph output.
    std::unordered_set<std::string> graphOutputs;
    for (const auto& v : graph.output()) graphOutputs.insert(v.name());
    std::unordered_map<std::string, std::vector<OpId>> readers;
    for (int i = 0; i < nodeCount; ++i) {
        const OpId v = opOfNode[static_cast<std::size_t>(i)];
        const auto& n = graph.node(i);
        for (const std::string& in : n.input()) {
            if (in.empty()) continue;   // omitted optional input
            if (!producerNode.count(in) && !initializers.count(in) && !graphInputs.count(in))
                fail(source, "node '" + (n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name()) + "' reads '" + in +
                                 "', which no node, graph input or initializer provides (truncated or corrupt file?)");
            if (v == kNoOp) continue;
            auto& list = readers[in];
            if (list.empty() || list.back() != v) list.push_back(v);
        }
    }
    std::vector<double> inBytes(static_cast<std::size_t>(g->opCount()), 0.0);
    for (int i = 0; i < nodeCount; ++i) {
        const OpId v = opOfNode[static_cast<std::size_t>(i)];
        for (const std::string& o : graph.node(i).output()) {
            if (o.empty()) continue;
            auto it = readers.find(o);
            const bool read = it != readers.end() && !it->second.empty();
            if (!read && !graphOutputs.count(o)) continue;
            const ValueInfo* size = sizeOf(o);
            const double b = size ? size->bytes : 0.0;
            if (v == kNoOp) {   // a weight: parameter bytes of each reader
                if (read)
                    for (OpId c : it->second) g->mutableOp(c).paramBytes += b;
                continue;
            }
            const TensorId t = g->addTensor(o, v, b);
            if (read)
                for (OpId c : it->second) {
                    g->addConsumer(t, c);
                    inBytes[static_cast<std::size_t>(c)] += b;
                }
        }
    }
    for (const std::string& init : initializers) {
        auto it = readers.find(init);
        if (it == readers.end()) continue;
        // Shape inputs of weight makers (the "__SHAPE" tensors) are read only by weight nodes: not counted.
        for (OpId c : it->second) g->mutableOp(c).paramBytes += info[init].bytes;
    }

    // Durations: roofline estimate on the nominal device.
    for (int i = 0; i < nodeCount; ++i) {
        const OpId v = opOfNode[static_cast<std::size_t>(i)];
        if (v == kNoOp) continue;
        const auto& n = graph.node(i);
        std::vector<const ValueInfo*> in;
        for (const std::string& s : n.input()) {
            auto it = info.find(s);
            in.push_back(s.empty() || it == info.end() || it->second.elements < 0 ? nullptr : &it->second);
        }
        ValueInfo outInfo;
        if (n.output_size() > 0)
            if (auto it = info.find(n.output(0)); it != info.end()) outInfo = it->second;
        const double flops = estimateFlops(n, in, outInfo);
        double moved = inBytes[static_cast<std::size_t>(v)] + g->op(v).paramBytes;
        for (const std::string& o : n.output())
            if (auto it = info.find(o); it != info.end() && it->second.elements >= 0) moved += it->second.bytes;
        g->mutableOp(v).duration = std::max(flops / kFlopsPerMicrosecond, moved / kBytesPerMicrosecond);
    }

    finalizeGraph(*g, source);
    out.graph = std::move(g);
    if (unknownShapes > 0)
        out.warnings.push_back(std::to_string(unknownShapes) + " tensors have no inferred shape; 0 bytes used");
    if (symbolic > 0) out.warnings.push_back(std::to_string(symbolic) + " tensors have symbolic dimensions; 1 used for each");
    if (renamed > 0) out.warnings.push_back(std::to_string(renamed) + " nodes had duplicate names; \"_<index>\" appended");
    return out;
}

} // namespace sl::io_detail
