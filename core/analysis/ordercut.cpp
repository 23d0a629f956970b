// SPDX-License-Identifier: MIT
#include "core/analysis/ordercut.h"

#include "core/analysis/maxflow.h"

#include <algorithm>

namespace sl {

namespace {

/// The minimum-cut network of one op v: source = "ran before v" (its ancestors), sink = "runs
/// after v" (its descendants), a node per incomparable op, and a node per tensor with several
/// incomparable readers.
class StepCut {
public:
    /// `ranBefore` (optional): ops assumed to have run before v, closed under ancestors.
    StepCut(const Graph& g, OpId v, const OpBits& descendants, const OpBits& ancestors, const OpBits* ranBefore)
        : m_g(g), m_v(v), m_descendants(descendants), m_ancestors(ancestors), m_ranBefore(ranBefore),
          m_node(static_cast<size_t>(g.opCount()), -1), m_flow(2) {
        for (OpId u = 0; u < g.opCount(); ++u)
            if (incomparable(u) && !(ranBefore && hasOpBit(*ranBefore, u))) m_node[static_cast<size_t>(u)] = m_flow.addNode();
    }

    /// Bytes live besides v's footprint in the best case.
    double minimumLive() {
        double always = 0;
        for (TensorId t = 0; t < m_g.tensorCount(); ++t) addTensor(t, always);
        for (OpId w = 0; w < m_g.opCount(); ++w)   // an incomparable op before v needs its incomparable inputs before v
            if (m_node[static_cast<size_t>(w)] >= 0)
                for (const OpId u : m_g.predecessors(w))
                    if (m_node[static_cast<size_t>(u)] >= 0) m_flow.addEdge(m_node[static_cast<size_t>(w)], m_node[static_cast<size_t>(u)], kInfinity);
        return always + m_flow.run(kSource, kSink);
    }

private:
    static constexpr int kSource = 0, kSink = 1;

    bool incomparable(OpId u) const { return u != m_v && !hasOpBit(m_descendants, u) && !hasOpBit(m_ancestors, u); }

    /// The side an op is pinned to, or its node: ancestors run before (source), descendants after (sink).
    int sideOf(OpId u) const {
        if (hasOpBit(m_ancestors, u) || (m_ranBefore && hasOpBit(*m_ranBefore, u))) return kSource;
        return hasOpBit(m_descendants, u) ? kSink : m_node[static_cast<size_t>(u)];
    }

    void addTensor(TensorId t, double& always) {
        const Tensor& tensor = m_g.tensor(t);
        if (tensor.bytes <= 0 || tensor.producer == kNoOp || tensor.producer == m_v || hasOpBit(m_descendants, tensor.producer)) return;
        if (std::find(tensor.consumers.begin(), tensor.consumers.end(), m_v) != tensor.consumers.end()) return;   // in v's footprint
        const int producer = sideOf(tensor.producer);
        std::vector<int>& readers = m_readers;
        readers.clear();
        bool readAfter = false;
        for (const OpId c : tensor.consumers) {
            const int side = sideOf(c);
            if (side == kSink) readAfter = true;
            else if (side != kSource) readers.push_back(side);
        }
        if (readAfter) {   // live whenever its producer ran
            if (producer == kSource) always += tensor.bytes;
            else m_flow.addEdge(producer, kSink, tensor.bytes);
            return;
        }
        if (readers.empty()) return;   // read only by ancestors: dead by v's step
        if (readers.size() == 1) {
            m_flow.addEdge(producer, readers[0], tensor.bytes);
            return;
        }
        const int node = m_flow.addNode();   // live when its producer ran and one of its readers did not
        m_flow.addEdge(producer, node, tensor.bytes);
        for (const int r : readers) m_flow.addEdge(node, r, kInfinity);
    }

    const Graph& m_g;
    const OpId m_v;
    const OpBits& m_descendants;
    const OpBits& m_ancestors;
    const OpBits* m_ranBefore;
    std::vector<int> m_node;   ///< per op: its node when incomparable with v, else -1
    std::vector<int> m_readers;   ///< addTensor's scratch: a tensor's readers' nodes
    MaxFlow m_flow;
};

/// footprint(v) plus the least live bytes at v's step (with `ran`, when given, run before it).
double leastStep(const Graph& g, OpId v, const std::vector<OpBits>& after, const std::vector<OpBits>& before, const OpBits* ran) {
    double own = g.outputBytes(v) + g.op(v).paramBytes;
    for (const TensorId t : g.inputs(v)) own += g.tensor(t).bytes;
    return own + StepCut(g, v, after[static_cast<size_t>(v)], before[static_cast<size_t>(v)], ran).minimumLive();
}

} // namespace

std::vector<double> orderCutBounds(const Graph& g, const std::vector<OpBits>& after, const std::vector<OpBits>& before) {
    std::vector<double> bound = opCutBounds(g, after, before);
    if (g.opCount() > kMaxOrderCutOps) return bound;
    for (OpId v = 0; v < g.opCount(); ++v)
        bound[static_cast<size_t>(v)] = std::max(bound[static_cast<size_t>(v)], leastStep(g, v, after, before, nullptr));
    return bound;
}

double leastStepAfter(const Graph& g, OpId v, const OpBits& ran, const std::vector<OpBits>& after, const std::vector<OpBits>& before) {
    return leastStep(g, v, after, before, &ran);
}

namespace {

/// footprint(v) + the least live bytes at v's step when w (and so its ancestors) ran before v.
double stepAfter(const Graph& g, OpId v, OpId w, const std::vector<OpBits>& after, const std::vector<OpBits>& before) {
    OpBits ran = before[static_cast<size_t>(w)];
    ran[static_cast<size_t>(w) >> 6] |= std::uint64_t{1} << (w & 63);
    return leastStepAfter(g, v, ran, after, before);
}

} // namespace

double pairCutBound(const Graph& g, const std::vector<OpBits>& after, const std::vector<OpBits>& before,
                    const std::vector<double>& opBounds, int candidates) {
    std::vector<OpId> byBound(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) byBound[static_cast<size_t>(v)] = v;
    std::stable_sort(byBound.begin(), byBound.end(), [&](OpId a, OpId b) { return opBounds[static_cast<size_t>(a)] > opBounds[static_cast<size_t>(b)]; });
    byBound.resize(std::min(byBound.size(), static_cast<size_t>(candidates)));
    double best = 0;
    for (size_t i = 0; i < byBound.size(); ++i)
        for (size_t j = i + 1; j < byBound.size(); ++j) {
            const OpId v = byBound[i], w = byBound[j];
            if (hasOpBit(after[static_cast<size_t>(v)], w) || hasOpBit(before[static_cast<size_t>(v)], w)) continue;
            // whichever of the two runs second holds what the first left behind
            best = std::max(best, std::min(stepAfter(g, v, w, after, before), stepAfter(g, w, v, after, before)));
        }
    return best;
}

double orderCutBound(const Graph& g, const std::vector<OpBits>& after, const std::vector<OpBits>& before,
                     const std::vector<double>& orderBounds) {
    double best = footprintBound(g);
    for (const double b : orderBounds) best = std::max(best, b);
    if (g.opCount() > kMaxOrderCutOps) return best;
    return std::max(best, pairCutBound(g, after, before, orderBounds, kPairCandidates));
}

double orderCutBound(const Graph& g) {
    if (g.opCount() > kMaxOrderCutOps) return cutMemoryBound(g, 1);
    const std::vector<OpBits> after = opReachability(g, true), before = opReachability(g, false);
    return orderCutBound(g, after, before, orderCutBounds(g, after, before));
}

} // namespace sl
