// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// `schedlab-cli profile`'s measurement: every op of an ONNX model run alone with LibTorch at its
/// inferred shapes and dtype (onnxops.h), warm-up runs, then the median and interquartile range of
/// the timed runs. The ops are those of SchedLab's ONNX reader, under its names: one per node that
/// is not a weight maker (Constant, ConstantOfShape fed by initializers), named by the node name or
/// "<op_type>_<index>", a repeated name getting "_<index>" appended until it is unique.
///
/// \code
///   sl::models::ProfileRun run = sl::models::timing::profileOnnxModel({.modelPath = "resnet50.onnx"});
/// \endcode

#include "models/timing/tools.h"

#include <optional>
#include <string>
#include <vector>

namespace onnx {
class GraphProto;
}

namespace sl::models::timing {

/// Throws std::runtime_error naming the file when it cannot be read, parsed or shape-inferred.
ProfileRun profileOnnxModel(const ProfileRequest& request);

/// The op name of each node of `graph` as core/io/onnxformat.cpp gives it; nullopt for the weight
/// makers, which are no ops there.
std::vector<std::optional<std::string>> onnxOpNames(const onnx::GraphProto& graph);

} // namespace sl::models::timing
