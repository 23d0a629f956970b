// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's decoder, placement step, with the devices' memory in view (issue 62; docs/brkga.md,
/// "Placement that sees memory"). The papers' decoder places each op on its highest-affinity
/// device, blind to what the devices hold: a random chromosome scatters the ops, nearly every
/// tensor gets a copy on another device, and on a training step the search spends its budget
/// undoing that. This one walks the ops in the order their priority keys give (Kahn's algorithm,
/// highest key first, as the decoder's own sort does without transfers), tracks each device's
/// live bytes on the step clock's rules (an output lives on its producer's device until its last
/// consumer has run), and puts each op on the device maximising
///
///     affinity(v, q) - balance x live(q) / max over v's devices of live
///                    - locality x (bytes of v's inputs made on other devices than q) / v's input bytes
///
/// skipping a device its step would take over its memory capacity while another has room.
/// balance = locality = 0 is the papers' argmax (RegalDecoder keeps that path: it is cheaper).
/// Keys are in [0, 1]: with locality above 1 + balance no affinity can move an op away from its
/// inputs and the whole graph follows its first ops onto one device, hence locality <= 1.
/// The live bytes are an estimate (a copy counts at its consumer's step only); the cost is always
/// the cost model's, of the decoded schedule.

#include "core/costmodel/problem.h"
#include "core/util/priorityqueue.h"

#include <span>
#include <vector>

namespace sl {

struct RegalLayout;

/// How REGAL's decoder places ops; all zero: by affinity alone, as the papers.
struct PlacementRule {
    double balance = 0;    ///< weight of the device's share of live bytes
    double locality = 0;   ///< weight of the share of the op's input bytes that would be copied
    bool byAffinityOnly() const { return balance == 0 && locality == 0; }
};

/// The rule a memory objective gets by default, chosen on graphs outside the benchmark; there,
/// 3.6-14.5 % lower peaks than affinity alone from BRKGA 5K (docs/brkga.md, "Placement that sees memory").
inline constexpr PlacementRule kMemoryPlacement{.balance = 0.3, .locality = 1.0};

class BalancedPlacement {
public:
    /// `problem` must outlive this object; `devicesOfType` as Platform::devicesByType().
    BalancedPlacement(const Problem& problem, std::vector<std::vector<int>> devicesOfType);

    /// Writes each op's device into `placement` (one entry per op). `pinnedOp` (or kNoOp) goes to
    /// device 0 whatever its keys, as symmetry breaking fixes it.
    void place(std::span<const double> keys, const RegalLayout& layout, const PlacementRule& rule, OpId pinnedOp,
               std::span<int> placement);

private:
    int chooseDevice(std::span<const double> keys, const RegalLayout& layout, const PlacementRule& rule, OpId v,
                     std::span<const int> placement) const;
    double copiedBytes(OpId v, int device, std::span<const int> placement) const;
    void commit(OpId v, int device, std::span<const int> placement);

    const Graph& m_graph;
    std::vector<std::vector<int>> m_devicesOfType;
    std::vector<double> m_capacity;     ///< per device
    std::vector<double> m_inputBytes;   ///< per op
    std::vector<OpId> m_producer;       ///< per tensor
    std::vector<int> m_consumers;       ///< per tensor: distinct consumers
    std::vector<int> m_consStart;       ///< distinct consumers per tensor (CSR)
    std::vector<OpId> m_cons;
    // workspace
    std::vector<int> m_remaining;   ///< per tensor: consumers still to run
    std::vector<int> m_indeg;       ///< per op
    std::vector<double> m_live;     ///< per device
    PriorityQueue m_ready;
};

}   // namespace sl
