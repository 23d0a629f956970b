// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The dispatch table of `schedlab-cli profile` and `schedlab-cli calibrate`: measuring needs
/// LibTorch, so the measuring code lives in the neural module (models/timing), which fills this
/// table when it is loaded; app/cli/cmd_profile.cpp and cmd_calibrate.cpp call through it. Like
/// models/train/trainers.h, a torch-free header the CLI includes; the table itself is compiled into
/// the executables (schedlab_models_api), so the module's entries land in the executable's table.
///
/// \code
///   sl::cli::loadNeuralMethods();
///   const sl::models::TimingTools tools = sl::models::timingTools();
///   if (!tools.profile) ...;   // the module is missing
///   sl::models::ProfileRun run = tools.profile({.modelPath = "resnet50.onnx", .stop = token});
/// \endcode

#include "core/profile/profile.h"
#include "core/timing/devicespec.h"

#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace sl::models {

/// Progress lines ("conv1: 123.4 us"), for the terminal; may be empty.
using TextProgressFn = std::function<void(const std::string&)>;

struct ProfileRequest {
    std::string modelPath;   ///< an .onnx file; already read once by sl::loadGraph (so it parses)
    int repeats = 20;        ///< timed runs per op; the median and the interquartile range of these
    int warmup = 3;          ///< untimed runs before them (allocator, oneDNN primitive caches)
    int threads = 1;         ///< at::set_num_threads for the measurement
    std::stop_token stop;    ///< Ctrl-C: the run stops between two calls and says so (ProfileRun::stopped)
    TextProgressFn progress;
};

struct ProfileRun {
    std::vector<OpMeasurement> ops;        ///< in node order; names as the ONNX reader gives them
    std::vector<UnmeasuredOp> unmeasured;  ///< ops with no ATen equivalent (they keep their estimate)
    std::string device;                    ///< "this CPU (AMD EPYC, LibTorch 1.13.0, 1 thread)"
    double measuredSeconds = 0;            ///< wall time of the measurement (parse, inputs, runs)
    bool stopped = false;                  ///< interrupted: ops and unmeasured are incomplete
};

struct CalibrateRequest {
    int threads = 1;
    bool quick = false;      ///< fewer sizes and shorter runs: a few seconds, for tests and a first look
    std::stop_token stop;
    TextProgressFn progress;
};

/// One row of calibrate's table.
struct CalibrationRow {
    std::string probe;       ///< "gemm fp32", "gemm bf16", "add fp32", "copy", "launch"
    std::string size;        ///< "512x512x512", "4 KB"
    double work = 0;         ///< GFLOP (gemm, add) or MB moved (copy), per call
    double medianUs = 0;     ///< median time of one call
    double rate = 0;         ///< in `unit`, launch overhead included (what a call achieves)
    std::string unit;        ///< "GFLOP/s" or "GB/s"; empty for the launch overhead
    double efficiency = 0;   ///< what the device entry's curve keeps for this size, (0, 1]; 0: not in a curve
};

struct CalibrationRun {
    DeviceSpec spec;                     ///< id "this-machine", every number with its source
    std::vector<CalibrationRow> rows;    ///< in measurement order
    std::vector<std::string> notes;      ///< what was decided from the numbers (bf16 kept or not, ...)
    double measuredSeconds = 0;
    bool stopped = false;                ///< interrupted: spec is incomplete and must not be written
};

struct TimingTools {
    /// Throws std::runtime_error (naming the file) when the model cannot be profiled at all.
    std::function<ProfileRun(const ProfileRequest&)> profile;
    std::function<CalibrationRun(const CalibrateRequest&)> calibrate;
};

/// Called by the neural module when it is loaded (a second call replaces the first).
void setTimingTools(TimingTools tools);
/// A copy of the table: empty functions until the module has filled it. Thread-safe.
TimingTools timingTools();

} // namespace sl::models
