// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// One ONNX node as an ATen call at its shapes and dtype, for `schedlab-cli profile`: the inputs
/// are built once (random values of the inferred shapes; the model's own data for the integer
/// constants that steer an op, such as Reshape's shape or Gather's indices) and every call of the
/// returned function runs the op once. Which ATen function stands for which op type, and where the
/// call copies because ONNX Runtime would, is written at each builder (onnxopspointwise.cpp,
/// onnxopsreduce.cpp; the registry in onnxops.cpp).
///
/// \code
///   sl::models::timing::AtenCall call = sl::models::timing::prepareAtenCall(node, io);  // throws NotMeasurable
///   call();   // one run of the op
/// \endcode

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace onnx {
class NodeProto;
class TensorProto;
} // namespace onnx

namespace sl::models::timing {

/// A value as a node sees it, after ONNX shape inference.
struct ValueSig {
    bool known = false;                 ///< the shape was inferred (symbolic dimensions count as 1)
    std::vector<std::int64_t> dims;
    int elemType = 0;                   ///< onnx::TensorProto_DataType
    const onnx::TensorProto* constant = nullptr;   ///< the model holds its data (initializer, Constant)
};

/// The node's inputs and outputs in order; an omitted optional input has an empty name.
struct NodeIo {
    std::vector<std::string> inputNames;
    std::vector<ValueSig> inputs;
    std::vector<std::string> outputNames;
    std::vector<ValueSig> outputs;
    int opset = 0;                      ///< the model's ai.onnx opset (Softmax, Clip, Pad, ... read it)
};

/// The op cannot be timed in ATen; what() is the reason the profile lists it with.
class NotMeasurable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

using AtenCall = std::function<void()>;

/// Throws NotMeasurable: "no ATen equivalent for <op_type>", an input without an inferred shape,
/// an element type ATen lacks, or ATen refusing the shapes (its message shortened).
AtenCall prepareAtenCall(const onnx::NodeProto& node, const NodeIo& io);

/// The op types prepareAtenCall maps, sorted (for the help text and the docs).
std::vector<std::string> atenOpTypes();

} // namespace sl::models::timing
