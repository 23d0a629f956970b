// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Training of the GFlowNet scheduler (Zhang et al., ICLR 2023, Sec. 3; docs/gflownet.md): per
/// update one graph (optionally a random sub-graph) and one temperature, log sigma ~
/// U(log sigma_min, log sigma_max); B on-policy trajectories; the log-partition variance loss
/// (the paper's Eq. 7-8) or, for the per-state architecture, trajectory balance with a learned
/// log Z. The loop (models/train/loop.h) validates at sigma 0.005 and ships the checkpoint whose
/// best sample beats list-cp by the most (geometric mean over the validation graphs).
/// Torch-free header.

#include "core/dist/distoptions.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace sl::gfn {

struct GflowNetTrainConfig {
    /// "ready": the encode-once policy (the default); "per-state": the paper's, re-encoding every state
    std::string architecture = "ready";
    // data: one graph file, or generated families
    std::string graphFile;                      ///< single-graph mode when set
    std::vector<std::string> families{"er", "layered"};
    int minNodes = 15, maxNodes = 25;
    int minDevices = 4, maxDevices = 4;
    int graphs = 256;                           ///< generated training graphs (seeds 1000000 + i)
    int validationGraphs = 8;                   ///< held-out graphs (seeds 2000000 + i)
    std::vector<std::string> validationFiles;   ///< graph files validated on too (at maxDevices)
    int subgraphMin = 0, subgraphMax = 0;       ///< sub-graph window sizes, 0 = whole graphs
    // objective
    bool trajectoryBalance = false;             ///< --loss tb
    bool uniformBackward = false;
    double sigmaMin = 0.001, sigmaMax = 1.0;   // the slider's range
    // optimisation
    int batch = 32;
    std::int64_t steps = 3000;
    double learningRate = 1e-3;
    double clipNorm = 0;                        ///< 0 = off (the paper does not clip)
    std::uint64_t seed = 1;
    int threads = 1;
    double timeLimit = 0;                       ///< seconds, 0 = none
    int logEvery = 25;
    int checkpointEvery = 250;
    int evalSamples = 100;                      ///< samples per validation graph at sigma = 0.005
    int hidden = 32;                            ///< the ready architecture's action MLP
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
    double validationTop1VsList = 0;     ///< geometric mean of best sample U / list-cp U (the shipped checkpoint's)
};

/// Trains; `log` gets the progress lines. Throws std::runtime_error / std::invalid_argument.
GflowNetTrainReport trainGflowNet(const GflowNetTrainConfig& config, const std::function<void(const std::string&)>& log,
                                  std::stop_token stop = {});

} // namespace sl::gfn
