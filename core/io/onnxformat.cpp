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
#include "core/io/onnxmodel.h"
#include "core/io/onnxprecheck.h"

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
    int dataType = 0;   ///< onnx::TensorProto_DataType
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
        v.dataType = dataType;
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

DType dtypeOf(int dataType) {
    using T = onnx::TensorProto_DataType;
    switch (dataType) {
    case T::TensorProto_DataType_DOUBLE: return DType::F64;
    case T::TensorProto_DataType_FLOAT: return DType::F32;
    case T::TensorProto_DataType_FLOAT16: return DType::F16;
    case T::TensorProto_DataType_BFLOAT16: return DType::BF16;
    case T::TensorProto_DataType_INT64: return DType::I64;
    case T::TensorProto_DataType_INT32: return DType::I32;
    case T::TensorProto_DataType_INT16: return DType::I16;
    case T::TensorProto_DataType_INT8:
    case T::TensorProto_DataType_UINT8: return DType::I8;
    case T::TensorProto_DataType_BOOL: return DType::Bool;
    default: return DType::Unknown;
    }
}

/// Which unit runs an ONNX op (core/graph/opwork.h). Reshapes and their kin are views: a kernel
/// launch that moves no bytes.
OpClass onnxOpClass(const std::string& t) {
    if (t == "Conv" || t == "ConvTranspose" || t == "ConvInteger" || t == "QLinearConv") return OpClass::Conv;
    if (t == "Gemm" || t == "MatMul" || t == "MatMulInteger" || t == "QLinearMatMul") return OpClass::Matmul;
    if (t == "BatchNormalization" || t == "InstanceNormalization" || t == "LayerNormalization" || t == "LRN")
        return OpClass::Normalization;
    static const std::unordered_set<std::string> reductions = {
        "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool", "GlobalMaxPool", "ReduceMean", "ReduceSum",
        "ReduceMax", "ReduceMin", "ReduceProd", "Softmax", "LogSoftmax", "ArgMax", "ArgMin"};
    if (reductions.count(t)) return OpClass::Reduction;
    static const std::unordered_set<std::string> movement = {
        "Reshape", "Transpose", "Concat", "Dropout", "Unsqueeze", "Squeeze", "Flatten", "Identity", "Gather", "Slice",
        "Split", "Pad", "Shape", "Cast", "Expand", "Tile", "ConstantOfShape", "Constant"};
    if (movement.count(t)) return OpClass::Movement;
    return OpClass::Elementwise;
}

/// Ops that only change how a tensor is viewed: no bytes moved (ONNX Runtime and ATen both alias).
bool isView(const std::string& t) {
    return t == "Reshape" || t == "Flatten" || t == "Squeeze" || t == "Unsqueeze" || t == "Identity" || t == "Dropout";
}

/// The model's protobuf, refused when it cannot hold a graph we read.
onnx::ModelProto parseModel(std::string_view bytes, const std::string& source) {
    if (bytes.size() > static_cast<std::size_t>(INT_MAX)) fail(source, "larger than protobuf's 2 GiB limit");
    onnx::ModelProto model;
    if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        fail(source, "not a valid ONNX model: the protobuf data does not parse (truncated or not an .onnx file?)");
    if (!model.has_graph() || model.graph().node_size() == 0) fail(source, "the ONNX model has no graph nodes (truncated file?)");
    if (model.graph().node_size() > limits().ops)
        fail(source, std::to_string(model.graph().node_size()) + " nodes is more than this reader accepts");
    return model;
}

/// With libonnx's (limited) data propagation for shape computations. Node-level inference
/// failures do not throw (error_mode 0): those tensors keep an unknown shape and a warning.
void inferShapes(onnx::ModelProto& model, const std::string& source) {
    try {
        const onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0, /*data_propagation=*/true);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        fail(source, std::string("ONNX shape inference failed: ") + e.what());
    }
}

std::string nodeName(const onnx::NodeProto& n, int index) {
    return n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
}

/// Constant, or ConstantOfShape whose inputs are all initializers: weights, not ops.
bool isWeightMaker(const onnx::NodeProto& n, const std::unordered_set<std::string>& initializers) {
    if (n.op_type() == "Constant") return true;
    return n.op_type() == "ConstantOfShape" &&
        std::all_of(n.input().begin(), n.input().end(),
                    [&](const std::string& s) { return s.empty() || initializers.count(s); });
}

/// The op name of every node (OnnxModel::opNames), counting the renamed repeats.
std::vector<std::optional<std::string>> opNamesOf(const onnx::GraphProto& graph, int& renamed) {
    std::unordered_set<std::string> initializers;
    for (const auto& t : graph.initializer()) initializers.insert(t.name());
    std::vector<std::optional<std::string>> names;
    std::unordered_set<std::string> used;
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& n = graph.node(i);
        if (isWeightMaker(n, initializers)) {
            names.emplace_back();
            continue;
        }
        std::string name = nodeName(n, i);
        if (used.count(name)) {
            while (used.count(name)) name += "_" + std::to_string(i);
            ++renamed;
        }
        used.insert(name);
        names.emplace_back(std::move(name));
    }
    return names;
}

/// One ONNX graph (after shape inference) becoming a SchedLab graph, step by step.
class OnnxGraphBuilder {
public:
    OnnxGraphBuilder(const onnx::GraphProto& graph, const Reader& r, std::unordered_map<std::string, ValueInfo>& info,
                     const std::unordered_set<std::string>& initializers)
        : m_graph(graph), m_source(r.source), m_info(info), m_initializers(initializers), m_nodeCount(graph.node_size()),
          m_opOfNode(static_cast<std::size_t>(m_nodeCount), kNoOp) {
        for (int i = 0; i < m_nodeCount; ++i)
            for (const std::string& o : graph.node(i).output())
                if (!o.empty()) m_producerNode[o] = i;
        for (const auto& v : graph.input()) m_graphInputs.insert(v.name());
        for (const auto& v : graph.output()) m_graphOutputs.insert(v.name());
        m_g->setTimeUnit(TimeUnit::Microseconds);   // roofline durations
    }

    std::shared_ptr<Graph> build() {
        addOps();
        collectReaders();
        addTensors();
        addInitializerBytes();
        estimateDurations();
        finalizeGraph(*m_g, m_source);
        return m_g;
    }

    int unknownShapes() const { return m_unknownShapes; }
    int renamed() const { return m_renamed; }

private:
    /// One op per node that is not a weight maker, with a name no other op has (opNamesOf).
    void addOps() {
        const std::vector<std::optional<std::string>> names = opNamesOf(m_graph, m_renamed);
        for (int i = 0; i < m_nodeCount; ++i)
            if (const auto& name = names[static_cast<std::size_t>(i)])
                m_opOfNode[static_cast<std::size_t>(i)] =
                    m_g->addOp({.name = *name, .type = m_graph.node(i).op_type()});
        if (m_g->opCount() == 0) fail(m_source, "the ONNX graph has only constant nodes");
    }

    /// The ops reading each value; a read of a value nobody provides is refused.
    void collectReaders() {
        for (int i = 0; i < m_nodeCount; ++i) {
            const OpId v = m_opOfNode[static_cast<std::size_t>(i)];
            const auto& n = m_graph.node(i);
            for (const std::string& in : n.input()) {
                if (in.empty()) continue;   // omitted optional input
                if (!m_producerNode.count(in) && !m_initializers.count(in) && !m_graphInputs.count(in))
                    fail(m_source, "node '" + nodeName(n, i) + "' reads '" + in +
                                       "', which no node, graph input or initializer provides (truncated or corrupt file?)");
                if (v == kNoOp) continue;
                auto& list = m_readers[in];
                if (list.empty() || list.back() != v) list.push_back(v);
            }
        }
    }

    /// Shape of a value, or nullptr (counted once per name) when it has none.
    const ValueInfo* sizeOf(const std::string& name) {
        auto it = m_info.find(name);
        if (it == m_info.end() || it->second.elements < 0) {
            if (m_countedUnknown.insert(name).second) ++m_unknownShapes;
            return nullptr;
        }
        return &it->second;
    }

    /// Tensors: every output of an op node that an op reads or that is a graph output. A weight
    /// node's outputs are parameter bytes of each reader instead.
    void addTensors() {
        m_inBytes.assign(static_cast<std::size_t>(m_g->opCount()), 0.0);
        for (int i = 0; i < m_nodeCount; ++i) {
            const OpId v = m_opOfNode[static_cast<std::size_t>(i)];
            for (const std::string& o : m_graph.node(i).output()) {
                if (o.empty()) continue;
                auto it = m_readers.find(o);
                const bool read = it != m_readers.end() && !it->second.empty();
                if (!read && !m_graphOutputs.count(o)) continue;
                const ValueInfo* size = sizeOf(o);
                const double b = size ? size->bytes : 0.0;
                if (v == kNoOp) {
                    if (read)
                        for (OpId c : it->second) m_g->mutableOp(c).paramBytes += b;
                    continue;
                }
                const TensorId t = m_g->addTensor(o, v, b);
                if (read)
                    for (OpId c : it->second) {
                        m_g->addConsumer(t, c);
                        m_inBytes[static_cast<std::size_t>(c)] += b;
                    }
            }
        }
    }

    /// Initializers are parameter bytes of the ops reading them. Shape inputs of weight makers
    /// (the "__SHAPE" tensors) are read only by weight nodes: not counted.
    void addInitializerBytes() {
        for (const std::string& init : m_initializers) {
            auto it = m_readers.find(init);
            if (it == m_readers.end()) continue;
            for (OpId c : it->second) m_g->mutableOp(c).paramBytes += m_info[init].bytes;
        }
    }

    /// Durations: roofline estimate on the nominal device.
    void estimateDurations() {
        for (int i = 0; i < m_nodeCount; ++i) {
            const OpId v = m_opOfNode[static_cast<std::size_t>(i)];
            if (v == kNoOp) continue;
            const auto& n = m_graph.node(i);
            std::vector<const ValueInfo*> in;
            for (const std::string& s : n.input()) {
                auto it = m_info.find(s);
                in.push_back(s.empty() || it == m_info.end() || it->second.elements < 0 ? nullptr : &it->second);
            }
            ValueInfo outInfo;
            if (n.output_size() > 0)
                if (auto it = m_info.find(n.output(0)); it != m_info.end()) outInfo = it->second;
            const double flops = estimateFlops(n, in, outInfo);
            double moved = m_inBytes[static_cast<std::size_t>(v)] + m_g->op(v).paramBytes;
            for (const std::string& o : n.output())
                if (auto it = m_info.find(o); it != m_info.end() && it->second.elements >= 0) moved += it->second.bytes;
            Op& op = m_g->mutableOp(v);
            op.duration = std::max(flops / kFlopsPerMicrosecond, moved / kBytesPerMicrosecond);
            op.work = workOf(n, flops, outInfo, v);
            op.timeSource = TimeSource::Estimated;
        }
    }

    /// What the op computes, for the device models; its nominal duration above is the same
    /// roofline with the nominal device's rates.
    OpWork workOf(const onnx::NodeProto& n, double flops, const ValueInfo& out, OpId v) const {
        OpWork w;
        w.opClass = onnxOpClass(n.op_type());
        w.dtype = dtypeOf(out.dataType);
        if (isView(n.op_type())) return w;
        w.flops = flops;
        w.bytesRead = m_inBytes[static_cast<std::size_t>(v)] + m_g->op(v).paramBytes;
        for (const std::string& o : n.output())
            if (auto it = m_info.find(o); it != m_info.end() && it->second.elements >= 0) w.bytesWritten += it->second.bytes;
        return w;
    }

    const onnx::GraphProto& m_graph;
    const std::string& m_source;
    std::unordered_map<std::string, ValueInfo>& m_info;
    const std::unordered_set<std::string>& m_initializers;
    const int m_nodeCount;
    std::unordered_map<std::string, int> m_producerNode;
    std::unordered_set<std::string> m_graphInputs, m_graphOutputs;
    std::shared_ptr<Graph> m_g = std::make_shared<Graph>();
    std::vector<OpId> m_opOfNode;
    std::unordered_map<std::string, std::vector<OpId>> m_readers;
    std::vector<double> m_inBytes;
    std::unordered_set<std::string> m_countedUnknown;
    int m_unknownShapes = 0;
    int m_renamed = 0;
};

} // namespace

LoadedGraph readOnnx(std::string_view bytes, const std::string& source) {
    onnx::ModelProto model = parseModel(bytes, source);
    const Reader r{source};

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

    checkBeforeShapeInference(model.graph(), source);
    inferShapes(model, source);
    const onnx::GraphProto& graph = model.graph();
    int symbolic = 0;
    for (const auto* list : {&graph.value_info(), &graph.output()})
        for (const auto& v : *list)
            if (!initializers.count(v.name())) {
                info[v.name()] = r.fromType(v.type(), v.name());
                symbolic += info[v.name()].symbolic;
            }

    OnnxGraphBuilder builder(graph, r, info, initializers);
    LoadedGraph out;
    out.graph = builder.build();
    if (builder.unknownShapes() > 0)
        out.warnings.push_back(std::to_string(builder.unknownShapes()) + " tensors have no inferred shape; 0 bytes used");
    if (symbolic > 0) out.warnings.push_back(std::to_string(symbolic) + " tensors have symbolic dimensions; 1 used for each");
    if (builder.renamed() > 0) out.warnings.push_back(std::to_string(builder.renamed()) + " nodes had duplicate names; \"_<index>\" appended");
    return out;
}

} // namespace sl::io_detail

namespace sl {

OnnxModel readOnnxModel(std::string_view bytes, const std::string& source) {
    using namespace io_detail;
    OnnxModel out{parseModel(bytes, source), {}, 0};
    checkBeforeShapeInference(out.proto.graph(), source);
    inferShapes(out.proto, source);
    out.opNames = opNamesOf(out.proto.graph(), out.renamed);
    return out;
}

}   // namespace sl
