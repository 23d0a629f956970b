// SPDX-License-Identifier: MIT
#pragma once
/// REINFORCE training of REGAL's policy (Paliwal et al., "REGAL: Transfer Learning for Fast
/// Optimization of Computation Graphs", ICLR 2020, "R" below: §3.3 "Reward", §3.4, App. A.5),
/// `schedlab-cli train regal`. Ours where it differs (docs/regal.md, "Training"):
///  - per step, B graphs with replacement, each at one of `seedsPerGraph` BRKGA seeds; the policy's
///    forward over their union; S Gaussian draws per graph (fixed sigma);
///  - each draw's reward is (cost(plain BRKGA) - cost(REGAL's run)) / cost(plain BRKGA), both at
///    `budget` evaluations and the graph's seed: the same run until the policy steers, so the
///    difference is the policy's alone (common random numbers). Plain BRKGA's cost is cached;
///  - the advantage is the reward minus the mean of the graph's other draws (leave-one-out), over
///    the batch's standard deviation; the loss -mean(advantage log p) plus stayPenalty() (means
///    away from 0 cost, so keys the reward does not speak for drift back to Uniform); Adam,
///    global-norm clipping.
/// The fixed sigma keeps every draw off plain BRKGA, so the reward keeps its gradient wherever the
/// policy's means are (the categorical policy could collapse onto draws equal to plain BRKGA).
/// Validation: the policy's means (what runs at test time) at `validationBudget` evaluations on
/// the SGD and Adam steps of real models (`validationModels`) and on generated validation graphs;
/// the score is the worse of the two means, so a checkpoint ships only as good as its weaker side.
/// Every random choice of step k derives from (seed, k): a resumed run draws what an uninterrupted
/// one would, for any --threads. Torch-free header.

#include "core/regal/actions.h"
#include "core/regal/dataset.h"
#include "core/regal/labels.h"
#include "core/regal/search.h"

#include "core/dist/distoptions.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

namespace sl::regal {

struct TrainConfig {
    DatasetSpec data;
    /// "reinforce" (R §3.4) or "imitation": the oracle's actions' likelihood (models/regal/imitation.h).
    std::string loss = "reinforce";
    /// A label set (core/regal/labels.h), built first when missing: training draws its entries of
    /// the objective instead of generated graphs and validates on its validation entries.
    std::string labels;
    OracleLabelSetSize labelSize;
    std::string init;                    ///< weights to start from (a fresh run only), e.g. imitation's
    /// "validation" or "training": print what the policy (`init`, else untrained) predicts against
    /// that part of the label set instead of training (models/regal/labelreport.h)
    std::string report;
    int imitationStrength = 8;           ///< the oracle's shift (core/regal/oracle.h)
    /// With --loss imitation and no label set: a rule the policy imitates on the generated graphs,
    /// "frees-first" (regal::freesFirstActions).
    std::string teacher;
    int validationGraphs = 12;
    std::vector<std::string> validationModels;   ///< ONNX files: their SGD and Adam steps validate
    std::vector<int> validationDevices{2, 4};
    std::int64_t validationBudget = 5000;
    int validationSeeds = 2;
    // rewards
    std::int64_t budget = 1000;          ///< evaluations per reward run (R A.5)
    int steerAfter = kDefaultSteerAfter; ///< plain generations before the policy steers
    int seedsPerGraph = 4;
    LearnedKeys learned;
    // optimisation
    std::int64_t steps = 2000;
    int batch = 4;
    int samplesPerGraph = 4;             ///< draws per graph, >= 2 (leave-one-out)
    double learningRate = 3e-4;
    double clipNorm = 10;
    double stayWeight = 0.5;             ///< stayPenalty(): the price of a mean away from 0 (Uniform)
    // network
    int state = 32, rounds = 16;
    bool meanAggregation = true;
    bool headsReadInput = false;         ///< NetworkConfig::headsReadInput
    double sigma = 0.5;
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

} // namespace sl::regal
