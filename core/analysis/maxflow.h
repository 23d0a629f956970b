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
    };
    bool levelGraph(int source, int sink);
    double push(int v, int sink, double limit);

    std::vector<Edge> m_edges;                 ///< edge 2k and its reverse 2k + 1
    std::vector<std::vector<int>> m_out;       ///< per node, its edges' indices
    std::vector<int> m_level, m_next;
};

} // namespace sl
