// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Training of the GFlowNet scheduler (spec/gflownet.md §3.4): per update one graph (optionally a
/// random sub-graph, §3.6) and one temperature, log sigma ~ U(log sigma_min, log sigma_max);
/// B on-policy trajectories; the LV loss (Eq. 7-8) or TB with a learned log Z (§3.3); Adam;
/// optional global-norm clipping (logged). Checkpoints (weights, Adam state, step) so that a run
/// can resume; weights and a model card at `out`. Every random choice of step k derives from
/// (seed, k), so a resumed run draws what an uninterrupted one would. Torch-free header.

#include "core/dist/distoptions.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace sl::gfn {

struct GflowNetTrainConfig {
    // data: one graph file, or generated families
    std::string graphFile;                      ///< single-graph mode when set
    std::vector<std::string> families{"er", "layered"};
    int minNodes = 15, maxNodes = 25;
    int minDevices = 4, maxDevices = 4;
    int graphs = 256;                           ///< generated training graphs (seeds 1000000 + i)
    int validationGraphs = 8;                   ///< held-out graphs (seeds 2000000 + i)
    int subgraphMin = 0, subgraphMax = 0;       ///< sub-graph window sizes, 0 = whole graphs
    // objective
    bool trajectoryBalance = false;             ///< --loss tb
    bool uniformBackward = false;
    double sigmaMin = 0.01, sigmaMax = 1.0;
    // optimisation
    int batch = 32;
    std::int64_t steps = 3000;
    double learningRate = 1e-3;
    double clipNorm = 0;                        ///< 0 = off (spec §3.5)
    std::uint64_t seed = 1;
    int threads = 1;
    double timeLimit = 0;                       ///< seconds, 0 = none
    int logEvery = 25;
    int checkpointEvery = 250;
    int evalSamples = 100;                      ///< samples per validation graph at sigma = 0.005
    std::string out;
    bool resume = false;
    std::string initWeights;        ///< start from these weights (their architecture; a fresh Adam) unless resuming
    // model (PolicyConfig::cpu() by default)
    int width = 64, layers = 2, headsPerMask = 1, headDim = 16, mlpHidden = 128, filmDim = 32;
    std::string command;
    dist::DistOptions dist;         ///< data-parallel over these ranks (world size 1: alone)
};

struct GflowNetTrainReport {
    std::int64_t steps = 0;
    double seconds = 0;
    double firstMeanSpeedup = 0, lastMeanSpeedup = 0;   ///< over the first / last logging windows
    double firstZetaStd = 0, lastZetaStd = 0;
    double validationMeanSpeedup = 0;    ///< at sigma 0.005 (mean of the samples, mean over graphs)
    double validationBestSpeedup = 0;    ///< best sample per graph, mean over graphs
    double validationListSpeedup = 0;    ///< list-cp on the same graphs
};

/// Trains; `log` gets the progress lines. Throws std::runtime_error / std::invalid_argument.
GflowNetTrainReport trainGflowNet(const GflowNetTrainConfig& config, const std::function<void(const std::string&)>& log,
                                  std::stop_token stop = {});

} // namespace sl::gfn
