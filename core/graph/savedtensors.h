// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Which forward tensors an op's gradient reads: the one table of the training-graph rule
/// (docs/training-graphs.md). Op types are ONNX names, matched case-insensitively; a type the
/// table does not know keeps its inputs and its outputs (the conservative default: the
/// gradient can then read whatever it needs).

#include <string_view>

namespace sl {

/// What the gradient op of an op reads from the forward pass, besides the gradients of its outputs.
enum class SavedTensors {
    Nothing,            ///< linear in its inputs, shape-only or a pure copy: Add, Concat, Reshape, ...
    Inputs,             ///< needs the operands: Conv, MatMul, Gemm, Mul, BatchNormalization, ...
    Outputs,            ///< the derivative is a function of the result: Relu, Sigmoid, Softmax, ...
    InputsAndOutputs,   ///< both (MaxPool: input plus the argmax, as big as the output); unknown types
};

/// The rule for `opType` (e.g. "Relu", "conv"; "" counts as unknown). Never throws.
SavedTensors savedTensorsOf(std::string_view opType);

inline bool savesInputs(SavedTensors s) { return s == SavedTensors::Inputs || s == SavedTensors::InputsAndOutputs; }
inline bool savesOutputs(SavedTensors s) { return s == SavedTensors::Outputs || s == SavedTensors::InputsAndOutputs; }

} // namespace sl
