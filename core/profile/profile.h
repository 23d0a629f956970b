// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Measured op times: a profile file (versioned JSON, docs/formats.md "Profiles") and its
/// application to a graph. A profile comes from `schedlab-cli profile MODEL.onnx` (every op run
/// with LibTorch at its shapes on this CPU) or from an ONNX Runtime profiling JSON (ortprofile.h).
///
/// \code
///   sl::Profile prof = sl::loadProfile("resnet50.profile.json");   // throws IoError
///   sl::ProfileMatch m = sl::applyProfile(graph, prof, "resnet50.profile.json");   // throws IoError
///   // m.matched of m.graphOps ops now carry TimeSource::Measured durations
/// \endcode

#include "core/graph/graph.h"

#include <string>
#include <vector>

namespace sl {

inline constexpr int kProfileVersion = 1;

struct OpMeasurement {
    std::string name;          ///< the op's name in the graph (the ONNX node name)
    std::string type;          ///< op type, for reports
    double medianUs = 0;       ///< median over the repetitions, microseconds
    double spreadUs = 0;       ///< interquartile range of the repetitions, microseconds
    int repetitions = 0;
};

struct UnmeasuredOp {
    std::string name;
    std::string type;
    std::string reason;        ///< "no ATen equivalent", "fused by ONNX Runtime into X", ...
};

struct Profile {
    int version = kProfileVersion;
    std::string model;         ///< the file the profile was measured from (its base name)
    std::string fingerprint;   ///< modelFingerprint() text of that graph; empty when unknown (ORT)
    std::string device;        ///< where it ran: "this CPU (AMD EPYC 7B13, LibTorch 1.13, 1 thread)"
    std::string created;       ///< ISO-8601 date and time of the measurement
    std::string tool;          ///< "schedlab-cli profile", "onnxruntime 1.20"
    std::vector<OpMeasurement> ops;
    std::vector<UnmeasuredOp> unmeasured;
};

/// What applying a profile did.
struct ProfileMatch {
    int graphOps = 0;          ///< ops of the graph
    int matched = 0;           ///< ops that received a measured duration
    std::vector<std::string> unknownNames;   ///< profile entries naming no op of the graph
    std::vector<std::string> unmeasured;     ///< graph ops left with their estimate
};

/// Throws IoError naming the file and the field at fault (bad version, negative or NaN time, ...).
Profile loadProfile(const std::string& path);
Profile parseProfile(std::string_view json, const std::string& sourceName);
std::string profileToJson(const Profile& p);
/// Written atomically (never a half-written file).
void saveProfile(const Profile& p, const std::string& path);

/// Whether `p` is a profile of `g`: its fingerprint is modelFingerprint(g), or, without one, it
/// names at least half of g's ops and at least half of its entries are ops of g (exporters name
/// nodes n0, n1, ...: a bigger model's trace names every op of a smaller one). applyProfile
/// refuses the others.
bool profileIsOf(const Graph& g, const Profile& p);

/// Sets `duration` (and clears `deviceDurations`) of every op the profile names to its median, with
/// TimeSource::Measured; the graph stays finalized. Refuses (IoError naming `sourceName`, nothing
/// applied) a profile that is not of `g` (profileIsOf); the message says how many ops match.
ProfileMatch applyProfile(Graph& g, const Profile& p, const std::string& sourceName);

} // namespace sl
