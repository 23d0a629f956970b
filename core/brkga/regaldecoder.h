// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The REGAL chromosome and decoder (Paliwal et al., ICLR 2020, §3.2.1; symmetry breaking A.1):
/// keys -> placement, transfers and a total order over ops and transfers -> the cost model. The
/// tie rules and the index layout are ours (docs/brkga.md, "Choices where the papers are silent").
///
/// Layout (d devices, n ops, T tensors), n(d+1) + Td keys:
///  - affinity (op j, device q) at j*d + q; priority of op j at n*d + j;
///  - transfer priority (tensor t, device q) at n*(d+1) + t*d + q (the key of the producer's own
///    device is never read; it keeps the length fixed).
/// Decoding:
///  1. placement: argmax affinity over the devices of the op's machine type (ties: lowest index);
///     with a PlacementRule, affinity minus weighted shares of the device's live bytes and of the
///     op's inputs it would copy, op by op in the priorities' order (sl::BalancedPlacement).
///     Symmetry breaking: on a platform of identical
///     devices the op with the largest memory (input + output bytes, ties to the smallest id) is
///     fixed on device 0;
///  2. one transfer X(t, q) per tensor and remote device hosting a consumer of t;
///  3. Kahn's algorithm over ops + transfers, the ready node with the highest key first (ties: ops
///     before transfers, then smaller id; transfers are numbered by (tensor, device)) -> sequence;
///  4. objectives, through sl::CostFunction (core/costmodel/cost.h). Makespan: sl::ListScheduler,
///     our one time-clock cost model, with the decoded placement and the op order of the sequence
///     as ranks; transfers cost what the platform's link says (the papers: zero). Peak memory on
///     the problem's clock: step — sl::StepMemory over the sequence (the papers' clock); time —
///     sl::TimeMemory over that list schedule. schedule() returns the decoded order and transfer
///     steps, so sl::scoreSchedule gives the same cost to the bit. With shared links
///     (sl::linksShared) the sequence's op order is also the booking order: the ops are timed in
///     it on the decoded placement (sl::BookedOrder, the replay sl::timeOnSharedLinks makes).
///
/// One decoder per thread (it owns its workspace, including a ListScheduler and a StepMemory);
/// decode() does not allocate after construction. The problem must outlive the decoder.
///
/// \code
///   sl::RegalDecoder dec(problem);
///   std::vector<double> keys(dec.layout().size(), 0.5);
///   double cost = dec.decode(keys);          // hot path
///   sl::Schedule s = dec.schedule(keys);     // full timed schedule for views and export
/// \endcode

#include "core/brkga/balancedplacement.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/linkbooker.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/problem.h"
#include "core/costmodel/stepmemory.h"
#include "core/costmodel/timememory.h"
#include "core/schedule/schedule.h"
#include "core/util/priorityqueue.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace sl {

struct RegalLayout {
    int ops = 0, tensors = 0, devices = 1;
    /// The layout of a problem's chromosome (no decoder needed).
    static RegalLayout of(const Problem& p) { return {p.g().opCount(), p.g().tensorCount(), p.platform.deviceCount()}; }
    std::size_t affinity(OpId j, int q) const { return static_cast<size_t>(j) * static_cast<size_t>(devices) + static_cast<size_t>(q); }
    std::size_t priority(OpId j) const { return static_cast<size_t>(ops) * static_cast<size_t>(devices) + static_cast<size_t>(j); }
    std::size_t transfer(TensorId t, int q) const {
        return static_cast<size_t>(ops) * static_cast<size_t>(devices + 1) + static_cast<size_t>(t) * static_cast<size_t>(devices) + static_cast<size_t>(q);
    }
    std::size_t size() const { return static_cast<size_t>(ops) * static_cast<size_t>(devices + 1) + static_cast<size_t>(tensors) * static_cast<size_t>(devices); }
};

class RegalDecoder {
public:
    /// Throws GraphError if the problem is not schedulable (see Problem::check()), and
    /// std::invalid_argument for a negative weight of `placement` (all 0: the papers' placement).
    explicit RegalDecoder(const Problem& problem, bool symmetryBreaking = true, PlacementRule placement = {});

    const RegalLayout& layout() const { return m_layout; }
    /// The op fixed on device 0, or kNoOp (symmetry breaking off, or devices not identical).
    OpId symmetryOp() const { return m_symmetryOp; }

    /// Decodes `keys` (layout().size() values) and returns the scalar cost (sl::CostFunction).
    double decode(std::span<const double> keys);

    // Details of the last decode().
    std::span<const int> placement() const { return m_placement; }
    /// Ops (< ops) and transfers (ops + k = transfers()[k]) in schedule order.
    std::span<const int> sequence() const { return m_sequence; }
    std::span<const TransferStep> transfers() const { return m_transfers; }
    std::span<const OpId> order() const { return m_order; }   ///< the ops of sequence()
    double makespan() const { return m_makespan; }            ///< NaN if the cost needs none
    double peakMemory() const { return m_peak; }              ///< on the cost's clock; NaN if not needed
    std::span<const double> devicePeaks() const { return m_devicePeaks; }

    /// Decodes and builds the scored timed schedule (sl::ListScheduler): its `order` is the decoded
    /// op order and its transfers carry their steps in the decoded sequence.
    Schedule schedule(std::span<const double> keys);

private:
    /// The last decode's times as a schedule in the decoded op order (transfers without steps).
    Schedule timedSchedule();
    void place(std::span<const double> keys);
    void buildTransfers();
    void sortTopologically(std::span<const double> keys);
    void listSchedule();

    const Problem& m_problem;
    const Graph& m_graph;
    RegalLayout m_layout;
    OpId m_symmetryOp = kNoOp;
    CostFunction m_cost;
    bool m_needSchedule = false;   ///< the makespan or the time clock needs the list schedule

    std::vector<std::vector<int>> m_devicesOfType;
    std::vector<int> m_type;
    std::vector<OpId> m_producer;             ///< per tensor
    std::vector<int> m_consStart;             ///< distinct consumers per tensor (CSR)
    std::vector<OpId> m_cons;

    PlacementRule m_rule;
    std::unique_ptr<BalancedPlacement> m_balanced;   ///< a rule other than affinity alone

    std::unique_ptr<ListScheduler> m_scheduler;
    std::unique_ptr<BookedOrder> m_booked;   ///< shared links: the clock of the decoded order
    std::unique_ptr<StepMemory> m_stepMemory;
    std::unique_ptr<TimeMemory> m_timeMemory;

    // workspace
    std::vector<int> m_placement;
    std::vector<int> m_xferBase;              ///< per tensor: index of its first transfer
    std::vector<int> m_xferCount;             ///< per tensor: number of transfers
    std::vector<OpId> m_grouped;              ///< consumers per tensor, local ones first, then by device
    std::vector<int> m_localEnd;              ///< per tensor: end of its local consumers in m_grouped
    std::vector<int> m_xferConsEnd;           ///< per transfer: end of its consumers in m_grouped
    std::vector<TransferStep> m_transfers;
    std::vector<double> m_nodeKey;            ///< ops then transfers: their priority keys
    std::vector<int> m_indeg;
    std::vector<int> m_freed;                 ///< scratch: nodes made ready by one release
    PriorityQueue m_ready;
    std::vector<int> m_sequence;
    std::vector<OpId> m_order;
    std::vector<int> m_orderRank;             ///< per op: its position in m_order
    std::vector<double> m_devicePeaks;
    double m_makespan = 0, m_peak = 0;
};

} // namespace sl
