// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The schedule a measured run followed, beside the optimizers' (docs/time.md): ONNX Runtime's
/// kernels in the order it ran them, thread k on device k (mod the platform's devices), timed by
/// the cost model on the problem's durations. Ops the run did not show under their own names
/// (fused, removed) are placed by the list scheduler right after their predecessors.
///
/// \code
///   const sl::AppliedProfile a = sl::applyProfileFile(graph, "onnxruntime_profile.json");
///   sl::Schedule asRun = sl::asMeasuredSchedule(problem, a.ort->measuredOrderPerThread);
/// \endcode

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <vector>

namespace sl {

/// Throws std::invalid_argument when an op id is out of range or appears twice.
Schedule asMeasuredSchedule(const Problem& p, const std::vector<std::vector<OpId>>& orderPerThread);

} // namespace sl
