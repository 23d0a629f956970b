// SPDX-License-Identifier: MIT
#include "core/analysis/maxflow.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace sl {

MaxFlow::MaxFlow(int nodes)
    : m_first(static_cast<size_t>(nodes), -1), m_last(static_cast<size_t>(nodes), -1),
      m_level(static_cast<size_t>(nodes)), m_next(static_cast<size_t>(nodes)) {}

int MaxFlow::addNode() {
    m_first.push_back(-1);
    m_last.push_back(-1);
    m_level.push_back(0);
    m_next.push_back(-1);
    return static_cast<int>(m_first.size()) - 1;
}

void MaxFlow::addEdge(int from, int to, double capacity) {
    m_edges.push_back({to, capacity});
    link(from, static_cast<int>(m_edges.size()) - 1);
    m_edges.push_back({from, 0});
    link(to, static_cast<int>(m_edges.size()) - 1);
}

void MaxFlow::link(int from, int edge) {
    int& last = m_last[static_cast<size_t>(from)];
    (last < 0 ? m_first[static_cast<size_t>(from)] : m_edges[static_cast<size_t>(last)].next) = edge;
    last = edge;
}

bool MaxFlow::levelGraph(int source, int sink) {
    std::fill(m_level.begin(), m_level.end(), -1);
    std::queue<int> queue;
    m_level[static_cast<size_t>(source)] = 0;
    queue.push(source);
    while (!queue.empty()) {
        const int v = queue.front();
        queue.pop();
        for (int e = m_first[static_cast<size_t>(v)]; e >= 0; e = m_edges[static_cast<size_t>(e)].next) {
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
    int& e = m_next[static_cast<size_t>(v)];
    for (; e >= 0; e = m_edges[static_cast<size_t>(e)].next) {
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
        m_next = m_first;
        while (const double pushed = push(source, sink, std::numeric_limits<double>::infinity())) flow += pushed;
    }
    return flow;
}

} // namespace sl
