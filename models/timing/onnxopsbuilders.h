// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What the builders of onnxops.h's ATen calls share: NodeContext (what a builder reads of its
/// node), the axis helpers, and the builders of each op family, which the table in onnxops.cpp
/// maps the op types to. Private to models/timing. Free of ONNX's headers: what reads the protos
/// is defined in onnxops.cpp, the one source compiled with ONNX's definitions
/// (models/CMakeLists.txt).

#include "models/timing/onnxops.h"

#include <ATen/ATen.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace onnx {
class AttributeProto;
} // namespace onnx

// Named, not anonymous: the table in onnxops.cpp names the builders of the other files.
namespace sl::models::timing::onnxops {

using Dims = std::vector<std::int64_t>;

/// The product of d[from, to).
std::int64_t product(const Dims& d, std::size_t from = 0, std::size_t to = std::numeric_limits<std::size_t>::max());
/// ONNX axes may count from the end.
std::int64_t normalizedAxis(std::int64_t axis, std::int64_t rank);

/// What a builder reads of its node: attributes, input values of the inferred shapes, constants.
class NodeContext {
public:
    NodeContext(const onnx::NodeProto& node, const NodeIo& io) : m_node(node), m_io(io) {}

    const std::string& type() const;
    int opset() const { return m_io.opset; }
    std::size_t inputCount() const { return m_io.inputs.size(); }
    bool has(std::size_t i) const { return i < m_io.inputNames.size() && !m_io.inputNames[i].empty(); }
    bool hasOutput(std::size_t i) const { return i < m_io.outputNames.size() && !m_io.outputNames[i].empty(); }

    const Dims& inDims(std::size_t i) const { return known(m_io.inputs, m_io.inputNames, i, "input").dims; }
    const Dims& outDims(std::size_t i) const { return known(m_io.outputs, m_io.outputNames, i, "output").dims; }
    std::int64_t inRank(std::size_t i) const { return static_cast<std::int64_t>(inDims(i).size()); }
    at::ScalarType outType(std::size_t i) const;

    /// Input i as a tensor: the model's data for integer constants (shapes, indices, axes), else
    /// random values (normal for floating types; 1..7 for integers, so that no Div or Mod divides
    /// by zero; either for bool) of its shape.
    at::Tensor input(std::size_t i) const;
    c10::optional<at::Tensor> optionalInput(std::size_t i) const {
        if (!has(i)) return c10::nullopt;
        return input(i);
    }

    /// Integer data of a constant input (an initializer or a Constant node's value).
    std::optional<Dims> ints(std::size_t i) const;
    /// One floating-point value of a constant input (Clip's bounds, Pow's exponent).
    std::optional<double> scalar(std::size_t i) const;

    const onnx::AttributeProto* attr(const char* name) const;
    std::int64_t attrInt(const char* name, std::int64_t fallback) const;
    double attrFloat(const char* name, double fallback) const;
    std::string attrString(const char* name, const std::string& fallback) const;
    std::optional<Dims> attrInts(const char* name) const;
    /// Axes from the attribute (older opsets) or from constant input `input` (newer ones).
    std::optional<Dims> axes(const char* attribute, std::size_t input) const {
        if (std::optional<Dims> a = attrInts(attribute)) return a;
        return ints(input);
    }

private:
    const ValueSig& known(const std::vector<ValueSig>& list, const std::vector<std::string>& names, std::size_t i,
                          const char* what) const;

    const onnx::NodeProto& m_node;
    const NodeIo& m_io;
};

using Builder = AtenCall (*)(const NodeContext&);

// --- windows: Conv and the pools; matrix products (onnxopsreduce.cpp) ------------------------

AtenCall conv(const NodeContext& c);
AtenCall convTranspose(const NodeContext& c);
AtenCall maxPool(const NodeContext& c);
AtenCall averagePool(const NodeContext& c);
AtenCall globalAveragePool(const NodeContext& c);
AtenCall globalMaxPool(const NodeContext& c);
AtenCall gemm(const NodeContext& c);
AtenCall matMul(const NodeContext& c);
AtenCall einsum(const NodeContext& c);

// --- normalisation; softmax and reductions (onnxopsreduce.cpp) -------------------------------

AtenCall batchNormalization(const NodeContext& c);
AtenCall instanceNormalization(const NodeContext& c);
AtenCall layerNormalization(const NodeContext& c);
AtenCall groupNormalization(const NodeContext& c);
AtenCall lrn(const NodeContext& c);
/// Softmax (Log false) and LogSoftmax (Log true), instantiated for both in onnxopsreduce.cpp.
template <bool Log>
AtenCall softmax(const NodeContext& c);
extern template AtenCall softmax<false>(const NodeContext& c);
extern template AtenCall softmax<true>(const NodeContext& c);
AtenCall reduce(const NodeContext& c);
AtenCall argExtreme(const NodeContext& c);
AtenCall topK(const NodeContext& c);
AtenCall cumSum(const NodeContext& c);

// --- element-wise (onnxopspointwise.cpp) -----------------------------------------------------

using Unary = at::Tensor (*)(const at::Tensor&);
using Binary = at::Tensor (*)(const at::Tensor&, const at::Tensor&);

/// The ATen function of each unary, binary and variadic op type: the names the table maps to
/// unary, binary and variadic.
const std::map<std::string, Unary>& unaryOps();
const std::map<std::string, Binary>& binaryOps();
const std::map<std::string, Binary>& variadicOps();
AtenCall unary(const NodeContext& c);
AtenCall binary(const NodeContext& c);
AtenCall variadic(const NodeContext& c);
AtenCall power(const NodeContext& c);
AtenCall clip(const NodeContext& c);
AtenCall leakyRelu(const NodeContext& c);
AtenCall elu(const NodeContext& c);
AtenCall selu(const NodeContext& c);
AtenCall gelu(const NodeContext& c);
AtenCall softplus(const NodeContext& c);
AtenCall hardSigmoid(const NodeContext& c);
AtenCall where(const NodeContext& c);
AtenCall cast(const NodeContext& c);

// --- shapes and copies (onnxopspointwise.cpp) ------------------------------------------------

AtenCall reshapeView(const NodeContext& c);
AtenCall transpose(const NodeContext& c);
AtenCall concat(const NodeContext& c);
AtenCall split(const NodeContext& c);
AtenCall slice(const NodeContext& c);
AtenCall expand(const NodeContext& c);
AtenCall tile(const NodeContext& c);
AtenCall gather(const NodeContext& c);
AtenCall gatherElements(const NodeContext& c);
AtenCall padOp(const NodeContext& c);
AtenCall depthSpace(const NodeContext& c);
AtenCall resize(const NodeContext& c);
AtenCall shape(const NodeContext& c);
AtenCall constantOfShape(const NodeContext& c);
AtenCall range(const NodeContext& c);

} // namespace sl::models::timing::onnxops
