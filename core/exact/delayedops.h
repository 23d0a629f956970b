// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Ops some optimal single-device order runs just before their first reader (exact-memory's
/// search, docs/heuristics.md). A *delayed* op reads only tensors of 0 bytes (so its step frees
/// nothing wherever it runs), owns bytes, has no parameters and every output read. Moving it from
/// anywhere earlier to just before its first reader c raises no step: every step in between loses
/// its outputs, and its own step becomes the bytes live before c, at most c's step. On compiled
/// steps these are the parameters, iotas and constants and the products of broadcast scalars
/// (decay terms, masks): dozens of ops that otherwise interleave with everything. The search runs
/// them only with a reader, as one move.

#include "core/graph/graph.h"

#include <cstdint>
#include <vector>

namespace sl {

class DelayedOps {
public:
    /// `g` must be finalized and outlive this object.
    explicit DelayedOps(const Graph& g);

    bool delayed(OpId v) const { return m_delayed[static_cast<size_t>(v)]; }
    int count() const { return m_count; }

    /// Whether the op `v` (not delayed, not in `set`) can run after the ops of `set` (one bit per
    /// op), the delayed ops it waits for running first; if so `ops` is those delayed ops in
    /// topological order, then `v`.
    bool readyWith(OpId v, const std::uint64_t* set, std::vector<OpId>& ops) const;

    /// The delayed ops a move by `action` ran, from the set `before` to the set `after`, in
    /// topological order (the ops `after` adds, but `action`).
    std::vector<OpId> ranWith(OpId action, const std::uint64_t* before, const std::uint64_t* after) const;

private:
    bool gather(OpId v, const std::uint64_t* set, std::vector<OpId>& ops) const;
    void sortTopologically(std::vector<OpId>& ops) const;

    const Graph& m_g;
    std::vector<bool> m_delayed;
    std::vector<int> m_rank;   ///< position in the topological order
    int m_count = 0;
    mutable std::vector<std::int64_t> m_seen;   ///< per op: the readyWith call that gathered it
    mutable std::int64_t m_call = 0;
};

}   // namespace sl
