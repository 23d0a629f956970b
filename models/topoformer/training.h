// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REINFORCE training of the Topoformer memory model (Gagrani et al. 2022, §4.3 eqs. 9-10, App. C.1,
/// C.4; our CPU settings and the baseline test are in docs/topoformer.md, 'Choices where the paper is silent'):
/// batches of freshly generated layered graphs, one sampled order per graph, a greedy-rollout
/// baseline from a frozen copy that is replaced when the trained model is better on a fixed
/// validation set (mean greedy peak lower and a one-sided paired t-test p < 0.05), Adam with lr
/// decay per epoch, gradient-norm clipping. Checkpoints after every epoch; a run resumes from them.
/// Torch-free header.

#include "core/dist/distoptions.h"
#include "models/topoformer/labelset.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

namespace sl::models {

struct TopoformerTrainConfig {
    // data
    /// A label set file (models/topoformer/labelset.h), built first when missing: training draws
    /// its entries and validates on its reserved steps against their optima. Empty: fresh
    /// layered graphs of minNodes-maxNodes, validated against the best classic order.
    /// Several files, comma-separated: each batch draws from them in turn.
    std::string labels;
    int labelSteps = 2400;                   ///< entries of a label set built here
    int labelValidation = 64;                ///< ... and its reserved validation steps
    LabelMix labelMix = LabelMix::Networks;  ///< ... and its kind of graphs
    int labelThreads = 1;                    ///< ... labelled on this many threads
    int minNodes = 50, maxNodes = 100;       ///< training graph sizes, uniform
    int validationGraphs = 128;
    int validationNodes = 100;
    /// Imitation: validate by beam search of this width (0: greedy). Greedy swings between
    /// neighbouring checkpoints where beam search, which the optimizer's default decodes, does not.
    int validationBeam = 0;
    // model (EncoderConfig::cpuSmall by default)
    int width = 64, layers = 3, headsPerMask = 2, headDim = 16, mlpHidden = 64;
    // optimisation
    /// "reinforce" (the paper's, §4.3) or "imitation": the Plackett-Luce log-likelihood of the
    /// labelled optimal orders (needs `labels`).
    std::string loss = "reinforce";
    std::string init;                         ///< weights to start from (a fresh run only), e.g. imitation's
    std::int64_t steps = 2000;
    int batch = 8;
    int samplesPerGraph = 1;                  ///< sampled orders per graph (the paper does not say)
    int epochSteps = 25;                      ///< steps per epoch (200 graphs)
    double learningRate = 3e-4;
    double lrDecay = 0.996;                   ///< per epoch
    double clipNorm = 1.0;
    bool relativeAdvantage = false;           ///< (C - b) / b instead of C - b
    double pValue = 0.05;                     ///< baseline replacement test
    std::uint64_t seed = 1;
    int threads = 1;
    double timeLimit = 0;                     ///< seconds, 0 = none (stops after the step in progress)
    std::string out;                          ///< best weights; checkpoints at out + ".ckpt.*"
    bool resume = false;
    std::string command;                      ///< for the model card
    dist::DistOptions dist;         ///< data-parallel over these ranks (world size 1: alone)
};

struct TopoformerTrainReport {
    std::int64_t steps = 0;
    double seconds = 0;
    double initialValidation = 0;     ///< mean greedy peak of the baseline at the start of this run
    double bestValidation = 0;        ///< mean greedy peak on the validation set, best epoch
    double bestValidationGap = 0;     ///< ... as mean % above the reference (best classic order, or the optima)
    double firstMeanCost = 0;         ///< mean sampled peak, first epoch of this run
    double lastMeanCost = 0;          ///< ... last epoch
};

/// Seeds of generated graphs. Training: trainSeedBase + ...; validation: kValidationSeedBase + i.
/// Benchmarks use seeds below 1e6, which neither range touches.
inline constexpr std::uint64_t kTrainSeedBase = 1'000'000'000'000ULL;
inline constexpr std::uint64_t kValidationSeedBase = 500'000'000'000ULL;

/// Trains; `log` receives one line per epoch. Throws std::runtime_error on I/O errors and
/// std::invalid_argument on a bad configuration.
TopoformerTrainReport trainTopoformer(const TopoformerTrainConfig& config,
                                      const std::function<void(const std::string&)>& log, std::stop_token stop = {});

} // namespace sl::models
