// SPDX-License-Identifier: MIT
#include "core/graph/jobshopnames.h"

#include <charconv>

namespace sl {

namespace {

/// The whole of `digits` as a non-negative int; none if empty, signed or not all digits.
std::optional<int> wholeNumber(std::string_view digits) {
    int value = 0;
    if (digits.empty() || digits.front() < '0' || digits.front() > '9') return std::nullopt;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return value;
}

} // namespace

std::string jobShopOpName(int job, int step) { return "j" + std::to_string(job) + "_o" + std::to_string(step); }

std::optional<JobStep> parseJobShopOpName(std::string_view name) {
    const size_t sep = name.find("_o");
    if (name.size() < 4 || name.front() != 'j' || sep == std::string_view::npos) return std::nullopt;
    const auto job = wholeNumber(name.substr(1, sep - 1));
    const auto step = wholeNumber(name.substr(sep + 2));
    if (!job || !step) return std::nullopt;
    return JobStep{*job, *step};
}

std::vector<JobStep> jobStepsOf(const Graph& g) {
    std::vector<JobStep> steps;
    steps.reserve(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) {
        const auto s = parseJobShopOpName(g.op(v).name);
        if (!s) return {};
        steps.push_back(*s);
    }
    return steps;
}

} // namespace sl
