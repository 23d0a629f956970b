// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// exact-memory's best-first search over op sets (core/exact/exactmemory.h, docs/heuristics.md),
/// over the whole graph or over one segment of every order: its moves (forced ops and chains,
/// delayed ops run with a reader), its per-set bound, its dives and its budget.

#include "core/costmodel/stepmemory.h"
#include "core/exact/delayedops.h"
#include "core/exact/exactmemory.h"
#include "core/exact/memorydive.h"
#include "core/exact/memorystatebound.h"
#include "core/exact/opsetstore.h"
#include "core/exact/setmemory.h"
#include "core/graph/graph.h"

#include <chrono>
#include <cstdint>
#include <queue>
#include <span>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace sl {

/// Where a search starts and ends: after the ops of `prefix` (run first, in any order: only
/// their set matters), until `goal` ops have run. The whole graph: no prefix, every op.
/// `last`, when the span ends at a cut op, is that op: it runs alone at the span's end even when
/// delayed (its readers are all after the span; in every order one of them follows it at once).
struct SearchSpan {
    std::vector<OpId> prefix;
    int goal = 0;
    OpId last = kNoOp;
};

/// The best-first search over op sets. Each stored set has its partial peak (`cost`), the bytes
/// live after it (`live`), its bound (`setBound`, computed when first popped; -1 before) and the
/// step that reached it at that cost (`parent`, `action`).
class MemorySearch {
    /// An open set: `key` is a lower bound on any order through it at partial peak `cost`.
    struct HeapEntry {
        double key, cost;
        int size;
        std::int32_t state;
        bool operator>(const HeapEntry& o) const {   // least bound first, then larger sets (closer to done)
            if (key != o.key) return key > o.key;
            if (size != o.size) return size < o.size;
            return state > o.state;
        }
    };

public:
    /// `result` holds the incumbent: the span's ops after the prefix, and the peak of their steps;
    /// `bound`'s floor is a lower bound on the optimum; the time limit counts from `begin`.
    MemorySearch(const Graph& g, const MemoryStateBound& bound, const ExactMemoryLimits& limits, std::stop_token stop,
                 const ExactMemoryProgress& progress, ExactMemoryResult& result,
                 std::chrono::steady_clock::time_point begin, SearchSpan span);

    /// Searches until the span's goal is reached at its least peak (the result then holds it) or
    /// the budget ends (the result holds the best order found and the bound proved, with a note).
    void run();

private:
    /// The optimum when the search closed, else the best bound proved on the way.
    double provenBound();

    /// Every order passes through an open set or was pruned at the incumbent, so the least open
    /// key (the incumbent when that is lower; the set being expanded counts as open) bounds the
    /// optimum now. Keys need not rise monotonically (a set's bound may exceed its successors'),
    /// so the proof is the largest of these seen, never below the floor.
    double raiseBound();

    std::int32_t addState(std::int32_t parent, OpId action, double cost, double live);

    /// The order that reached `state`: each step's action, after the delayed ops it ran with
    /// (the ops its set adds besides the action, in topological order).
    std::vector<OpId> orderTo(std::int32_t state) const;

    /// Completes the set `state` greedily to the span's goal; keeps the order when it beats the incumbent.
    void tryDive(std::int32_t state);

    /// The largest step of `ops` run after the prefix (the search's cost rules).
    double spanPeak(const std::vector<OpId>& ops);

    void giveUp(const std::string& why);

    /// Counts the expansion of `state` and dives from it now and then; true (with the note set)
    /// when cancelled, out of time, states or memory.
    bool outOfBudget(std::int32_t state);

    /// Live bytes after the step of `v` (already in m_scratch) from `baseLive` before it.
    double liveAfter(OpId v, double baseLive) const;

    /// Stores the set in m_scratch reached from `top` by `v` at partial peak `next`, or lowers its cost.
    void relax(const HeapEntry& top, OpId v, double next, double after, int ran);

    /// A successor of `top` by ready op `op`: its partial peak, the bytes live after it, and
    /// where in m_moveOps its ops are (the delayed ops run with it, or a forced chain, then `op`).
    struct Step {
        OpId op;
        double peak, live;
        int first, count;
    };

    /// The partial peak and the live bytes after running `ops` from the set in m_scratch (left as
    /// it was) at partial peak `cost` with `live` bytes live; stops at the first step that reaches
    /// the incumbent's peak (the move is pruned).
    std::pair<double, double> runOps(std::span<const OpId> ops, double cost, double live);
    /// Adds a successor whose ops are `ops`.
    void addStep(double peak, double live, std::span<const OpId> ops);

    /// Every ready op appended to `top`'s set, unless that reaches the incumbent's peak; only one
    /// when it is forced (raises neither the partial peak nor the live bytes: moving it to the front
    /// of any completion lowers or keeps every later step, so some optimal completion starts with it).
    /// A delayed op (core/exact/delayedops.h) is not a move of its own: it runs with the first of
    /// its readers, just before it.
    void expand(const HeapEntry& top);

    /// A forced chain from the ready op `v` into m_chainOps, with the bytes live after it in
    /// `live` (its partial peak is `cost`): v, then the one reader of all v's
    /// outputs of positive size, then that op's, ... until the live bytes are back at or below
    /// `baseLive`, every step within `cost`. Running it first keeps or lowers every later step of
    /// any completion (docs/heuristics.md, "Forced chains": the live bytes after the chain are at
    /// most those after any part of it, and a completion's steps only gain from it). At most
    /// kChainLength ops and `room`, the ops left to the span's goal (past a segment's last op its
    /// readers in the next segment are ready too); false when the chain leaves the cost, forks or
    /// does not return.
    bool forcedChain(OpId v, double cost, double baseLive, int room, double& live);

    /// The op that reads every output of `v` of positive size, when there is one and all its
    /// predecessors are in m_scratch; else kNoOp.
    OpId soleReaderReady(OpId v) const;

    void setBit(OpId v, bool on);

    static constexpr std::int64_t kDiveEvery = 4095;   ///< expansions between dives, minus one
    static constexpr int kChainLength = 16;            ///< longest forced chain tried

    const Graph& m_g;
    const int m_n;
    const int m_words;
    const ExactMemoryLimits& m_limits;
    const std::stop_token m_stop;
    const ExactMemoryProgress& m_progress;
    ExactMemoryResult& m_result;
    const std::chrono::steady_clock::time_point m_begin;
    const SetStepMemory m_memory;
    const MemoryStateBound& m_bound;
    GreedyMemoryDive m_dive;
    OpSetStore m_store;
    std::vector<double> m_cost, m_live, m_setBound;
    std::vector<std::int32_t> m_parent;
    std::vector<OpId> m_action;
    std::priority_queue<HeapEntry, std::vector<HeapEntry>, std::greater<>> m_heap;
    std::vector<std::uint64_t> m_scratch;
    std::vector<Step> m_steps;
    std::vector<OpId> m_moveOps;   ///< the ops of m_steps, one run after another
    const DelayedOps m_delayed{m_g};
    std::vector<OpId> m_macro;         ///< scratch: a move's ops
    std::vector<OpId> m_chainOps;      ///< scratch: a forced chain
    StepMemory m_stepMemory{m_g, 1};   ///< the dives' peaks
    const double m_floor;
    double m_popped = 0;   ///< key of the set being expanded (off the heap while it is)
    double m_proven = 0;   ///< the best bound raiseBound() has seen
    const double m_bytesPerState;
    const std::int64_t m_checkMask;
    const SearchSpan m_span;
};

}   // namespace sl
