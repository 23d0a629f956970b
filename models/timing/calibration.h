// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// `schedlab-cli calibrate`'s measurement: this machine as a device entry of the catalogue
/// (core/timing/devicespec.h), from LibTorch probes at one thread by default:
///   - GEMM (at::mm, fp32, square 32..2048 and a few skinny shapes; bf16 when ATen runs it at
///     least half as fast as fp32): the matrix peak and its efficiency over GFLOP;
///   - element-wise add (at::add into a kept buffer, 4 KB .. 256 MB per operand): the vector peak
///     and its efficiency over GFLOP;
///   - copy (Tensor::copy_, the same sizes): the memory bandwidth (the largest copy) and its
///     efficiency over MB moved (read + written);
///   - at::add of two 1-element tensors: the launch overhead, which the roofline adds to every op.
/// The efficiencies are measured time less the launch overhead against the peak, so that the
/// roofline (overhead + max(compute, memory)) gives back the measured times; capped at 1 (the
/// catalogue's range), which a cache-resident copy faster than the large-copy bandwidth reaches.
///
/// \code
///   sl::models::CalibrationRun run = sl::models::timing::calibrateMachine({.quick = true});
///   if (!run.stopped) sl::saveDeviceSpec(run.spec, path);
/// \endcode

#include "models/timing/tools.h"

#include <utility>
#include <vector>

namespace sl::models::timing {

CalibrationRun calibrateMachine(const CalibrateRequest& request);

/// A step function through measured (size, efficiency) points: each size becomes a threshold,
/// the smallest becomes 0; efficiencies clamped to [0.001, 1]. Sizes must be distinct.
EfficiencyCurve stepCurve(std::vector<std::pair<double, double>> sizeEfficiency);

} // namespace sl::models::timing
