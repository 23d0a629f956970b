// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// How job-shop ops are named: step k of job j is "j<j>_o<k>", written by the job-shop reader and
/// generator, read back by whatever shows a graph by job (the Gantt chart's job colouring).

#include "core/graph/graph.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

struct JobStep {
    int job = 0;
    int step = 0;
};

/// "j3_o2" for job 3, step 2.
std::string jobShopOpName(int job, int step);

/// Job and step of an op named exactly j<job>_o<step> (decimal digits, nothing else), else none.
std::optional<JobStep> parseJobShopOpName(std::string_view name);

/// Every op's job and step when every op of `g` is named so; else empty (not a job-shop).
std::vector<JobStep> jobStepsOf(const Graph& g);

} // namespace sl
