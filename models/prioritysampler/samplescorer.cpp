// SPDX-License-Identifier: MIT
#include "models/prioritysampler/samplescorer.h"

#include "models/prioritysampler/gumbel.h"

#include <algorithm>

namespace sl::ps {

SampleScorer::SampleScorer(const Problem& problem, int threads) : m_problem(problem), m_pool(std::max(threads, 1)) {
    for (int w = 0; w < m_pool.threads(); ++w) {
        m_evaluators.push_back(std::make_unique<PriorityEvaluator>(problem));
        m_keys.emplace_back(static_cast<size_t>(problem.g().opCount()));
    }
}

SampleScorer::~SampleScorer() = default;

SampleBatch SampleScorer::sample(std::span<const double> logits, int count, std::uint64_t seed, bool keepOrders,
                                 std::stop_token stop) {
    SampleBatch batch;
    count = std::max(count, 0);
    batch.costs.assign(static_cast<size_t>(count), kInfinity);
    if (keepOrders) batch.orders.resize(static_cast<size_t>(count));
    std::vector<char> done(static_cast<size_t>(count), 0);
    m_pool.run(count, [&](int i, int worker) {
        if (i > 0 && stop.stop_requested()) return;   // sample 0 always runs: there is a result
        std::vector<double>& keys = m_keys[static_cast<size_t>(worker)];
        perturbedKeys(logits, seed, static_cast<std::uint64_t>(i), keys);
        batch.costs[static_cast<size_t>(i)] = m_evaluators[static_cast<size_t>(worker)]->cost(keys);
        if (keepOrders) batch.orders[static_cast<size_t>(i)] = argsortDescending(keys);
        done[static_cast<size_t>(i)] = 1;
    });
    for (int i = 0; i < count; ++i) {
        if (!done[static_cast<size_t>(i)]) continue;
        ++batch.scored;
        if (batch.costs[static_cast<size_t>(i)] < batch.bestCost) {
            batch.bestCost = batch.costs[static_cast<size_t>(i)];
            batch.best = i;
        }
    }
    return batch;
}

double SampleScorer::greedyCost(std::span<const double> logits) { return m_evaluators[0]->cost(logits); }

Schedule SampleScorer::schedule(std::span<const double> priorities) { return m_evaluators[0]->schedule(priorities); }

} // namespace sl::ps
