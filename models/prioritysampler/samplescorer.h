// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Scores Gumbel samples of one graph's logits through the project's cost model (one
/// sl::PriorityEvaluator, i.e. one sl::ListScheduler, per worker thread). Sample i always uses the
/// noise stream (seed, i), so the costs, the best sample and the orders do not depend on the number
/// of threads. Torch-free.
///
/// \code
///   sl::ps::SampleScorer scorer(problem, /*threads*/ 2);
///   auto batch = scorer.sample(logits, 256, seed);        // S(256)
///   sl::Schedule s = scorer.schedule(sl::ps::perturbedKeys(logits, seed, batch.best));
/// \endcode

#include "core/costmodel/problem.h"
#include "core/heuristics/evaluate.h"
#include "core/schedule/schedule.h"
#include "core/util/workerpool.h"

#include <cstdint>
#include <memory>
#include <span>
#include <stop_token>
#include <vector>

namespace sl::ps {

struct SampleBatch {
    std::vector<double> costs;                 ///< scalar cost (makespan) of sample i
    std::vector<std::vector<OpId>> orders;     ///< sampled orders, when asked for (training)
    int best = -1;                             ///< first sample of least cost
    double bestCost = kInfinity;
    int scored = 0;                            ///< samples scored (fewer than asked when stopped)
};

class SampleScorer {
public:
    SampleScorer(const Problem& problem, int threads);
    ~SampleScorer();

    /// Draws `count` samples of (seed, 0..count-1), scores each, keeps the orders if asked.
    /// A stop request ends the batch early (scored < count; unscored costs are +inf).
    SampleBatch sample(std::span<const double> logits, int count, std::uint64_t seed, bool keepOrders = false,
                       std::stop_token stop = {});
    /// Cost of the noise-free arg-sort of the logits (greedy mode).
    double greedyCost(std::span<const double> logits);
    /// Full schedule of a priority vector (logits for greedy, perturbed keys for a sample).
    Schedule schedule(std::span<const double> priorities);
    int threads() const { return m_pool.threads(); }

private:
    const Problem& m_problem;
    WorkerPool m_pool;
    std::vector<std::unique_ptr<PriorityEvaluator>> m_evaluators;   ///< one per worker
    std::vector<std::vector<double>> m_keys;                        ///< one buffer per worker
};

} // namespace sl::ps
