// SPDX-License-Identifier: MIT
#pragma once
/// `schedlab-cli optimize A.json B.onnx FOLDER/ ... --method M [--out-dir DIR]`: one optimizer on
/// many graphs, a table row per graph. In a distributed run (--world-size, core/dist) the graphs
/// are split over the ranks (graph i on rank i mod N) and rank 0 prints the table, in the order
/// given, and writes the schedules: the same table and files as one process.

#include "args.h"

#include "core/optimizer/optimizer.h"

#include <optional>
#include <string>

namespace sl::cli {

struct BatchRun {
    std::string method;
    RunOptions options;
    std::optional<std::string> outDir;   ///< one schedule JSON per graph, named after the file
};

/// True when the command line asks for a batch: several graphs, a folder, or --out-dir.
bool isBatch(const Args& args, bool hasOutDir);

/// Runs the batch; the exit code is 1 if any graph failed (its row says why), else 0.
int runOptimizeBatch(Args& args, const BatchRun& run);

/// The help lines of the batch mode.
const char* batchOptionsHelp();

} // namespace sl::cli
