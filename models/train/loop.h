// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The one training loop of the neural methods. It owns what every method's training shares:
/// the ranks and the data-parallel gradient average, Adam and gradient clipping, stop tokens and
/// time limits (every rank stops at the same step), progress lines, validation and the choice of
/// the checkpoint to ship, resumable checkpoints and the model card. A method supplies its batch
/// step, its validation and its card (TrainingMethod). Includes LibTorch: models/ only.
///
/// \code
///   sl::models::LoopSettings s{.method = "gflownet", .out = "g.slw", .steps = 3000, ...};
///   sl::models::runTrainingLoop(s, [&](sl::models::DataParallel&) { return std::make_unique<MyMethod>(...); },
///                               log, stop);
/// \endcode
///
/// Files: `out` and `out.card.json` hold the best validated weights; `out.ckpt.json` (step,
/// seconds, best score), `out.ckpt.adam` and the method's own `out.ckpt.*` the latest state, so
/// that `resume` continues where a run stopped. Every random choice of a step derives from
/// (rank seed, step), so a resumed run draws what an uninterrupted one would.

#include "core/dist/distoptions.h"

#include "models/encoder/encoder.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include <torch/types.h>

namespace sl::models {

class DataParallel;

struct LoopSettings {
    std::string method;             ///< for messages, e.g. "gflownet"
    std::string out;                ///< the shipped weights; checkpoints at out + ".ckpt.*"
    std::int64_t steps = 0;
    double timeLimit = 0;           ///< seconds, 0 = none
    int logEvery = 25;              ///< steps per progress line
    int validateEvery = 250;        ///< steps per validation and checkpoint
    double learningRate = 1e-3;     ///< Adam's, PyTorch's defaults otherwise; applies on resume too
    double clipNorm = 0;            ///< global gradient-norm clip, 0 = off (the norm is still logged)
    bool resume = false;            ///< continue from out.ckpt.* if it exists
    bool validateAtStart = false;   ///< log the validation before the first step (untrained, or --init's weights; never shipped)
    bool validateOnEveryRank = false;   ///< validation changes training state (a baseline, the rate)
    int threads = 1;                ///< LibTorch's and OpenBLAS's threads
    std::uint64_t seed = 1;
    std::string command;            ///< for the card
    dist::DistOptions dist;         ///< data-parallel over these ranks (world size 1: alone)
};

/// The settings every trainer's config spells alike (out, steps, time limit, rate, clip, resume,
/// threads, seed, command, ranks); the caller sets the cadence and anything of its own.
template <typename Config>
LoopSettings loopSettings(std::string method, const Config& c) {
    LoopSettings s;
    s.method = std::move(method);
    s.out = c.out;
    s.steps = c.steps;
    s.timeLimit = c.timeLimit;
    s.learningRate = c.learningRate;
    s.clipNorm = c.clipNorm;
    s.resume = c.resume;
    s.threads = c.threads;
    s.seed = c.seed;
    s.command = c.command;
    s.dist = c.dist;
    return s;
}

/// One step's loss and the numbers its progress line averages.
struct StepResult {
    torch::Tensor loss;
    std::vector<double> stats;
};

struct Validation {
    double score = 0;           ///< higher is better: the shipped weights are the best score's
    std::string summary;        ///< for the progress line
    std::string resultsJson;    ///< the card's "results" object
};

class TrainingMethod {
public:
    virtual ~TrainingMethod() = default;
    /// Loads the state saveCheckpoint() wrote (it may rebuild its modules); before parameters().
    virtual void restore(const std::string& checkpoint) = 0;
    /// After restore(): false when the checkpoint's best validation no longer compares (the data
    /// changed), so the next validation becomes the best.
    virtual bool bestStillComparable() const { return true; }
    virtual void saveCheckpoint(const std::string& checkpoint) = 0;
    /// What Adam trains and the ranks keep identical.
    virtual std::vector<torch::Tensor> parameters() = 0;
    /// Other tensors the ranks must share (rank 0's are broadcast at the start), e.g. a baseline.
    virtual std::vector<torch::Tensor> sharedState() { return {}; }
    /// The learning rate the method wants now (after a resume, after each validation), if it sets
    /// its own (a decay); otherwise LoopSettings::learningRate.
    virtual std::optional<double> learningRate() const { return std::nullopt; }
    /// The loss of step `step`; its random choices derive from (rankSeed, step).
    virtual StepResult step(std::int64_t step, std::uint64_t rankSeed) = 0;
    /// The progress line's middle part, from the window means of StepResult::stats.
    virtual std::string describeWindow(const std::vector<double>& means) const = 0;
    /// Rank 0 only (every rank with LoopSettings::validateOnEveryRank), without gradient.
    virtual Validation validate() = 0;
    virtual void saveModel(const std::string& path) = 0;
    /// Model, architecture, features, data and notes (the loop fills the rest).
    virtual ModelCard card() const = 0;
};

struct LoopReport {
    std::int64_t steps = 0, bestStep = -1;
    double seconds = 0;
    double bestScore = -std::numeric_limits<double>::infinity();
    Validation best, last;                          ///< rank 0's
    std::vector<double> firstWindow, lastWindow;    ///< window means of the stats
};

using LogFn = std::function<void(const std::string&)>;
/// Builds the method once the ranks have met and torch's seed is set.
using MethodFactory = std::function<std::unique_ptr<TrainingMethod>(DataParallel&)>;

/// Trains; throws std::runtime_error / std::invalid_argument / dist::DistError.
LoopReport runTrainingLoop(const LoopSettings& settings, const MethodFactory& makeMethod, const LogFn& log,
                           std::stop_token stop = {});

} // namespace sl::models
