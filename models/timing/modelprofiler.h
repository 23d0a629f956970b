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

namespace sl::models::timing {

/// Throws std::runtime_error (IoError) naming the file when it cannot be read, parsed or
/// shape-inferred. The model is read by core's reader (core/io/onnxmodel.h): its ops and names.
ProfileRun profileOnnxModel(const ProfileRequest& request);

} // namespace sl::models::timing
