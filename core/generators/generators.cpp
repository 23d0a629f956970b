// SPDX-License-Identifier: MIT
#include "core/generators/generators.h"

#include "core/graph/jobshopnames.h"
#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace sl {

namespace {

constexpr double kGeneratorMiB = 1024.0 * 1024.0;

/// Topoformer's GMM "projected on to the positive reals" (Gagrani et al. 2022, App. A, eq. 16) by
/// max(x, 0) (docs/costmodel.md, "Generated instances").
double sampleGmm(Rng& rng) {
    static constexpr double w[] = {0.3, 0.3, 0.3, 0.1}, mu[] = {0.5, 1, 3, 5}, sd[] = {0.5, 1, 1, 1};
    double u = rng.uniform();
    int k = 0;
    while (k < 3 && u >= w[k]) u -= w[k++];
    return std::max(0.0, mu[k] + sd[k] * rng.normal());
}

long roundHalfAway(double x) { return std::lround(x); }

/// The layer structure and edges of Topoformer's layered graphs (Gagrani et al. 2022, App. A:
/// eqs. 11-14, Algorithms 1-3). Node ids are in creation order (a topological order); returns the
/// layer of each node and the set of edges.
struct LayeredShape {
    std::vector<std::vector<int>> layers;
    std::vector<std::pair<int, int>> edges;   ///< sorted and distinct, as a std::set would hold them (4M edges at 100k ops)
};

void sortUnique(std::vector<std::pair<int, int>>& edges) {
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
}

LayeredShape layeredShape(int n, Rng& rng) {
    constexpr double sigmaN = 0.75, rhoE = 0.2, rhoS = 0.14;
    LayeredShape s;
    const double width = rng.uniform(0.25, 0.5);
    const double target = std::ceil(std::sqrt(n * (1 / width - 1)));
    const double mean = n / target;
    const auto lo = static_cast<std::int64_t>(std::ceil(mean * (1 - sigmaN)));
    const auto hi = std::max(lo, static_cast<std::int64_t>(std::floor(mean * (1 + sigmaN))));
    int made = 0;
    while (made < n) {
        const int count = static_cast<int>(std::min<std::int64_t>(std::max<std::int64_t>(rng.integer(lo, hi), 1), n - made));
        std::vector<int> layer(static_cast<size_t>(count));
        for (int i = 0; i < count; ++i) layer[static_cast<size_t>(i)] = made + i;
        made += count;
        s.layers.push_back(std::move(layer));
    }
    // Edges between adjacent layers (Algorithm 2, eq. 13).
    for (size_t l = 0; l + 1 < s.layers.size(); ++l) {
        const auto& a = s.layers[l];
        const auto& b = s.layers[l + 1];
        const int n1 = static_cast<int>(a.size()), n2 = static_cast<int>(b.size());
        const long budget = roundHalfAway(n1 * n2 * rhoE + (1 - rhoE) * std::max(n1, n2));
        const bool aSpreads = n1 >= n2;
        const auto& src = aSpreads ? a : b;
        const auto& dst = aSpreads ? b : a;
        const int ns = static_cast<int>(src.size()), nt = static_cast<int>(dst.size());
        std::vector<int> c(static_cast<size_t>(ns), 0);
        // counts stay within one of each other: the least-given sources are those not yet given at
        // this level, kept in index order (the same draws as scanning for the minimum each time,
        // without the O(sources) scan per edge that made 100k-op graphs take seconds)
        std::vector<int> minimal;
        for (long given = 0; given < budget; ++given) {
            if (minimal.empty())
                for (int i = 0; i < ns; ++i) minimal.push_back(i);
            const auto pick = static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(minimal.size()) - 1));
            ++c[static_cast<size_t>(minimal[pick])];
            minimal.erase(minimal.begin() + static_cast<std::ptrdiff_t>(pick));
        }
        for (int i = 0; i < ns; ++i) {
            const int cn = std::min(c[static_cast<size_t>(i)], nt);
            const int centre = ns == 1 ? 0 : static_cast<int>(roundHalfAway(double(i) * (nt - 1) / (ns - 1)));
            int first = centre - (cn - 1) / 2;
            first = std::clamp(first, 0, nt - cn);
            for (int j = first; j < first + cn; ++j) {
                const int x = src[static_cast<size_t>(i)], y = dst[static_cast<size_t>(j)];
                s.edges.push_back(aSpreads ? std::pair{x, y} : std::pair{y, x});   // always layer l -> l+1
            }
        }
    }
    sortUnique(s.edges);
    // Skip connections (Algorithm 3, eq. 14).
    const int L = static_cast<int>(s.layers.size());
    if (L >= 3) {
        const auto skips = static_cast<long>(std::ceil(double(s.edges.size()) * rhoS / (1 - rhoS)));
        for (long k = 0; k < skips; ++k) {
            const auto ls = static_cast<size_t>(rng.integer(0, L - 3));
            const auto lt = static_cast<size_t>(rng.integer(static_cast<std::int64_t>(ls) + 2, L - 1));
            const double xs = rng.uniform(), y = rng.uniform();
            const double xt = std::min(xs + 0.2 * y, 0.999);
            const auto& a = s.layers[ls];
            const auto& b = s.layers[lt];
            s.edges.emplace_back(a[static_cast<size_t>(xs * double(a.size()))], b[static_cast<size_t>(xt * double(b.size()))]);
        }
    }
    sortUnique(s.edges);
    return s;
}

/// One output tensor per op, read by all its successors (sinks keep an unread output).
void addOutputTensors(Graph& g, const std::vector<std::vector<int>>& succ, const std::vector<double>& bytes) {
    for (OpId v = 0; v < g.opCount(); ++v) {
        const TensorId t = g.addTensor(g.op(v).name + ":0", v, bytes[static_cast<size_t>(v)]);
        for (int s : succ[static_cast<size_t>(v)]) g.addConsumer(t, s);
    }
}

/// The (1, 1, 4) platform of Jeon et al. 2023, App. B: one device of type 0, one of type 1 and
/// four unit-capacity devices of type 2 (equivalent to one of capacity 4 when demands are 1, but
/// shows one Gantt lane per thread).
Platform typedPlatform() {
    Platform p;
    p.devices.push_back({"type0", 0, kInfinity, 1});
    p.devices.push_back({"type1", 1, kInfinity, 1});
    for (int i = 0; i < 4; ++i) p.devices.push_back({"type2." + std::to_string(i), 2, kInfinity, 1});
    return p;
}

int sampleMachineType(Rng& rng) {
    const double u = rng.uniform();
    return u < 1.0 / 6 ? 0 : (u < 2.0 / 6 ? 1 : 2);
}

/// Durations (Jeon et al. 2023, App. C.3, eq. 17), memory and machine types (eq. 18) per node.
GeneratedInstance typedFromEdges(int n, const std::vector<std::pair<int, int>>& edges, Rng& rng,
                                 const std::string& typePrefix) {
    auto g = std::make_shared<Graph>();
    std::vector<double> bytes(static_cast<size_t>(n));
    for (int v = 0; v < n; ++v) {
        const double m = sampleGmm(rng);
        const int type = sampleMachineType(rng);
        g->addOp({.name = "n" + std::to_string(v), .type = typePrefix + std::to_string(type),
                  .duration = double(std::lround(100 * m) + 1), .machineType = type});
        bytes[static_cast<size_t>(v)] = std::round(m * kGeneratorMiB);
    }
    std::vector<std::vector<int>> succ(static_cast<size_t>(n));
    for (auto [a, b] : edges) succ[static_cast<size_t>(a)].push_back(b);
    addOutputTensors(*g, succ, bytes);
    g->finalize();
    return {g, typedPlatform()};
}

void checkSize(int nodes, int lo, int hi) {
    if (nodes < lo || nodes > hi)
        throw std::invalid_argument("--nodes must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                                    ", got " + std::to_string(nodes));
}

/// Random DAG from an undirected edge list: orient by a random permutation (the papers leave the
/// procedure open: docs/costmodel.md, "Generated instances").
std::vector<std::pair<int, int>> orientRandomly(int n, std::vector<std::pair<int, int>> undirected, Rng& rng) {
    std::vector<int> rank(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) rank[static_cast<size_t>(i)] = i;
    rng.shuffle(rank);
    for (auto& [a, b] : undirected)
        if (rank[static_cast<size_t>(a)] > rank[static_cast<size_t>(b)]) std::swap(a, b);
    return undirected;
}

/// The GFlowNet test families (Zhang et al. 2023, App. E.5): durations U(0, 1] (kept positive),
/// one output tensor per op of U(0, 1) MiB (the whole-byte stand-in for the target models'
/// mem ~ U(0, 1)), four identical devices (docs/costmodel.md, "Generated instances").
GeneratedInstance uniformFromEdges(int n, const std::vector<std::pair<int, int>>& edges, Rng& rng) {
    auto g = std::make_shared<Graph>();
    std::vector<double> bytes(static_cast<size_t>(n));
    for (int v = 0; v < n; ++v) {
        g->addOp({.name = "n" + std::to_string(v), .duration = 1 - rng.uniform()});
        bytes[static_cast<size_t>(v)] = std::round(rng.uniform() * kGeneratorMiB);
    }
    std::vector<std::vector<int>> succ(static_cast<size_t>(n));
    for (auto [a, b] : edges) succ[static_cast<size_t>(a)].push_back(b);
    addOutputTensors(*g, succ, bytes);
    g->finalize();
    return {g, Platform::identical(4)};
}

/// Undirected simple graph as adjacency sets, listed as sorted pairs (a < b) for a stable order.
using Adjacency = std::vector<std::set<int>>;
std::vector<std::pair<int, int>> edgeList(const Adjacency& adj) {
    std::vector<std::pair<int, int>> e;
    for (int a = 0; a < static_cast<int>(adj.size()); ++a)
        for (int b : adj[static_cast<size_t>(a)])
            if (a < b) e.push_back({a, b});
    return e;
}

Adjacency completeGraph(int n) {
    Adjacency adj(static_cast<size_t>(n));
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            if (a != b) adj[static_cast<size_t>(a)].insert(b);
    return adj;
}

/// Watts-Strogatz as networkx builds it: a ring where each node links to its k/2 nearest
/// neighbours on each side, then each ring edge (u, u+j) is rewired to (u, w) with probability p,
/// w uniform among the nodes u is not linked to. n <= k: the complete graph.
Adjacency wattsStrogatz(int n, int k, double p, Rng& rng) {
    if (n <= k) return completeGraph(n);
    Adjacency adj(static_cast<size_t>(n));
    auto link = [&](int a, int b) {
        adj[static_cast<size_t>(a)].insert(b);
        adj[static_cast<size_t>(b)].insert(a);
    };
    for (int j = 1; j <= k / 2; ++j)
        for (int u = 0; u < n; ++u) link(u, (u + j) % n);
    for (int j = 1; j <= k / 2; ++j)
        for (int u = 0; u < n; ++u) {
            if (rng.uniform() >= p) continue;
            auto& mine = adj[static_cast<size_t>(u)];
            if (static_cast<int>(mine.size()) >= n - 1) continue;   // linked to everyone: nothing to rewire to
            int w = static_cast<int>(rng.integer(0, n - 1));
            while (w == u || mine.count(w)) w = static_cast<int>(rng.integer(0, n - 1));
            const int v = (u + j) % n;
            mine.erase(v);
            adj[static_cast<size_t>(v)].erase(u);
            link(u, w);
        }
    return adj;
}

/// Barabási-Albert as networkx builds it: a star of m + 1 nodes, then each new node links to m
/// distinct nodes drawn with probability proportional to their degree. n <= m + 1: a star of n.
Adjacency barabasiAlbert(int n, int m, Rng& rng) {
    Adjacency adj(static_cast<size_t>(n));
    std::vector<int> byDegree;   // each node once per incident edge
    auto link = [&](int a, int b) {
        adj[static_cast<size_t>(a)].insert(b);
        adj[static_cast<size_t>(b)].insert(a);
        byDegree.push_back(a);
        byDegree.push_back(b);
    };
    const int star = std::min(n, m + 1);
    for (int v = 1; v < star; ++v) link(0, v);
    for (int v = star; v < n; ++v) {
        std::set<int> targets;
        while (static_cast<int>(targets.size()) < m)
            targets.insert(byDegree[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(byDegree.size()) - 1))]);
        for (int t : targets) link(v, t);
    }
    return adj;
}

} // namespace

GeneratedInstance generateWattsStrogatz(int nodes, std::uint64_t seed) {
    checkSize(nodes, 1, 20'000);
    Rng rng(seed);
    const auto undirected = edgeList(wattsStrogatz(nodes, 8, 0.3, rng));
    return uniformFromEdges(nodes, orientRandomly(nodes, undirected, rng), rng);
}

GeneratedInstance generateBarabasiAlbert(int nodes, std::uint64_t seed) {
    checkSize(nodes, 1, 20'000);
    Rng rng(seed);
    const auto undirected = edgeList(barabasiAlbert(nodes, 4, rng));
    return uniformFromEdges(nodes, orientRandomly(nodes, undirected, rng), rng);
}

GeneratedInstance generateErdosRenyiUniform(int nodes, std::uint64_t seed) {
    checkSize(nodes, 1, 20'000);
    Rng rng(seed);
    std::vector<std::pair<int, int>> e;
    for (int a = 0; a < nodes; ++a)
        for (int b = a + 1; b < nodes; ++b)
            if (rng.uniform() < 0.12) e.push_back({a, b});
    return uniformFromEdges(nodes, orientRandomly(nodes, std::move(e), rng), rng);
}

GeneratedInstance generateStgLike(int tasks, std::uint64_t seed) {
    checkSize(tasks, 1, 100'000);
    Rng rng(seed);
    // Kasahara and Narita's "sameprob" graphs of the Standard Task Graph Set: each pair i < j an
    // edge with one probability per graph (0.05-0.2: 60-250 edges at 50 tasks, like the set's),
    // whole durations 1-10, no data, identical processors.
    const double p = 0.05 + 0.15 * rng.uniform();
    auto g = std::make_shared<Graph>();
    for (int v = 0; v < tasks; ++v)
        g->addOp({.name = std::to_string(v + 1), .duration = static_cast<double>(rng.integer(1, 10))});
    std::vector<std::vector<int>> succ(static_cast<size_t>(tasks));
    for (int a = 0; a < tasks; ++a)
        for (int b = a + 1; b < tasks; ++b)
            if (rng.uniform() < p) succ[static_cast<size_t>(a)].push_back(b);
    addOutputTensors(*g, succ, std::vector<double>(static_cast<size_t>(tasks), 0.0));
    g->finalize();
    return {g, Platform::identical(4)};
}

GeneratedInstance generateSbmUniform(int nodes, std::uint64_t seed) {
    checkSize(nodes, 1, 20'000);
    Rng rng(seed);
    std::vector<std::pair<int, int>> e;
    auto block = [nodes](int v) { return v * 4 / nodes; };   // four near-equal blocks (13, 13, 12, 12 at 50)
    for (int a = 0; a < nodes; ++a)
        for (int b = a + 1; b < nodes; ++b)
            if (rng.uniform() < (block(a) == block(b) ? 0.4 : 0.05)) e.push_back({a, b});
    return uniformFromEdges(nodes, orientRandomly(nodes, std::move(e), rng), rng);
}

GeneratedInstance generateLayeredUniform(int nodes, std::uint64_t seed) {
    checkSize(nodes, 1, 1'000'000);
    Rng rng(seed);
    const LayeredShape shape = layeredShape(nodes, rng);
    return uniformFromEdges(nodes, {shape.edges.begin(), shape.edges.end()}, rng);
}

GeneratedInstance generateLayered(int nodes, std::uint64_t seed) {
    checkSize(nodes, 1, 1'000'000);
    Rng rng(seed);
    LayeredShape shape = layeredShape(nodes, rng);
    auto g = std::make_shared<Graph>();
    std::vector<double> bytes(static_cast<size_t>(nodes));
    // One output size and one parameter size per layer (Gagrani et al., App. A); durations as
    // Jeon et al.'s eq. 17 (App. C.3).
    for (size_t l = 0; l < shape.layers.size(); ++l) {
        const double m = sampleGmm(rng), p = sampleGmm(rng);
        for (int v : shape.layers[l]) {
            g->addOp({.name = "n" + std::to_string(v), .type = "L" + std::to_string(l),
                      .duration = double(std::lround(100 * m) + 1), .paramBytes = std::round(p * kGeneratorMiB)});
            bytes[static_cast<size_t>(v)] = std::round(m * kGeneratorMiB);
        }
    }
    std::vector<std::vector<int>> succ(static_cast<size_t>(nodes));
    for (auto [a, b] : shape.edges) succ[static_cast<size_t>(a)].push_back(b);
    addOutputTensors(*g, succ, bytes);
    g->finalize();
    return {g, Platform::identical(1)};
}

GeneratedInstance generateLayeredTyped(int nodes, std::uint64_t seed) {
    checkSize(nodes, 1, 1'000'000);
    Rng rng(seed);
    LayeredShape shape = layeredShape(nodes, rng);
    return typedFromEdges(nodes, {shape.edges.begin(), shape.edges.end()}, rng, "type");
}

GeneratedInstance generateErdosRenyi(int nodes, std::uint64_t seed) {
    checkSize(nodes, 1, 20'000);
    Rng rng(seed);
    std::vector<std::pair<int, int>> e;
    for (int a = 0; a < nodes; ++a)
        for (int b = a + 1; b < nodes; ++b)
            if (rng.uniform() < 0.05) e.push_back({a, b});
    return typedFromEdges(nodes, orientRandomly(nodes, std::move(e), rng), rng, "type");
}

GeneratedInstance generateSbm(int nodes, std::uint64_t seed) {
    checkSize(nodes, 1, 20'000);
    Rng rng(seed);
    std::vector<std::pair<int, int>> e;
    auto block = [nodes](int v) { return v * 4 / nodes; };   // four equal communities
    for (int a = 0; a < nodes; ++a)
        for (int b = a + 1; b < nodes; ++b)
            if (rng.uniform() < (block(a) == block(b) ? 0.3 : 0.001)) e.push_back({a, b});
    return typedFromEdges(nodes, orientRandomly(nodes, std::move(e), rng), rng, "type");
}

GeneratedInstance generateJobShop(int jobs, int machines, std::uint64_t seed) {
    if (jobs < 1 || machines < 1 || jobs * static_cast<long>(machines) > 1'000'000)
        throw std::invalid_argument("job-shop size must be at least 1x1 and at most 1e6 operations");
    Rng rng(seed);
    auto g = std::make_shared<Graph>();
    Platform p;
    for (int m = 0; m < machines; ++m) p.devices.push_back({"m" + std::to_string(m), m, kInfinity, 1});
    std::vector<int> route(static_cast<size_t>(machines));
    for (int j = 0; j < jobs; ++j) {
        for (int m = 0; m < machines; ++m) route[static_cast<size_t>(m)] = m;
        rng.shuffle(route);
        OpId prev = kNoOp;
        for (int k = 0; k < machines; ++k) {
            const int m = route[static_cast<size_t>(k)];
            const OpId v = g->addOp({.name = jobShopOpName(j, k),
                                     .type = "m" + std::to_string(m), .duration = double(rng.integer(1, 99)),
                                     .machineType = m});
            if (prev != kNoOp) g->addEdge(prev, v, 0);
            prev = v;
        }
    }
    g->finalize();
    return {g, p};
}

std::vector<std::string> generatorFamilies() {
    return {"layered", "layered-typed",  "erdos-renyi",     "sbm", "jobshop",  "layered-gfn", "erdos-renyi-gfn",
            "sbm-gfn", "watts-strogatz", "barabasi-albert", "nn",  "branches", "stg"};
}

GeneratedInstance generateInstance(const std::string& family, int nodes, std::uint64_t seed) {
    if (family == "layered") return generateLayered(nodes, seed);
    if (family == "layered-typed") return generateLayeredTyped(nodes, seed);
    if (family == "erdos-renyi" || family == "er") return generateErdosRenyi(nodes, seed);
    if (family == "sbm") return generateSbm(nodes, seed);
    if (family == "layered-gfn") return generateLayeredUniform(nodes, seed);
    if (family == "erdos-renyi-gfn") return generateErdosRenyiUniform(nodes, seed);
    if (family == "sbm-gfn") return generateSbmUniform(nodes, seed);
    if (family == "watts-strogatz" || family == "ws") return generateWattsStrogatz(nodes, seed);
    if (family == "barabasi-albert" || family == "ba") return generateBarabasiAlbert(nodes, seed);
    if (family == "nn") return generateNetworkLike(nodes, seed);
    if (family == "branches") return generateBranches(nodes, seed);
    if (family == "stg") return generateStgLike(nodes, seed);
    if (family == "jobshop") {
        checkSize(nodes, 1, 1'000'000);
        const int machines = nodes >= 20 ? 10 : std::max(1, nodes / 2);   // 25x10 for 250 nodes
        return generateJobShop(std::max(1, (nodes + machines / 2) / machines), machines, seed);
    }
    throw std::invalid_argument("unknown graph family '" + family +
                                "' (layered, layered-typed, erdos-renyi, sbm, jobshop, layered-gfn,\n"
                                "erdos-renyi-gfn, sbm-gfn, watts-strogatz, barabasi-albert, nn, branches, stg)");
}

} // namespace sl
