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
    /// `localSearch`: each list schedule is improved by steepest descent on its critical path
    /// (core/localsearch/polish.h) before it is costed, as in Gonçalves & Resende's BRKGA for the
    /// job-shop; the chromosome stays as it is (the keys do not learn the moves).
    explicit OrderDecoder(const Problem& problem, bool localSearch = false)
        : m_problem(&problem), m_size(static_cast<size_t>(problem.g().opCount())), m_evaluator(problem), m_localSearch(localSearch) {}

    std::size_t size() const { return m_size; }
    double decode(std::span<const double> keys);
    /// The scored schedule of `keys` (improved, with local search).
    Schedule schedule(std::span<const double> keys);

private:
    void checkSize(std::span<const double> keys) const;

    const Problem* m_problem;
    std::size_t m_size;
    PriorityEvaluator m_evaluator;
    bool m_localSearch;
};

} // namespace sl
