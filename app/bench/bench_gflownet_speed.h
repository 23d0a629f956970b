// SPDX-License-Identifier: MIT
#pragma once
/// `schedlab-cli bench gflownet --only speed`: seconds per N samples and per temperature sweep of
/// one graph, per weight file and thread count (bench_gflownet_speed.cpp).

#include "core/costmodel/problem.h"

#include <string>
#include <vector>

namespace sl::cli {

struct SpeedSetup {
    std::string graphPath;
    std::vector<std::string> weights;   ///< weight files, one block of rows each
    std::vector<int> threads{1, 2};
    int samples = 1000;                 ///< per temperature
    int temperatures = 20;              ///< of the sweep, log-spaced in [0.001, 1]
};

/// Prints the table; returns the exit code.
int runGflowNetSpeedBench(const Problem& p, const SpeedSetup& setup);

} // namespace sl::cli
