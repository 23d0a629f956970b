// SPDX-License-Identifier: MIT
#include "core/heuristics/memoryorders.h"

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

namespace sl {

namespace {

std::vector<int> indegrees(const Graph& g) {
    std::vector<int> deg(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) deg[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size());
    return deg;
}

} // namespace

std::vector<OpId> dfsOrder(const Graph& g) {
    std::vector<int> deg = indegrees(g);
    std::vector<OpId> stack, order;
    order.reserve(static_cast<size_t>(g.opCount()));
    for (OpId v = g.opCount() - 1; v >= 0; --v)
        if (deg[static_cast<size_t>(v)] == 0) stack.push_back(v);
    while (!stack.empty()) {
        const OpId v = stack.back();
        stack.pop_back();
        order.push_back(v);
        const auto succ = g.successors(v);
        for (auto it = succ.rbegin(); it != succ.rend(); ++it)
            if (--deg[static_cast<size_t>(*it)] == 0) stack.push_back(*it);
    }
    return order;
}

std::vector<OpId> bfsOrder(const Graph& g) {
    std::vector<int> deg = indegrees(g);
    std::deque<OpId> queue;
    std::vector<OpId> order;
    order.reserve(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v)
        if (deg[static_cast<size_t>(v)] == 0) queue.push_back(v);
    while (!queue.empty()) {
        const OpId v = queue.front();
        queue.pop_front();
        order.push_back(v);
        for (OpId s : g.successors(v))
            if (--deg[static_cast<size_t>(s)] == 0) queue.push_back(s);
    }
    return order;
}

std::vector<OpId> postOrder(const Graph& g) {
    const int n = g.opCount();
    // Transitive sums over operands, capped so that wide graphs cannot overflow.
    constexpr double kCap = 1e300;
    std::vector<double> extraUsers(static_cast<size_t>(n), 0), totalSize(static_cast<size_t>(n), 0);
    for (OpId v : g.topologicalOrder()) {
        double users = std::max(0.0, static_cast<double>(g.successors(v).size()) - 1);
        double size = g.outputBytes(v);
        for (OpId p : g.predecessors(v)) {
            users += extraUsers[static_cast<size_t>(p)];
            size += totalSize[static_cast<size_t>(p)];
        }
        extraUsers[static_cast<size_t>(v)] = std::min(users, kCap);
        totalSize[static_cast<size_t>(v)] = std::min(size, kCap);
    }
    auto visitFirst = [&](OpId a, OpId b) {
        const auto ia = static_cast<size_t>(a), ib = static_cast<size_t>(b);
        if (extraUsers[ia] != extraUsers[ib]) return extraUsers[ia] > extraUsers[ib];
        if (totalSize[ia] != totalSize[ib]) return totalSize[ia] > totalSize[ib];
        return a < b;
    };
    std::vector<char> state(static_cast<size_t>(n), 0);   // 0 new, 1 open, 2 emitted
    std::vector<OpId> order;
    order.reserve(static_cast<size_t>(n));
    // Iterative DFS: each frame holds an op and its operands sorted in visiting order.
    struct Frame {
        OpId op;
        std::vector<OpId> operands;
        size_t next = 0;
    };
    std::vector<Frame> stack;
    auto open = [&](OpId v) {
        Frame f{v, std::vector<OpId>(g.predecessors(v).begin(), g.predecessors(v).end())};
        std::sort(f.operands.begin(), f.operands.end(), visitFirst);
        state[static_cast<size_t>(v)] = 1;
        stack.push_back(std::move(f));
    };
    std::vector<OpId> roots;
    for (OpId v = 0; v < n; ++v)
        if (g.successors(v).empty()) roots.push_back(v);
    std::sort(roots.begin(), roots.end(), visitFirst);
    for (OpId root : roots) {
        if (state[static_cast<size_t>(root)] != 0) continue;
        open(root);
        while (!stack.empty()) {
            Frame& f = stack.back();
            if (f.next < f.operands.size()) {
                const OpId u = f.operands[f.next++];
                if (state[static_cast<size_t>(u)] == 0) open(u);
                continue;
            }
            state[static_cast<size_t>(f.op)] = 2;
            order.push_back(f.op);
            stack.pop_back();
        }
    }
    return order;
}

std::vector<OpId> xlaListOrder(const Graph& g) {
    const int n = g.opCount();
    std::vector<int> remaining(static_cast<size_t>(g.tensorCount()), 0);   // unscheduled consumer ops
    for (OpId v = 0; v < n; ++v)
        for (TensorId t : g.inputs(v)) ++remaining[static_cast<size_t>(t)];
    // Bytes an op allocates that outlive its step: outputs somebody reads.
    std::vector<double> defined(static_cast<size_t>(n), 0), freed(static_cast<size_t>(n), 0);
    for (OpId v = 0; v < n; ++v)
        for (TensorId t : g.outputs(v))
            if (remaining[static_cast<size_t>(t)] > 0) defined[static_cast<size_t>(v)] += g.tensor(t).bytes;
    for (TensorId t = 0; t < g.tensorCount(); ++t)
        if (remaining[static_cast<size_t>(t)] == 1)
            freed[static_cast<size_t>(g.tensor(t).consumers.front())] += g.tensor(t).bytes;
    std::vector<char> done(static_cast<size_t>(n), 0), isReady(static_cast<size_t>(n), 0);
    using Key = std::tuple<double, int, OpId>;   // (-(freed - defined), -users, id): smallest first
    auto key = [&](OpId v) {
        return Key{-(freed[static_cast<size_t>(v)] - defined[static_cast<size_t>(v)]),
                   -static_cast<int>(g.successors(v).size()), v};
    };
    std::set<Key> ready;
    std::vector<int> deg = indegrees(g);
    for (OpId v = 0; v < n; ++v)
        if (deg[static_cast<size_t>(v)] == 0) {
            ready.insert(key(v));
            isReady[static_cast<size_t>(v)] = 1;
        }
    std::vector<OpId> order;
    order.reserve(static_cast<size_t>(n));
    while (!ready.empty()) {
        const OpId v = std::get<2>(*ready.begin());
        ready.erase(ready.begin());
        done[static_cast<size_t>(v)] = 1;
        order.push_back(v);
        for (TensorId t : g.inputs(v)) {
            if (--remaining[static_cast<size_t>(t)] != 1) continue;
            // The tensor's last reader now frees it: raise that op's priority.
            for (OpId c : g.tensor(t).consumers) {
                if (done[static_cast<size_t>(c)]) continue;
                if (isReady[static_cast<size_t>(c)]) ready.erase(key(c));
                freed[static_cast<size_t>(c)] += g.tensor(t).bytes;
                if (isReady[static_cast<size_t>(c)]) ready.insert(key(c));
                break;
            }
        }
        for (OpId s : g.successors(v))
            if (--deg[static_cast<size_t>(s)] == 0) {
                ready.insert(key(s));
                isReady[static_cast<size_t>(s)] = 1;
            }
    }
    return order;
}

} // namespace sl
