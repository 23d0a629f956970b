// SPDX-License-Identifier: MIT
#include "core/analysis/maxflow.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace sl {

MaxFlow::MaxFlow(int nodes) : m_out(static_cast<size_t>(nodes)), m_level(static_cast<size_t>(nodes)), m_next(static_cast<size_t>(nodes)) {}

int MaxFlow::addNode() {
    m_out.emplace_back();
    m_level.push_back(0);
    m_next.push_back(0);
    return static_cast<int>(m_out.size()) - 1;
}

void MaxFlow::addEdge(int from, int to, double capacity) {
    m_out[static_cast<size_t>(from)].push_back(static_cast<int>(m_edges.size()));
    m_edges.push_back({to, capacity});
    m_out[static_cast<size_t>(to)].push_back(static_cast<int>(m_edges.size()));
    m_edges.push_back({from, 0});
}

bool MaxFlow::levelGraph(int source, int sink) {
    std::fill(m_level.begin(), m_level.end(), -1);
    std::queue<int> queue;
    m_level[static_cast<size_t>(source)] = 0;
    queue.push(source);
    while (!queue.empty()) {
        const int v = queue.front();
        queue.pop();
        for (const int e : m_out[static_cast<size_t>(v)]) {
            const Edge& edge = m_edges[static_cast<size_t>(e)];
            if (edge.capacity > 0 && m_level[static_cast<size_t>(edge.to)] < 0) {
                m_level[static_cast<size_t>(edge.to)] = m_level[static_cast<size_t>(v)] + 1;
                queue.push(edge.to);
            }
        }
    }
    return m_level[static_cast<size_t>(sink)] >= 0;
}

double MaxFlow::push(int v, int sink, double limit) {
    if (v == sink) return limit;
    auto& next = m_next[static_cast<size_t>(v)];
    const auto& out = m_out[static_cast<size_t>(v)];
    for (; next < static_cast<int>(out.size()); ++next) {
        const int e = out[static_cast<size_t>(next)];
        Edge& edge = m_edges[static_cast<size_t>(e)];
        if (edge.capacity <= 0 || m_level[static_cast<size_t>(edge.to)] != m_level[static_cast<size_t>(v)] + 1) continue;
        const double pushed = push(edge.to, sink, std::min(limit, edge.capacity));
        if (pushed > 0) {
            edge.capacity -= pushed;
            m_edges[static_cast<size_t>(e ^ 1)].capacity += pushed;
            return pushed;
        }
    }
    return 0;
}

double MaxFlow::run(int source, int sink) {
    double flow = 0;
    while (levelGraph(source, sink)) {
        std::fill(m_next.begin(), m_next.end(), 0);
        while (const double pushed = push(source, sink, std::numeric_limits<double>::infinity())) flow += pushed;
    }
    return flow;
}

} // namespace sl
