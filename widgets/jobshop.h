// SPDX-License-Identifier: MIT
#pragma once
// Job-shop graphs as their readers know them: every op is step k of job j, named j<j>_o<k> by the
// job-shop importer and generator (core/io/jobshopformat.cpp, core/generators). The Gantt chart
// colours and labels such graphs by job.
#include "core/graph/graph.h"

#include <QString>

#include <charconv>
#include <optional>
#include <string_view>
#include <vector>

namespace sl::gui {

struct JobStep {
    int job = 0;
    int step = 0;
};

namespace jobshop_detail {

/// The whole of `digits` as a non-negative int; none if empty, signed or not all digits.
inline std::optional<int> wholeNumber(std::string_view digits) {
    int value = 0;
    if (digits.empty() || digits.front() < '0' || digits.front() > '9') return std::nullopt;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return value;
}

} // namespace jobshop_detail

/// Job and step of an op named exactly j<job>_o<step> (decimal digits), else none.
inline std::optional<JobStep> parseJobStep(std::string_view name) {
    const size_t sep = name.find("_o");
    if (name.size() < 4 || name.front() != 'j' || sep == std::string_view::npos) return std::nullopt;
    const auto job = jobshop_detail::wholeNumber(name.substr(1, sep - 1));
    const auto step = jobshop_detail::wholeNumber(name.substr(sep + 2));
    if (!job || !step) return std::nullopt;
    return JobStep{*job, *step};
}

/// Every op's job and step when every op of `g` is named j<job>_o<step>; else empty.
inline std::vector<JobStep> jobStepsOf(const Graph& g) {
    std::vector<JobStep> steps;
    steps.reserve(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) {
        const auto s = parseJobStep(g.op(v).name);
        if (!s) return {};
        steps.push_back(*s);
    }
    return steps;
}

/// A bar's label for job `s.job`, step `s.step`: "J3·2".
inline QString jobStepLabel(JobStep s) {
    return QStringLiteral("J%1·%2").arg(s.job).arg(s.step);
}

} // namespace sl::gui
