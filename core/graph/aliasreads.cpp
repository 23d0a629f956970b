// SPDX-License-Identifier: MIT
#include "core/graph/aliasreads.h"

#include <algorithm>

namespace sl {

namespace {

/// Per folded op, the tensors it stands for: its inputs and, through folded producers, theirs.
std::vector<std::vector<TensorId>> standsFor(const Graph& g) {
    std::vector<std::vector<TensorId>> sources(static_cast<size_t>(g.opCount()));
    for (const OpId a : g.topologicalOrder()) {
        if (g.op(a).work.opClass != OpClass::Alias) continue;
        auto& s = sources[static_cast<size_t>(a)];
        for (const TensorId t : g.inputs(a)) {
            s.push_back(t);
            const OpId p = g.tensor(t).producer;
            if (p != kNoOp) s.insert(s.end(), sources[static_cast<size_t>(p)].begin(), sources[static_cast<size_t>(p)].end());
        }
        std::sort(s.begin(), s.end());
        s.erase(std::unique(s.begin(), s.end()), s.end());
    }
    return sources;
}

/// The tensors op c reads through a folded op.
std::vector<TensorId> readThroughAliases(const Graph& g, OpId c, const std::vector<std::vector<TensorId>>& sources) {
    std::vector<TensorId> through;
    for (const TensorId t : g.inputs(c)) {
        const OpId p = g.tensor(t).producer;
        if (p != kNoOp) through.insert(through.end(), sources[static_cast<size_t>(p)].begin(), sources[static_cast<size_t>(p)].end());
    }
    std::sort(through.begin(), through.end());
    return through;
}

} // namespace

bool hasAliasReads(const Graph& g) {
    const auto sources = standsFor(g);
    for (OpId c = 0; c < g.opCount(); ++c) {
        const std::vector<TensorId> through = readThroughAliases(g, c, sources);
        for (const TensorId t : g.inputs(c))
            if (std::binary_search(through.begin(), through.end(), t)) return true;
    }
    return false;
}

Graph withoutAliasReads(const Graph& g) {
    const auto sources = standsFor(g);
    std::vector<std::vector<TensorId>> through(static_cast<size_t>(g.opCount()));
    for (OpId c = 0; c < g.opCount(); ++c) through[static_cast<size_t>(c)] = readThroughAliases(g, c, sources);
    Graph out;
    out.setTimeUnit(g.timeUnit());
    for (const Op& op : g.ops()) out.addOp(op);
    for (TensorId t = 0; t < g.tensorCount(); ++t) {
        const Tensor& tensor = g.tensor(t);
        const TensorId copy = out.addTensor(tensor.name, tensor.producer, tensor.bytes);
        for (const OpId c : tensor.consumers)
            if (!std::binary_search(through[static_cast<size_t>(c)].begin(), through[static_cast<size_t>(c)].end(), t)) out.addConsumer(copy, c);
    }
    out.finalize();
    return out;
}

} // namespace sl
