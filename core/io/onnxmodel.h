// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// An ONNX model as SchedLab's reader reads it, for the modules that work on the ONNX nodes
/// themselves (`schedlab-cli profile` runs each node with LibTorch): parsed and checked, shapes
/// inferred by libonnx with data propagation (node-level failures leave shapes unknown), and the
/// name every node's op has in the graph the reader builds. One reading for both, so the profile's
/// op names are the graph's by construction.
///
/// \code
///   sl::OnnxModel m = sl::readOnnxModel(bytes, "resnet50.onnx");
///   for (int i = 0; i < m.proto.graph().node_size(); ++i) if (m.opNames[i]) ... // the op's name
/// \endcode

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

struct OnnxModel {
    onnx::ModelProto proto;   ///< with the inferred shapes in its graph's value_info
    /// Per node: the op's name in the graph ("<op_type>_<index>" for a node without a name, a
    /// repeat made unique with "_<index>"), or nullopt for a weight maker (Constant, and
    /// ConstantOfShape fed by initializers), which is no op.
    std::vector<std::optional<std::string>> opNames;
    int renamed = 0;   ///< nodes whose name repeated an earlier one
};

/// Throws IoError naming `source` for a file that is not a model the reader accepts.
OnnxModel readOnnxModel(std::string_view bytes, const std::string& source);

}   // namespace sl
