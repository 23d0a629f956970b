// SPDX-License-Identifier: MIT
#pragma once
/// `schedlab-cli bench`: app/bench's one entry point. app/cli/cmd_bench.cpp registers these as the
/// `bench` command; the rest of the CLI knows nothing of the benchmarks (bench.h is app/bench's).

#include "app/cli/args.h"

#include <optional>
#include <string>

namespace sl::cli {

/// `bench --help`: the usage, the distributed flags and the list of benchmarks.
std::string benchCommandHelp();

/// `bench NAME --help`: that benchmark's options, nullopt if there is no benchmark NAME. Needs no
/// method registered and no module loaded.
std::optional<std::string> benchHelp(const std::string& name);

/// `bench NAME [OPTIONS]`: runs benchmark NAME, over the ranks of a distributed run when it splits
/// its work, and returns its exit code. UsageError for an unknown name or a bad option.
int runBenchCommand(Args& args);

} // namespace sl::cli
