// SPDX-License-Identifier: MIT
#include "models/gflownet/datasets.h"

#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"
#include "core/util/random.h"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace sl::gfn {

namespace {

std::shared_ptr<Graph> erdosRenyi(int n, Rng& rng) {
    auto g = std::make_shared<Graph>();
    for (int i = 0; i < n; ++i) g->addOp({.name = "n" + std::to_string(i)});
    std::vector<int> rank(static_cast<size_t>(n));
    std::iota(rank.begin(), rank.end(), 0);
    rng.shuffle(rank);   // each edge goes from the lower to the higher rank: a DAG
    const double p = std::min(1.0, 6.0 / std::max(n, 1));
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            if (rng.uniform() < p) {
                const bool forward = rank[static_cast<size_t>(a)] < rank[static_cast<size_t>(b)];
                g->addEdge(forward ? a : b, forward ? b : a);
            }
    return g;
}

/// The training step (forward, loss, gradients, Adam updates) of a network-like graph of about
/// `nodes` ops in all.
std::shared_ptr<Graph> networkTrainingStep(int nodes, std::uint64_t seed) {
    const Graph forward = *generateInstance("nn", std::max(8, nodes * 2 / 5), seed).graph;
    return std::make_shared<Graph>(makeTrainingGraph(forward, {.rule = UpdateRule::Adam}));
}

} // namespace

Problem trainingProblem(const std::string& family, int nodes, int devices, std::uint64_t seed) {
    Rng rng(deriveSeed(seed, 0x6F1));
    const bool network = family == "nn" || family == "nn-train";   // their own durations: shaped like real ones
    std::shared_ptr<Graph> g = family == "er"         ? erdosRenyi(nodes, rng)
                               : family == "nn-train" ? networkTrainingStep(nodes, seed)
                                                      : std::make_shared<Graph>(*generateInstance(family, nodes, seed).graph);
    double longest = 0;
    for (const Op& op : g->ops()) longest = std::max(longest, op.duration);
    for (OpId v = 0; v < g->opCount(); ++v) {
        Op& op = g->mutableOp(v);
        op.machineType = 0;
        op.deviceDurations.clear();
        op.duration = network && longest > 0 ? std::max(op.duration / longest, 1e-3) : std::max(rng.uniform(), 1e-3);
    }
    g->finalize();
    Problem p;
    p.graph = g;
    p.platform = Platform::identical(devices);
    return p;
}

Problem fileProblem(const std::string& path, int devices) {
    const LoadedGraph loaded = loadGraph(path);
    for (const Op& op : loaded.graph->ops())
        if (op.machineType != 0 || !op.deviceDurations.empty())
            throw std::invalid_argument(path + ": the GFlowNet trains on identical devices; op '" + op.name +
                                        "' has a machine type or per-device durations");
    Problem p;
    p.graph = loaded.graph;
    p.platform = Platform::identical(devices);
    return p;
}

} // namespace sl::gfn
