// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The Gecode model of exact-makespan (internal to core/exact: it includes Gecode's headers).
///
/// Variables: a start per op and the makespan. Constraints: every arc (start(to) >= end(from) +
/// lag), every sink ends by the makespan, and per pool of devices a `unary` propagator (one device:
/// overload checking, detectable precedences, not-first-not-last, edge finding) or a `cumulative`
/// one of the pool's size (identical devices: the same reasoning on a capacity; a schedule that
/// never runs more ops than devices at once is always assignable to the devices, interval graphs
/// being perfect). Ops of zero duration stay out of both propagators; on a one-device pool the
/// ranking still orders them, on a larger one they are a relaxation (exactmakespan.h).
///
/// Branching, in this order: rank the one-device pools (core/exact/rankbrancher.h), then fix the
/// starts of the larger pools' ops (earliest first, ties by smallest latest start, then seeded),
/// then every start and the makespan to their minimum (then always consistent: only precedence
/// constraints are left). Minimised by Gecode's branch and bound through cost().

#include "core/exact/cpinstance.h"

#include <gecode/int.hh>
#include <gecode/minimodel.hh>

#include <cstdint>
#include <memory>
#include <vector>

namespace sl {

/// Where the ranking of the one-device pools stands on one search path (copied with the space).
struct RankState {
    std::vector<int> unranked;   ///< per pool: ops not ranked yet
    std::vector<char> ranked;    ///< per op
    std::vector<char> excluded;  ///< per op: already refused as the next op of its pool at this rank
    int current = -1;            ///< the pool being ranked, -1 before one is chosen
};

class MakespanSpace : public Gecode::IntMinimizeSpace {
public:
    /// Makespan in [lower, upper], starts within it. `in` must outlive the space and its copies.
    /// `seed` orders ties between otherwise equal branching candidates.
    MakespanSpace(const CpInstance& in, int lower, int upper, std::uint64_t seed);
    MakespanSpace(MakespanSpace& other);
    Gecode::Space* copy() override;
    Gecode::IntVar cost() const override { return m_makespan; }

    const CpInstance& instance() const { return *m_instance; }
    const Gecode::IntVar& start(OpId v) const { return m_start[static_cast<int>(v)]; }
    const Gecode::IntVar& makespan() const { return m_makespan; }
    RankState& rank() { return m_rank; }
    const RankState& rank() const { return m_rank; }
    /// Per op: its place in the seeded tie order (smaller first).
    int tieRank(OpId v) const { return (*m_tieRank)[static_cast<size_t>(v)]; }
    /// The op behind position i of the identical-device start branching.
    OpId pooledOp(int i) const { return (*m_pooledOps)[static_cast<size_t>(i)]; }

private:
    void postPrecedence();
    void postResources();
    void postBranching();

    const CpInstance* m_instance;
    std::shared_ptr<const std::vector<int>> m_tieRank;
    std::shared_ptr<const std::vector<OpId>> m_pooledOps;
    Gecode::IntVarArray m_start;
    Gecode::IntVar m_makespan;
    RankState m_rank;
};

} // namespace sl
