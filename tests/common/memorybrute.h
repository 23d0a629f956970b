// SPDX-License-Identifier: MIT
#pragma once
// Small random graphs and the step-clock peak computed from its definition (Gagrani et al. 2022,
// §3.2, eqs. 1-3 and App. A eq. 15; docs/costmodel.md, "Step clock"), with brute force over every
// topological order: the independent reference of the exact memory searches' tests.
#include "core/graph/graph.h"
#include "core/util/random.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sl::reference {

/// M_t = bytes of earlier tensors still read at or after step t + outputs and parameters of op t.
inline std::vector<double> definitionStepMemory(const Graph& g, const std::vector<OpId>& order) {
    std::vector<int> pos(static_cast<size_t>(g.opCount()));
    for (size_t i = 0; i < order.size(); ++i) pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
    std::vector<double> steps;
    for (size_t t = 0; t < order.size(); ++t) {
        const OpId v = order[t];
        double m = g.op(v).paramBytes;
        for (TensorId x = 0; x < g.tensorCount(); ++x) {
            const Tensor& tensor = g.tensor(x);
            const int made = pos[static_cast<size_t>(tensor.producer)];
            if (made == static_cast<int>(t)) {
                m += tensor.bytes;
                continue;
            }
            if (made > static_cast<int>(t)) continue;
            bool stillRead = false;
            for (OpId c : tensor.consumers) stillRead |= pos[static_cast<size_t>(c)] >= static_cast<int>(t);
            if (stillRead) m += tensor.bytes;
        }
        steps.push_back(m);
    }
    return steps;
}

/// The peak of those: C(sigma).
inline double definitionPeak(const Graph& g, const std::vector<OpId>& order) {
    const std::vector<double> steps = definitionStepMemory(g, order);
    return steps.empty() ? 0 : *std::max_element(steps.begin(), steps.end());
}

/// Calls `visit` with every topological order that starts with `prefix` (backtracking).
inline void forEachOrder(const Graph& g, std::vector<OpId> prefix, const std::function<void(const std::vector<OpId>&)>& visit) {
    const int n = g.opCount();
    std::vector<OpId> order = std::move(prefix);
    std::vector<char> used(static_cast<size_t>(n), 0);
    for (OpId v : order) used[static_cast<size_t>(v)] = 1;
    std::function<void()> rec = [&] {
        if (static_cast<int>(order.size()) == n) {
            visit(order);
            return;
        }
        for (OpId v = 0; v < n; ++v) {
            if (used[static_cast<size_t>(v)]) continue;
            bool ready = true;
            for (OpId q : g.predecessors(v)) ready &= used[static_cast<size_t>(q)] != 0;
            if (!ready) continue;
            used[static_cast<size_t>(v)] = 1;
            order.push_back(v);
            rec();
            order.pop_back();
            used[static_cast<size_t>(v)] = 0;
        }
    };
    rec();
}

/// Minimum over all topological orders.
inline double bruteMinimum(const Graph& g) {
    double best = kInfinity;
    forEachOrder(g, {}, [&](const std::vector<OpId>& order) { best = std::min(best, definitionPeak(g, order)); });
    return best;
}

/// A random DAG of `n` ops: each op writes one tensor read by later ops with probability `p`,
/// sometimes a second tensor nobody reads, and sometimes parameters. Ids are then shuffled.
inline std::shared_ptr<Graph> randomMemoryGraph(int n, double p, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<int> label(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) label[static_cast<size_t>(i)] = i;
    rng.shuffle(label);
    auto g = std::make_shared<Graph>();
    std::vector<OpId> id(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        Op op{.name = "op" + std::to_string(label[static_cast<size_t>(i)]), .duration = 1};
        if (rng.uniform() < 0.3) op.paramBytes = static_cast<double>(rng.integer(1, 4));
        id[static_cast<size_t>(i)] = g->addOp(op);
    }
    for (int i = 0; i < n; ++i) {
        const TensorId t = g->addTensor("t" + std::to_string(i), id[static_cast<size_t>(i)], static_cast<double>(rng.integer(0, 10)));
        for (int j = i + 1; j < n; ++j)
            if (rng.uniform() < p) g->addConsumer(t, id[static_cast<size_t>(j)]);
        if (rng.uniform() < 0.2)
            g->addTensor("u" + std::to_string(i), id[static_cast<size_t>(i)], static_cast<double>(rng.integer(1, 5)));
    }
    g->finalize();
    return g;
}

} // namespace sl::reference
