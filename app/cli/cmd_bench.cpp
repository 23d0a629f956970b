// SPDX-License-Identifier: MIT
// `schedlab-cli bench NAME ...`: the benchmarks are a library of their own (app/bench); this
// command is the CLI's one door into it (app/bench/benchcommand.h).
#include "command.h"

#include "app/bench/benchcommand.h"

namespace sl::cli {
namespace {

SL_CLI_COMMAND({"bench", "benchmarks that print tables (speed and quality)", &benchCommandHelp, {"quick", "ops"},   // every bench's flags (bench cost-model --ops)
                &runBenchCommand, /*needsNeuralMethods=*/false, &benchHelp});

} // namespace
} // namespace sl::cli
