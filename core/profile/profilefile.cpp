// SPDX-License-Identifier: MIT
#include "core/profile/profilefile.h"

#include "core/io/ioutil.h"
#include "core/util/atomicfile.h"
#include "core/util/limits.h"

#include <filesystem>

namespace sl {
namespace {

/// ORT writes an event array (or {"traceEvents": [...]}); our profiles are objects with "format".
bool looksLikeOrtTrace(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return false;
    return text[first] == '[' || text.substr(0, 4096).find("\"traceEvents\"") != std::string_view::npos;
}

/// The file read and, for an ONNX Runtime trace, mapped onto `g`'s op names; not applied.
AppliedProfile readProfileFile(const Graph& g, const std::string& path) {
    const std::string text = readFile(path, static_cast<std::size_t>(limits().textBytes));
    AppliedProfile out;
    if (looksLikeOrtTrace(text)) {
        OrtImportReport report;
        out.profile = importOrtProfile(text, path, g, report);
        out.profile.model = std::filesystem::path(path).filename().string();
        out.ort = std::move(report);
    } else {
        out.profile = parseProfile(text, path);
    }
    return out;
}

}   // namespace

std::string AppliedProfile::describe() const {
    std::string where = profile.device.empty() ? profile.tool : profile.device;
    if (!profile.created.empty()) where += ", " + profile.created;
    return "measured on " + where + ": " + std::to_string(match.matched) + " of " + std::to_string(match.graphOps) +
        " ops";
}

AppliedProfile applyProfileFile(Graph& g, const std::string& path) {
    AppliedProfile out = readProfileFile(g, path);
    out.match = applyProfile(g, out.profile, path);
    return out;
}

std::optional<AppliedProfile> applyProfileFileIfOf(Graph& g, const std::string& path) {
    AppliedProfile out = readProfileFile(g, path);
    if (!profileIsOf(g, out.profile)) return std::nullopt;
    out.match = applyProfile(g, out.profile, path);
    return out;
}

} // namespace sl
