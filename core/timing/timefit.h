// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// How a runtime departs from a device's roofline, learned from measured profiles (docs/time.md,
/// "A machine learned from profiles"). Per op type (a Conv, a Gemm), else per op class:
/// measured time = launch + scale x body^exponent, body the roofline less the device's launch
/// overhead (its compute or memory time, µs), fitted by least squares on the relative error; an
/// exponent under 1 says the runtime's large kernels run relatively faster than its small ones.
/// An op of a type and class the profiles never measured keeps the roofline.
/// A catalogue entry carries its fit (DeviceSpec::fit); sl::estimatedMicroseconds applies it.
///
/// \code
///   sl::TimeFit fit = sl::fitTimes(samples);                 // FitSample: type, class, body, measured
///   double us = fit.termFor("Conv", sl::OpClass::Conv)->at(bodyUs);
/// \endcode

#include "core/graph/opwork.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sl {

struct FitTerm {
    double launchUs = 0;   ///< per-launch time the runtime adds (>= 0)
    double scale = 1;      ///< > 0
    double exponent = 1;   ///< of the body, in [kMinFitExponent, kMaxFitExponent]
    int samples = 0;       ///< ops it was fitted on
    double at(double bodyUs) const { return launchUs + scale * (exponent == 1 ? bodyUs : std::pow(bodyUs, exponent)); }
    bool operator==(const FitTerm&) const = default;
};

/// The exponents a fit tries, in steps of kFitExponentStep (1 among them).
inline constexpr double kMinFitExponent = 0.5, kMaxFitExponent = 1.5, kFitExponentStep = 0.01;

struct TimeFit {
    std::map<std::string, FitTerm> byType;   ///< op type ("Conv", "Gemm", "Relu") -> term
    std::map<OpClass, FitTerm> byClass;
    std::vector<std::string> sources;   ///< the profiles it was fitted on, for `devices --sources`

    bool empty() const { return byType.empty() && byClass.empty(); }
    /// The op type's term, else its class's; null when the profiles had too few of either.
    const FitTerm* termFor(const std::string& type, OpClass c) const;
    bool operator==(const TimeFit&) const = default;
};

/// One measured op: its type and class, its roofline body on the base device and its measured
/// time, both in microseconds.
struct FitSample {
    std::string type;
    OpClass opClass = OpClass::Unknown;
    double bodyUs = 0;
    double measuredUs = 0;
};

/// Terms for every type and class with at least `minSamples` usable samples (body and time
/// positive). Each term minimises sum ((launch + scale x body^e - t) / t)^2 over the exponents e
/// of the grid, launch >= 0 (least squares in launch and scale for each e); when that leaves no
/// positive scale, or every body is equal, the term is the median of t / body, exponent 1, no
/// launch. Samples planted exactly on such a curve (e on the grid) give it back exactly.
TimeFit fitTimes(const std::vector<FitSample>& samples, int minSamples = 3);

}   // namespace sl
