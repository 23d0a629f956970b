// SPDX-License-Identifier: MIT
#include "core/exact/delayedops.h"

#include "core/exact/opsetstore.h"

#include <algorithm>
#include <bit>

namespace sl {

namespace {

bool freesNothingAndOwnsBytes(const Graph& g, OpId v) {
    if (g.op(v).paramBytes != 0 || g.outputBytes(v) <= 0) return false;
    for (TensorId t : g.inputs(v))
        if (g.tensor(t).bytes != 0) return false;
    for (TensorId t : g.outputs(v))
        if (g.tensor(t).consumers.empty()) return false;   // a dead output is freed at once: not delayable
    return true;
}

}   // namespace

DelayedOps::DelayedOps(const Graph& g)
    : m_g(g), m_delayed(static_cast<size_t>(g.opCount())), m_rank(static_cast<size_t>(g.opCount())),
      m_seen(static_cast<size_t>(g.opCount()), 0) {
    for (OpId v = 0; v < g.opCount(); ++v) {
        m_delayed[static_cast<size_t>(v)] = freesNothingAndOwnsBytes(g, v);
        m_count += m_delayed[static_cast<size_t>(v)] ? 1 : 0;
    }
    const std::vector<OpId>& topo = g.topologicalOrder();
    for (size_t i = 0; i < topo.size(); ++i) m_rank[static_cast<size_t>(topo[i])] = static_cast<int>(i);
}

bool DelayedOps::readyWith(OpId v, const std::uint64_t* set, std::vector<OpId>& ops) const {
    ops.clear();
    ++m_call;
    if (!gather(v, set, ops)) return false;
    sortTopologically(ops);
    ops.push_back(v);
    return true;
}

/// Adds the delayed predecessors of `v` outside `set`, and theirs; false when a predecessor
/// outside the set is not delayed.
bool DelayedOps::gather(OpId v, const std::uint64_t* set, std::vector<OpId>& ops) const {
    for (OpId q : m_g.predecessors(v)) {
        if (opInSet(set, q) || m_seen[static_cast<size_t>(q)] == m_call) continue;
        if (!delayed(q)) return false;
        m_seen[static_cast<size_t>(q)] = m_call;
        ops.push_back(q);
        if (!gather(q, set, ops)) return false;
    }
    return true;
}

std::vector<OpId> DelayedOps::ranWith(OpId action, const std::uint64_t* before, const std::uint64_t* after) const {
    std::vector<OpId> ops;
    const int words = (m_g.opCount() + 63) / 64;
    for (int w = 0; w < words; ++w)
        for (std::uint64_t added = after[w] & ~before[w]; added != 0; added &= added - 1) {
            const auto v = static_cast<OpId>(64 * w + std::countr_zero(added));
            if (v != action) ops.push_back(v);
        }
    sortTopologically(ops);
    return ops;
}

void DelayedOps::sortTopologically(std::vector<OpId>& ops) const {
    std::sort(ops.begin(), ops.end(),
              [this](OpId a, OpId b) { return m_rank[static_cast<size_t>(a)] < m_rank[static_cast<size_t>(b)]; });
}

}   // namespace sl
