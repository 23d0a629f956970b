// SPDX-License-Identifier: MIT
#include "core/exact/memorystatebound.h"
#include "core/analysis/ordercut.h"
#include "core/exact/opsetstore.h"

#include <algorithm>

namespace sl {

MemoryStateBound::MemoryStateBound(const Graph& g) : m_g(g) {
    const int n = g.opCount();
    if (n <= kMaxReachOps) {
        m_after = opReachability(g, true);
        m_before = opReachability(g, false);
        m_opBound = opCutBounds(g, m_after, m_before);
        m_orderBound = orderCutBounds(g, m_after, m_before);
        m_floor = orderCutBound(g, m_after, m_before, m_orderBound);
    } else {
        for (OpId v = 0; v < n; ++v) {
            double bytes = g.outputBytes(v) + g.op(v).paramBytes;
            for (TensorId t : g.inputs(v)) bytes += g.tensor(t).bytes;
            m_opBound.push_back(bytes);
        }
        m_floor = footprintBound(g);
    }
    if (m_orderBound.empty()) m_orderBound = m_opBound;
    for (OpId v = 0; v < n; ++v) m_stepExtra.push_back(g.outputBytes(v) + g.op(v).paramBytes);
    m_byBound = opsByBound(m_opBound);
    m_byOrderBound = opsByBound(m_orderBound);
}

std::vector<OpId> MemoryStateBound::opsByBound(const std::vector<double>& bound) {
    std::vector<OpId> ops(bound.size());
    for (size_t v = 0; v < ops.size(); ++v) ops[v] = static_cast<OpId>(v);
    std::stable_sort(ops.begin(), ops.end(), [&](OpId a, OpId b) { return bound[static_cast<size_t>(a)] > bound[static_cast<size_t>(b)]; });
    return ops;
}

double MemoryStateBound::bound(const std::uint64_t* set, double live) const {
    const auto largest = std::find_if(m_byOrderBound.begin(), m_byOrderBound.end(), [&](OpId v) { return !opInSet(set, v); });
    if (largest == m_byOrderBound.end()) return nextStepBound(set, live);   // nothing remains
    return std::max({nextStepBound(set, live), remainingOpsBound(set, *largest), leastStepOf(*largest, set)});
}

/// Remaining op v's least step over the completions of `set` (the min-cut with the set's ops run
/// before it), on graphs small enough for the cut.
double MemoryStateBound::leastStepOf(OpId v, const std::uint64_t* set) const {
    if (m_after.empty() || m_g.opCount() > kMaxOrderCutOps) return 0;
    return leastStepAfter(m_g, v, OpBits(set, set + m_after[0].size()), m_after, m_before);
}

double MemoryStateBound::nextStepBound(const std::uint64_t* set, double live) const {
    double cheapest = -1;
    for (OpId v = 0; v < m_g.opCount(); ++v) {
        if (opInSet(set, v)) continue;
        const auto& preds = m_g.predecessors(v);
        if (!std::all_of(preds.begin(), preds.end(), [&](OpId q) { return opInSet(set, q); })) continue;
        const double extra = m_stepExtra[static_cast<size_t>(v)];
        if (cheapest < 0 || extra < cheapest) cheapest = extra;
    }
    return cheapest < 0 ? 0 : live + cheapest;
}

double MemoryStateBound::remainingOpsBound(const std::uint64_t* set, OpId largest) const {
    double best = m_orderBound[static_cast<size_t>(largest)];
    int checked = 0;
    std::vector<TensorId> live;   // gathered once, for the first op whose term is evaluated
    for (const OpId v : m_byBound) {
        if (opInSet(set, v)) continue;
        const double own = m_opBound[static_cast<size_t>(v)];
        if (checked == 0) best = std::max(best, own);   // the largest cut bound among remaining ops
        if (m_after.empty() || ++checked > kOpsChecked) break;
        if (checked == 1) live = liveTensors(set);
        best = std::max(best, own + liveTensorsKeptBy(v, set, live));
    }
    return best;
}

/// Tensors live after `set`: made in it, with positive size, still read by an op outside it.
std::vector<TensorId> MemoryStateBound::liveTensors(const std::uint64_t* set) const {
    std::vector<TensorId> live;
    for (TensorId t = 0; t < m_g.tensorCount(); ++t) {
        const Tensor& tensor = m_g.tensor(t);
        if (tensor.producer == kNoOp || tensor.bytes <= 0 || !opInSet(set, tensor.producer)) continue;
        if (std::any_of(tensor.consumers.begin(), tensor.consumers.end(), [&](OpId c) { return !opInSet(set, c); }))
            live.push_back(t);
    }
    return live;
}

/// Bytes of the tensors live after `set` that are not made by an ancestor of the remaining op `v`
/// but that a descendant of v still reads: they stay live through v's step, and neither v's
/// footprint nor its cut counts them.
double MemoryStateBound::liveTensorsKeptBy(OpId v, const std::uint64_t* set, const std::vector<TensorId>& live) const {
    const OpBits& after = m_after[static_cast<size_t>(v)];
    const OpBits& before = m_before[static_cast<size_t>(v)];
    const auto inBits = [](const OpBits& bits, OpId u) { return (bits[static_cast<size_t>(u) >> 6] >> (u & 63)) & 1u; };
    double bytes = 0;
    for (const TensorId t : live) {
        const Tensor& tensor = m_g.tensor(t);
        if (inBits(before, tensor.producer)) continue;
        const bool readLater = std::any_of(tensor.consumers.begin(), tensor.consumers.end(),
                                           [&](OpId c) { return !opInSet(set, c) && inBits(after, c); });
        if (readLater) bytes += tensor.bytes;
    }
    return bytes;
}

} // namespace sl
