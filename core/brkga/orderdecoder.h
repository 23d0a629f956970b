// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The priorities-only decoder of `brkga-order` (job-shop, STG, any fixed-machine problem): one key
/// per op, used directly as the sl::ListScheduler priority (higher = earlier). Devices are not in
/// the chromosome: each op runs on a device of its machine type that the list scheduler picks.
///
/// The cost is sl::PriorityEvaluator's: the list schedule scored on the problem's objective and
/// memory clock exactly as sl::scoreSchedule scores it. One decoder per thread; decode() does not
/// allocate after construction.
///
/// \code
///   sl::OrderDecoder dec(problem);
///   double cost = dec.decode(sl::brkga::criticalPathKeys(problem.g()));   // list-cp's schedule
/// \endcode

#include "core/heuristics/evaluate.h"

#include <span>

namespace sl {

class OrderDecoder {
public:
    explicit OrderDecoder(const Problem& problem) : m_size(static_cast<size_t>(problem.g().opCount())), m_evaluator(problem) {}

    std::size_t size() const { return m_size; }
    double decode(std::span<const double> keys) {
        checkSize(keys);
        return m_evaluator.cost(keys);
    }
    /// The scored list schedule of `keys`.
    Schedule schedule(std::span<const double> keys) {
        checkSize(keys);
        return m_evaluator.schedule(keys);
    }

private:
    void checkSize(std::span<const double> keys) const;

    std::size_t m_size;
    PriorityEvaluator m_evaluator;
};

} // namespace sl
