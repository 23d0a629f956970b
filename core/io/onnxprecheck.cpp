// SPDX-License-Identifier: MIT
#include "core/io/onnxprecheck.h"

#include "core/io/ioutil.h"

#include <onnx/defs/tensor_proto_util.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace sl::io_detail {

namespace {

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
constexpr double kMaxShapeInputLength = kMaxInferredRank;
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

/// How many outputs an input can size: its elements times every combination of its known values.
double combinations(const Extent& x) {
    const double elements = std::max(x.elements, 1.0);
    return x.values >= 0 ? elements * std::pow(x.values + 1, elements) : elements;
}

/// Ops whose output size inference reads from input values (Reshape's shape, Tile's repeats, Pad's
/// pads, Range's limits, ...): no more than the input sizes times every value combination.
Extent sizedByValues(const onnx::NodeProto& n, const std::vector<Extent>& in) {
    Extent e{1, 0, -1};
    bool learns = false;
    for (const Extent& x : in) {
        learns = learns || x.elements >= 0 || x.values >= 0;
        e.elements *= combinations(x);
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

/// Any other op: inference sizes its outputs from its input sizes, input values and attributes, so
/// no output is longer than their product over every value combination, nor of a higher rank than
/// its inputs or its longest list attribute (one more for the ops that stack: Loop's and Scan's scan
/// outputs, sequences, STFT). Nothing learned from any of them: nothing to bound.
Extent unlistedExtent(const onnx::NodeProto& n, const std::vector<Extent>& in) {
    Extent e{1, -1, -1};
    bool learns = false;
    for (const Extent& x : in) {
        learns = learns || x.elements >= 0 || x.values >= 0 || x.rank >= 0;
        e.elements *= combinations(x);
        e.rank = std::max(e.rank, x.rank);
    }
    for (const auto& a : n.attribute()) {
        if (a.ints_size() == 0 && !a.has_i()) continue;
        learns = true;
        e.rank = std::max(e.rank, static_cast<double>(a.ints_size()));
        for (const std::int64_t v : a.ints()) e.elements *= std::abs(static_cast<double>(v)) + 1;
        if (a.has_i()) e.elements *= std::abs(static_cast<double>(a.i())) + 1;
    }
    if (!learns) return {};
    e.rank = std::max(e.rank, 0.0);
    if (isOneOf(n.op_type(), {"Loop", "Scan", "ConcatFromSequence", "SequenceConstruct", "SplitToSequence", "STFT"})) e.rank += 1;
    return e;
}

/// The bounds of node n's outputs from those of its inputs.
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
    if (op == "Gather" || op == "GatherND") {   // the ranks add up: Gather of a tensor by itself doubles it
        if (in.size() < 2 || x.rank < 0 || in[1].rank < 0) return {};
        const bool sized = x.elements >= 0 && in[1].elements >= 0;
        return {sized ? x.elements * std::max(in[1].elements, 1.0) : -1.0, x.rank + in[1].rank, x.values};
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
    return unlistedExtent(n, in);
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

[[noreturn]] void failAt(const std::string& source, const onnx::NodeProto& n, const std::string& what) {
    fail(source, "node '" + n.name() + "' (" + n.op_type() + "): " + what);
}

/// A list attribute is as long as the rank inference may build from it (RandomUniform's shape,
/// ConvTranspose's output_shape, ...). A Constant's value_ints is data, bounded as a tensor.
void requireShortAttributes(const onnx::NodeProto& n, const std::string& source) {
    if (n.op_type() == "Constant") return;
    for (const auto& a : n.attribute())
        if (a.ints_size() > kMaxInferredRank)
            failAt(source, n, "attribute '" + a.name() + "' has " + std::to_string(a.ints_size()) + " entries, beyond the " +
                                  formatNumber(kMaxInferredRank) + " this reader accepts");
}

/// The bounds of every tensor of one graph, in the order inference visits its nodes; a subgraph
/// (If's branches, Loop's and Scan's bodies) starts from a copy of its outer scope.
struct Scope {
    std::unordered_map<std::string, Extent> declared, extents;

    Extent extentOf(const std::string& name) const {   // inference merges a declared shape with its own
        auto it = extents.find(name);
        Extent e = it != extents.end() ? it->second : Extent{};
        if (auto d = declared.find(name); d != declared.end()) {
            e.elements = std::max(e.elements, d->second.elements);
            e.rank = std::max(e.rank, d->second.rank);
        }
        return e;
    }
};

void walkGraph(const onnx::GraphProto& graph, Scope& scope, const std::string& source);

/// Widens `out`, a node's bound, by what its subgraphs' outputs can be (one rank more for Loop's and
/// Scan's, which stack them over the iterations), after checking the subgraphs themselves.
void walkSubgraphs(const onnx::NodeProto& n, const Scope& outer, Extent& out, const std::string& source) {
    const bool stacks = n.op_type() == "Loop" || n.op_type() == "Scan";
    auto walk = [&](const onnx::GraphProto& g) {
        Scope inner = outer;
        walkGraph(g, inner, source);
        for (const auto& o : g.output()) {
            const Extent e = inner.extentOf(o.name());
            if (e.rank >= 0) out.rank = std::max(out.rank, e.rank + (stacks ? 1 : 0));
            if (e.elements >= 0 && out.elements >= 0) out.elements *= std::max(e.elements, 1.0);
        }
    };
    for (const auto& a : n.attribute()) {
        if (a.has_g()) walk(a.g());
        for (const auto& g : a.graphs()) walk(g);
    }
}

void requireShortShapeInput(const onnx::NodeProto& n, const std::vector<Extent>& in, const Scope& scope, const std::string& source) {
    const int i = shapeInputOf(n);
    if (i < 0 || i >= n.input_size() || in[std::size_t(i)].elements <= kMaxShapeInputLength) return;
    const std::string& name = n.input(i);
    const std::string path = pathTo(scope.extents, name);
    failAt(source, n, "its shape input '" + name + "' " + (path == name ? "has " : "can have ") +
                          formatNumber(in[std::size_t(i)].elements) + " entries" +
                          (path == name ? "" : " (through '" + path + "')") + ", a rank beyond the " +
                          formatNumber(kMaxShapeInputLength) + " this reader accepts");
}

void walkGraph(const onnx::GraphProto& graph, Scope& scope, const std::string& source) {
    for (const auto* list : {&graph.input(), &graph.value_info(), &graph.output()})
        for (const auto& v : *list) scope.declared[v.name()] = declaredExtent(v.type());
    for (const auto& t : graph.initializer()) scope.extents[t.name()] = tensorExtent(t);
    for (const auto& n : graph.node()) {
        requireShortAttributes(n, source);
        std::vector<Extent> in;
        for (const std::string& s : n.input()) in.push_back(s.empty() ? Extent{} : scope.extentOf(s));
        requireShortShapeInput(n, in, scope, source);
        Extent out = nodeExtent(n, in);
        walkSubgraphs(n, scope, out, source);
        if (out.rank > kMaxInferredRank)
            failAt(source, n, "its output can have rank " + formatNumber(out.rank) + ", beyond the " +
                                  formatNumber(kMaxInferredRank) + " this reader accepts");
        auto weight = [&](std::size_t i) { return std::max(in[i].elements, in[i].values); };
        std::size_t largest = 0;   // the input named in the message: the longest, or the largest values
        for (std::size_t i = 1; i < in.size(); ++i)
            if (weight(i) > weight(largest)) largest = i;
        if (!in.empty()) out.via = n.input(int(largest));
        for (const std::string& o : n.output()) scope.extents[o] = out;
    }
}

} // namespace

void checkBeforeShapeInference(const onnx::GraphProto& graph, const std::string& source) {
    requirePositiveDivisors(graph, source);
    Scope top;
    walkGraph(graph, top, source);
}

} // namespace sl::io_detail
