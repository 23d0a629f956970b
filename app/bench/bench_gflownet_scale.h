// SPDX-License-Identifier: MIT
#pragma once
/// `schedlab-cli bench gflownet --only scale`, its speed table: seconds per N samples as graphs
/// grow, the encode-once GFlowNet beside the per-state one, the priority sampler and list-cp
/// (bench_gflownet_scale.cpp). The quality tables reuse the candidate protocol (bench_gflownet.cpp).

#include "core/costmodel/problem.h"

#include <string>
#include <vector>

namespace sl::cli {

struct ScaleGraph {
    std::string name;
    Problem problem;
};

struct ScaleSetup {
    int samples = 1000;
    int threads = 2;
    std::string perStateWeights;   ///< the paper's architecture, timed on graphs of at most perStateMaxOps
    int perStateMaxOps = 100;
};

void printGflowNetScaleSpeed(const std::vector<ScaleGraph>& graphs, const ScaleSetup& setup);

} // namespace sl::cli
