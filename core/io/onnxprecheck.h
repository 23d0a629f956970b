// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What the ONNX reader refuses before it hands a model to libonnx's shape inference, which trusts
/// its input: divisors of 0 (SIGFPE) and shapes whose rank inference would build from a length it
/// computes (a shape input, an attribute, a rank that grows node by node: gigabytes of dimensions).
/// Found by fuzz_onnx and by probing; docs/reliability.md lists each.

#include <string>

namespace onnx {
class GraphProto;
}

namespace sl::io_detail {

/// The longest shape input, shape attribute and the highest rank a model may lead inference to.
inline constexpr double kMaxInferredRank = 1024;

/// Throws IoError naming `source`, the node and the bound. Walks subgraphs (If, Loop, Scan).
void checkBeforeShapeInference(const onnx::GraphProto& graph, const std::string& source);

} // namespace sl::io_detail
