// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A device of the catalogue (resources/devices/*.json, docs/time.md): peak rates per unit and
/// dtype, memory bandwidth and capacity, a per-kernel launch overhead and size-dependent
/// efficiencies, each number with its source. The roofline of an op on it:
///
///   duration = launch overhead + max(flops / (peak(unit, dtype) x eff(flops)),
///                                    bytes moved / (memory bandwidth x eff(bytes)))
///
/// A matrix-vector product (a Matmul of under kMatrixVectorIntensity FLOPs per byte: a batch-1
/// fully connected layer) streams its weights at the device's matrix-vector rate when the entry
/// has one (a CPU's GEMV is several times slower than its copy bandwidth), else as above.
///
/// with eff() a step function of the op's size, the shape of Calculon's system files (Isaev et
/// al., SC'23): the efficiency of the largest threshold not above the size.
///
/// \code
///   const sl::DeviceSpec& a100 = sl::deviceCatalog().find("a100-sxm4-80gb");   // throws IoError
///   double us = sl::rooflineMicroseconds(a100, graph.op(v).work);
/// \endcode

#include "core/graph/opwork.h"
#include "core/timing/timefit.h"

#include <string>
#include <utility>
#include <vector>

namespace sl {

enum class ComputeUnit : std::uint8_t { Matrix, Vector };

/// (threshold, efficiency) pairs, thresholds strictly decreasing, the last one 0.
struct EfficiencyCurve {
    std::vector<std::pair<double, double>> steps;
    /// Efficiency of the largest threshold <= size; 1 when there are no steps.
    double at(double size) const;
};

struct ComputePeak {
    ComputeUnit unit = ComputeUnit::Vector;
    DType dtype = DType::F32;
    double flopsPerSecond = 0;
    std::string source;
};

struct DeviceSpec {
    std::string id;               ///< "a100-sxm4-80gb": what --device and presets name
    std::string name;             ///< "NVIDIA A100 SXM4 80 GB"
    std::string kind;             ///< "gpu" or "cpu"
    std::string source;           ///< where the entry as a whole comes from
    double memoryBytes = 0;
    double memoryBandwidth = 0;   ///< bytes per second
    std::string memorySource;
    double launchOverheadUs = 0;
    std::string launchSource;
    std::vector<ComputePeak> peaks;
    EfficiencyCurve matrixEfficiency;   ///< over GFLOP of the op
    EfficiencyCurve vectorEfficiency;   ///< over GFLOP of the op
    EfficiencyCurve memoryEfficiency;   ///< over MB moved by the op
    std::string efficiencySource;
    double matrixVectorBandwidth = 0;   ///< bytes per second a GEMV streams; 0: not measured
    std::string matrixVectorSource;
    /// How a runtime departs from this roofline, learned from its profiles (`calibrate --from`);
    /// empty for entries from data sheets and for `calibrate` alone.
    TimeFit fit;

    /// The peak that runs `work`: the matrix unit for Matmul/Conv when the device has one for the
    /// dtype, else the vector unit at the dtype, else the vector unit at fp32. Null when none.
    const ComputePeak* peakFor(const OpWork& work) const;
};

/// The roofline above, in microseconds; 0 for Alias ops, the launch overhead alone for ops that
/// move nothing. Collectives are not timed here (core/timing/collectives.h). Unknown work: 0.
double rooflineMicroseconds(const DeviceSpec& d, const OpWork& work);

/// The roofline less the launch overhead: the op's compute or memory time (what a fit scales).
double rooflineBodyMicroseconds(const DeviceSpec& d, const OpWork& work);

/// An op's estimated time on `d`: the fit's term for its type (else class, else overall) applied
/// to its roofline body when the entry has a fit, else the roofline. Ops the roofline does not
/// time (unknown work, aliases, collectives) get rooflineMicroseconds' value.
double estimatedMicroseconds(const DeviceSpec& d, const std::string& opType, const OpWork& work);

/// FLOPs per byte below which a Matmul is a matrix-vector product (2 per weight element of 4
/// bytes is 0.5; a GEMM of M rows reaches about M / 2).
inline constexpr double kMatrixVectorIntensity = 1.0;

/// The JSON of docs/time.md ("Device files"). Throws IoError naming `sourceName` and the field.
DeviceSpec parseDeviceSpec(std::string_view json, const std::string& sourceName);
std::string deviceSpecToJson(const DeviceSpec& d);
/// Written atomically, its directory made if missing (a first entry of the user's catalogue).
void saveDeviceSpec(const DeviceSpec& d, const std::string& path);

} // namespace sl
