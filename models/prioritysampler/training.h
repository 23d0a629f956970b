// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Training of the priority sampler (Jeon et al., ICLR 2023, §3.3, Algorithm 1; App. F.1-F.2): one graph per
/// update, N Gumbel samples list-scheduled through the cost model, makespans standardised across
/// the samples of the graph (eq. 13), REINFORCE on the Plackett-Luce log-probability plus the
/// logit-norm penalty c_logits * mean(l^2) (eq. 12), Adam. Checkpoints every `validateEvery` steps
/// (weights, Adam state, step) so that a run can resume; the best model by validation S(16) is
/// written to `out` with its model card `out.card.json`. Torch-free header (the CLI includes it).

#include "models/prioritysampler/datasets.h"

#include "core/dist/distoptions.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

namespace sl::ps {

struct TrainConfig {
    TaskSpec data;
    int trainGraphs = 400;
    int validationGraphs = 16;
    int samples = 128;            ///< N per update
    std::int64_t steps = 4000;    ///< updates (one graph each)
    double learningRate = 5e-4;
    double cLogits = 1e-3;
    double epsilon = 0.1;         ///< floor of the makespan std in eq. 13
    double clipNorm = 1.0;        ///< gradient-norm clip (not in the paper; a safety net)
    std::uint64_t seed = 1;
    int threads = 1;              ///< torch intra-op threads and list-scheduling workers
    double timeLimit = 0;         ///< seconds, 0 = none: stops after the step in progress
    int validateEvery = 200;
    std::string out;              ///< best weights; checkpoint files are out + ".ckpt.*"
    bool resume = false;
    // encoder size (EncoderConfig::cpuSmall by default)
    int width = 64, layers = 3, headsPerMask = 2, headDim = 16;
    std::string command;          ///< for the model card
    dist::DistOptions dist;         ///< data-parallel over these ranks (world size 1: alone)
};

struct TrainReport {
    std::int64_t steps = 0;
    double seconds = 0;
    double bestValidation = 0;     ///< mean S(16) makespan / best of CP, MOPNR, SPT (lower is better)
    double firstMeanCost = 0;      ///< mean sampled cost over the first validateEvery steps
    double lastMeanCost = 0;       ///< ... and over the last ones
};

/// Trains; `log` gets one progress line per validation. Throws std::runtime_error on I/O errors.
TrainReport trainPrioritySampler(const TrainConfig& config, const std::function<void(const std::string&)>& log,
                                 std::stop_token stop = {});

} // namespace sl::ps
