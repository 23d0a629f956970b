// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The critical-path neighbourhood of a timed sl::ChainSchedule and the moves in it.
///
///  - Swap (N5, Nowicki & Smutnicki 1996): in each block of two or more ops, the first two and the
///    last two ops trade places; not the first pair of the path's first block nor the last pair
///    of its last block (those cannot shorten the path), none when the path is one block;
///  - Relocate: a critical op goes to another device it may run on, inserted where its inputs
///    would be ready there (before the op running at that time, and after it). Only on platforms
///    where a machine type has several devices.
///
/// An empty neighbourhood with devices of one op at a time proves the makespan optimal: the path
/// is then one device's work from time 0, or a chain of graph edges between fixed devices.
/// A move can close a cycle through chain and graph edges (zero-length ops, transfers);
/// ChainSchedule::retime() then says so and the move is undone.

#include "core/localsearch/chainschedule.h"
#include "core/localsearch/criticalpath.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace sl {

struct Move {
    enum class Kind { Swap, Relocate };
    Kind kind = Kind::Swap;
    OpId op = kNoOp;     ///< Swap: the first op of the pair; Relocate: the op moved
    int device = -1;     ///< Relocate: the target device
    int position = -1;   ///< Relocate: index in the target chain it is inserted before
};

/// What undoes an applied move.
struct MoveUndo {
    Move::Kind kind = Move::Kind::Swap;
    OpId op = kNoOp;
    int device = -1;
    int position = -1;
};

/// Appends the neighbourhood of `s` (timed) along `path` to `out` (cleared first).
void criticalMoves(const ChainSchedule& s, const CriticalPath& path, std::vector<Move>& out);

/// Edits the chains (times are stale until retime()).
MoveUndo applyMove(ChainSchedule& s, const Move& m);
void undoMove(ChainSchedule& s, const MoveUndo& u);

/// The cost a search minimises, of a schedule just timed (its retime() finite).
using ChainCost = std::function<double(const ChainSchedule&)>;
inline double makespanCost(const ChainSchedule& s) { return s.makespan(); }

/// The cost `s` would have after `m` (kInfinity if the move closes a cycle). Leaves the chains as
/// they were and the times stale: retime() before reading them.
double trialCost(ChainSchedule& s, const Move& m, const ChainCost& cost);

/// Tabu attributes, both read from `s` before `m` is applied: the relation the move breaks
/// ("a before b" for a swap, "v on d" for a relocation), which the tabu list keeps from coming
/// back, and the relation it would create (the move is tabu when that one is kept out). One key
/// per relation of the problem's size.
std::uint64_t brokenRelation(const ChainSchedule& s, const Move& m);
std::uint64_t createdRelation(const ChainSchedule& s, const Move& m);

} // namespace sl
