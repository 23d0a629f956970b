// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REINFORCE training of REGAL (Paliwal et al., "REGAL: Transfer Learning for Fast Optimization of
/// Computation Graphs", ICLR 2020, "R" below: §3.3 "Reward", §3.4 eqs. 7-9, App. A.5),
/// `schedlab-cli train regal`. The loss's reduction, the stop-gradient and the single optimiser are
/// ours: docs/regal.md, 'Choices where the papers are silent'.
///
/// Per step: B graphs drawn uniformly with replacement from the training set, each with one of
/// `seedsPerGraph` BRKGA seeds; one policy forward over their disjoint union; one action draw per
/// graph (or S, see samplesPerGraph); per graph one BRKGA run of `budget` evaluations with the learned Betas and one plain
/// BRKGA run with the same seed (cached: it depends on the graph and seed only); reward
/// r = -cost_regal / cost_plain. Loss: -mean(sg[r - b] log p) + lambda/2 mean((r - b)^2) with the
/// separate baseline network b(G); one Adam over both networks, global-norm clipping.
/// Every random choice of step k derives from (seed, k), so a resumed run draws what an
/// uninterrupted one would, for any --threads (runs of a step go to a worker pool, one per graph).
/// Checkpoints every `checkpointEvery` steps (weights of both networks, Adam state, step); the
/// weights with the best validation improvement go to `out` with a model card. Torch-free header.

#include "core/regal/actions.h"
#include "core/regal/dataset.h"

#include "core/dist/distoptions.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

namespace sl::regal {

struct TrainConfig {
    DatasetSpec data;
    int validationGraphs = 16;
    // rewards
    std::int64_t budget = 1000;          ///< R A.5: 1,000 evaluations for REGAL and BRKGA in training
    std::int64_t featureBudget = 400;
    int seedsPerGraph = 2;
    LearnedKeys learned;
    // optimisation (R A.5: Adam 1e-4, clip 10, batch 4, lambda 1e-4)
    std::int64_t steps = 2000;
    int batch = 4;
    /// Action draws per graph in a step (our addition; 1 is R §3.4's plain REINFORCE). With S > 1
    /// the draws of a graph share its BRKGA seed and each one's advantage is its reward minus the
    /// mean of the others' (leave-one-out), instead of minus the baseline network's prediction.
    int samplesPerGraph = 1;
    double learningRate = 1e-4;
    double clipNorm = 10;
    double baselineWeight = 1e-4;
    // network
    int state = 32, rounds = 16, k = 2;
    bool meanAggregation = true, eliteBias = false;
    // run
    std::uint64_t seed = 1;
    int threads = 1;
    double timeLimit = 0;                ///< seconds, 0 = none
    int logEvery = 25;
    int checkpointEvery = 250;           ///< also the validation interval
    std::string out;
    bool resume = false;
    std::string command;
    dist::DistOptions dist;         ///< data-parallel over these ranks (world size 1: alone)
};

struct TrainReport {
    std::int64_t steps = 0;
    double seconds = 0;
    double firstReward = 0, lastReward = 0;        ///< mean over the first / last logging window
    double bestValidation = 0;                     ///< mean % improvement over plain BRKGA, best checkpoint
    std::int64_t bestStep = 0;
};

/// Trains; `log` gets the progress lines. Throws std::runtime_error / std::invalid_argument.
TrainReport trainRegal(const TrainConfig& config, const std::function<void(const std::string&)>& log, std::stop_token stop = {});

/// One validation measure: mean % improvement of REGAL (sampled actions) over plain BRKGA at
/// `budget` evaluations each, same seeds, and the share of graphs where it is better or equal.
struct Validation {
    double meanImprovement = 0, shareBetterOrEqual = 0;
};

} // namespace sl::regal
