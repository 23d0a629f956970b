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
// The builders are in two files by op family (declared in onnxopsbuilders.h): onnxopsreduce.cpp
// (windows, matrix products, normalisation, softmax and reductions) and onnxopspointwise.cpp
// (element-wise, shapes and copies). Here: what they share (NodeContext, which alone reads the ONNX
// protos, and the axis helpers), and the table of op types.
#include "models/timing/onnxops.h"
#include "models/timing/onnxopsbuilders.h"

#include <ATen/ATen.h>

#include <onnx/defs/tensor_proto_util.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sl::models::timing {

namespace onnxops {
namespace {

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

} // namespace

// --- what the builders share -----------------------------------------------------------------

std::int64_t product(const Dims& d, std::size_t from, std::size_t to) {
    std::int64_t p = 1;
    for (std::size_t i = from; i < std::min(to, d.size()); ++i) p *= d[i];
    return p;
}

std::int64_t normalizedAxis(std::int64_t axis, std::int64_t rank) {
    const std::int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || (rank > 0 && a >= rank) || (rank == 0 && a != 0))
        throw NotMeasurable("axis " + std::to_string(axis) + " is outside rank " + std::to_string(rank));
    return a;
}

// --- the node: what NodeContext reads of the protos ------------------------------------------

const std::string& NodeContext::type() const { return m_node.op_type(); }

at::ScalarType NodeContext::outType(std::size_t i) const {
    return atenScalarType(known(m_io.outputs, m_io.outputNames, i, "output").elemType);
}

at::Tensor NodeContext::input(std::size_t i) const {
    const ValueSig& v = known(m_io.inputs, m_io.inputNames, i, "input");
    const at::ScalarType t = atenScalarType(v.elemType);
    if (v.constant && !c10::isFloatingType(t))
        if (const std::optional<Dims> data = ints(i)) return at::tensor(*data, at::kLong).reshape(v.dims).to(t);
    if (c10::isFloatingType(t)) return at::randn(v.dims, at::kFloat).to(t);
    if (t == at::kBool) return at::randint(0, 2, v.dims, at::kLong).to(t);
    return at::randint(1, 8, v.dims, at::kLong).to(t);
}

std::optional<Dims> NodeContext::ints(std::size_t i) const {
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

std::optional<double> NodeContext::scalar(std::size_t i) const {
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

const onnx::AttributeProto* NodeContext::attr(const char* name) const {
    for (const auto& a : m_node.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

std::int64_t NodeContext::attrInt(const char* name, std::int64_t fallback) const {
    const auto* a = attr(name);
    return a && a->has_i() ? a->i() : fallback;
}

double NodeContext::attrFloat(const char* name, double fallback) const {
    const auto* a = attr(name);
    return a && a->has_f() ? a->f() : fallback;
}

std::string NodeContext::attrString(const char* name, const std::string& fallback) const {
    const auto* a = attr(name);
    return a && a->has_s() ? a->s() : fallback;
}

std::optional<Dims> NodeContext::attrInts(const char* name) const {
    const auto* a = attr(name);
    if (!a) return std::nullopt;
    return Dims(a->ints().begin(), a->ints().end());
}

const ValueSig& NodeContext::known(const std::vector<ValueSig>& list, const std::vector<std::string>& names,
                                   std::size_t i, const char* what) const {
    if (i >= list.size() || i >= names.size() || names[i].empty())
        throw NotMeasurable(std::string(type()) + " without its " + what + " #" + std::to_string(i));
    if (!list[i].known) throw NotMeasurable(std::string(what) + " '" + names[i] + "' has no inferred shape");
    return list[i];
}

// --- the table of op types -------------------------------------------------------------------

namespace {

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
} // namespace onnxops

AtenCall prepareAtenCall(const onnx::NodeProto& node, const NodeIo& io) {
    const bool standard = node.domain().empty() || node.domain() == "ai.onnx";
    const auto& table = onnxops::builders();
    const auto it = standard ? table.find(node.op_type()) : table.end();
    if (it == table.end())
        throw NotMeasurable("no ATen equivalent for " + (standard ? node.op_type() : node.domain() + "::" + node.op_type()));
    try {
        AtenCall call = it->second(onnxops::NodeContext(node, io));
        call();   // ATen checks its arguments on the first call: refuse here, not while timing
        return call;
    } catch (const NotMeasurable&) {
        throw;
    } catch (const std::exception& e) {   // c10::Error and std::out_of_range of a bad attribute
        throw NotMeasurable("ATen refused " + node.op_type() + " at these shapes: " + onnxops::firstLine(e.what()));
    }
}

std::vector<std::string> atenOpTypes() {
    std::vector<std::string> out;
    for (const auto& [name, b] : onnxops::builders()) out.push_back(name);
    return out;
}

} // namespace sl::models::timing
