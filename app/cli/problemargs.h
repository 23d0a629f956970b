// SPDX-License-Identifier: MIT
#pragma once
/// Turns the common command-line description of a scheduling problem into a graph and an
/// sl::Problem, so that every command reads it the same way:
///
///   GRAPH [--format F] [--devices N | --platform P.json] [--objective makespan|memory|both]
///         [--memory-weight W] [--memory-cap BYTES] [--memory-clock step|time]
///
/// The format comes from the extension unless --format is given. The platform is, in order:
/// --platform, --devices N identical devices, the platform the file carries (job-shop, native
/// JSON), else one device per machine type the graph uses (one device for an untyped graph).
/// --memory-cap sets every device's memory capacity.
/// Bad files throw sl::IoError (exit 1), bad options UsageError (exit 2).

#include "args.h"

#include "core/costmodel/problem.h"
#include "core/costmodel/target.h"
#include "core/io/graphio.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl::cli {

struct LoadedProblem {
    LoadedGraph loaded;
    Problem problem;
};

/// --format F as a GraphFormat (Auto when absent); UsageError for an unknown name.
GraphFormat takeGraphFormat(Args& args);

/// Takes positional `graphIndex` and the options above from `args` (other options stay).
LoadedProblem takeProblem(Args& args, std::size_t graphIndex = 0);

/// The help lines for the options above, to paste into a command's --help.
const char* problemOptionsHelp();

/// The target models of spec/gflownet.md §5.1 a command reports against:
///   --target noisy|bandwidth|latency|proxy (a comma-separated list, or all)  --target-seed S
struct TargetArgs {
    std::vector<TargetModel> models;   ///< empty: no --target given
    std::uint64_t seed = 1;            ///< the noisy target's durations
};
/// Takes --target and --target-seed from `args` (UsageError for an unknown model).
TargetArgs takeTargets(Args& args);
/// The help lines for --target and --target-seed.
const char* targetOptionsHelp();

} // namespace sl::cli
