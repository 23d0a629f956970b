// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A measured profile from a file of either kind, applied to a graph: SchedLab's profile JSON
/// (`schedlab-cli profile`) or ONNX Runtime's profiling trace (told apart by content: a trace is
/// a JSON array of events, or an object with "traceEvents"). What the CLI's --profile and the
/// explorer's Profile button both call.
///
/// \code
///   sl::AppliedProfile a = sl::applyProfileFile(graphCopy, "resnet50.profile.json");   // throws IoError
///   statusBar(a.describe());   // "measured on this CPU (...), 2026-11-28T21:00:00Z: 212 of 230 ops"
/// \endcode

#include "core/profile/ortprofile.h"
#include "core/profile/profile.h"

#include <optional>
#include <string>

namespace sl {

struct AppliedProfile {
    Profile profile;
    ProfileMatch match;
    std::optional<OrtImportReport> ort;   ///< set for an ONNX Runtime trace
    std::string describe() const;
};

/// Reads `path`, maps it onto `g` and applies it (applyProfile's rules: nothing applied when it
/// is refused). Throws IoError naming the file.
AppliedProfile applyProfileFile(Graph& g, const std::string& path);

/// For a file listed for many graphs (a study's "profiles"): applies it as applyProfileFile does
/// when it is a profile of `g` (profileIsOf), else changes nothing and returns nullopt. Throws
/// IoError naming the file when it is not a profile of either kind or is broken.
std::optional<AppliedProfile> applyProfileFileIfOf(Graph& g, const std::string& path);

} // namespace sl
