// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Maximum flow (Dinic's algorithm) on a small network with real capacities: the minimum cut of
/// core/analysis/ordercut.h. Capacities may be kInfinity (an edge no cut may cross).

#include <vector>

namespace sl {

class MaxFlow {
public:
    explicit MaxFlow(int nodes);
    /// A new node's index.
    int addNode();
    void addEdge(int from, int to, double capacity);
    /// The maximum flow from `source` to `sink` (= the capacity of a minimum cut).
    double run(int source, int sink);

private:
    struct Edge {
        int to;
        double capacity;
        int next = -1;   ///< the next edge out of the same node, in the order they were added
    };
    bool levelGraph(int source, int sink);
    double push(int v, int sink, double limit);

    void link(int from, int edge);

    std::vector<Edge> m_edges;                 ///< edge 2k and its reverse 2k + 1
    /// Per node, its first and last edge (lists through Edge::next: no allocation per node, the
    /// networks are built once per bound and thrown away).
    std::vector<int> m_first, m_last;
    std::vector<int> m_level, m_next;   ///< m_next: per node, the edge its search resumes at
};

} // namespace sl
