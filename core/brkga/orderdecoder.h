// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The priorities-only decoder of `brkga-order` (job-shop, STG, any fixed-machine problem): one key
/// per op, used directly as the sl::ListScheduler priority (higher = earlier). Devices are not in
/// the chromosome: each op runs on a device of its machine type that the list scheduler picks.
///
/// Objectives: makespan from the list schedule. Peak memory (memory / weighted objectives or the
/// capacity penalty) is the step clock of the list schedule's op order (start time, ties by the
/// graph's topological position) with each transfer placed just before its first consumer.
///
/// One decoder per thread; decode() does not allocate after construction.
///
/// \code
///   sl::OrderDecoder dec(problem);
///   double cost = dec.decode(sl::brkga::criticalPathKeys(problem.g()));   // list-cp's schedule
/// \endcode

#include "core/costmodel/listscheduler.h"
#include "core/costmodel/problem.h"
#include "core/costmodel/stepmemory.h"
#include "core/schedule/schedule.h"

#include <memory>
#include <span>
#include <vector>

namespace sl {

class OrderDecoder {
public:
    explicit OrderDecoder(const Problem& problem);

    std::size_t size() const { return static_cast<size_t>(m_graph.opCount()); }
    double decode(std::span<const double> keys);
    double makespan() const { return m_makespan; }
    double peakMemory() const { return m_peak; }   ///< NaN when the objective needs none
    /// The list schedule of `keys`; for memory and weighted objectives its memory fields are the
    /// step-clock values of its order.
    Schedule schedule(std::span<const double> keys);

private:
    void stepMemory();

    const Problem& m_problem;
    const Graph& m_graph;
    bool m_needMemory = false;
    double m_makespanScale = 1, m_memoryScale = 1;
    ListScheduler m_scheduler;
    std::unique_ptr<StepMemory> m_memory;
    std::vector<int> m_topoPos;

    // workspace
    std::vector<OpId> m_order;
    std::vector<int> m_placement;
    std::vector<int> m_sequence;
    std::vector<TransferStep> m_transfers;
    std::vector<unsigned> m_stamp;   ///< per (tensor, device): == m_epoch when already transferred
    unsigned m_epoch = 0;
    std::vector<double> m_devicePeaks;
    double m_makespan = 0, m_peak = 0;
};

} // namespace sl
