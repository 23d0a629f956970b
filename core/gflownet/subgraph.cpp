// SPDX-License-Identifier: MIT
#include "core/gflownet/subgraph.h"

#include <algorithm>
#include <stdexcept>

namespace sl::gfn {

std::vector<OpId> randomTopologicalOrder(const Graph& g, Rng& rng) {
    std::vector<int> missing(static_cast<size_t>(g.opCount()));
    std::vector<OpId> ready, order;
    for (OpId v = 0; v < g.opCount(); ++v) {
        missing[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size());
        if (missing[static_cast<size_t>(v)] == 0) ready.push_back(v);
    }
    while (!ready.empty()) {
        const auto pick = static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(ready.size()) - 1));
        const OpId v = ready[pick];
        ready[pick] = ready.back();
        ready.pop_back();
        order.push_back(v);
        for (OpId s : g.successors(v))
            if (--missing[static_cast<size_t>(s)] == 0) ready.push_back(s);
    }
    return order;
}

std::vector<OpId> randomWindow(const Graph& g, int size, Rng& rng) {
    const std::vector<OpId> order = randomTopologicalOrder(g, rng);
    const int k = std::clamp(size, 0, g.opCount());
    const auto first = rng.integer(0, g.opCount() - k);
    return {order.begin() + first, order.begin() + first + k};
}

Problem inducedSubProblem(const Problem& p, const std::vector<OpId>& ops) {
    const Graph& g = p.g();
    std::vector<OpId> newId(static_cast<size_t>(g.opCount()), kNoOp);
    auto sub = std::make_shared<Graph>();
    for (OpId v : ops) {
        if (v < 0 || v >= g.opCount() || newId[static_cast<size_t>(v)] != kNoOp)
            throw std::invalid_argument("inducedSubProblem: bad or repeated op id");
        newId[static_cast<size_t>(v)] = sub->addOp(g.op(v));
    }
    for (TensorId t = 0; t < g.tensorCount(); ++t) {
        const Tensor& x = g.tensor(t);
        const OpId producer = newId[static_cast<size_t>(x.producer)];
        if (producer == kNoOp) continue;
        const TensorId copy = sub->addTensor(x.name, producer, x.bytes);
        for (OpId c : x.consumers)
            if (newId[static_cast<size_t>(c)] != kNoOp) sub->addConsumer(copy, newId[static_cast<size_t>(c)]);
    }
    sub->finalize();
    Problem out = p;
    out.graph = sub;
    return out;
}

} // namespace sl::gfn
