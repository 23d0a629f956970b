// SPDX-License-Identifier: MIT
#include "models/gflownet/datasets.h"

#include "core/generators/generators.h"
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
    rng.shuffle(rank);   // each edge goes from the lower to the higher rank: a DAG (spec §7.2 [R])
    const double p = std::min(1.0, 6.0 / std::max(n, 1));
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            if (rng.uniform() < p) {
                const bool forward = rank[static_cast<size_t>(a)] < rank[static_cast<size_t>(b)];
                g->addEdge(forward ? a : b, forward ? b : a);
            }
    return g;
}

} // namespace

Problem trainingProblem(const std::string& family, int nodes, int devices, std::uint64_t seed) {
    Rng rng(deriveSeed(seed, 0x6F1));
    std::shared_ptr<Graph> g =
        family == "er" ? erdosRenyi(nodes, rng) : std::make_shared<Graph>(*generateInstance(family, nodes, seed).graph);
    for (OpId v = 0; v < g->opCount(); ++v) {
        Op& op = g->mutableOp(v);
        op.machineType = 0;
        op.deviceDurations.clear();
        op.duration = std::max(rng.uniform(), 1e-3);
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

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    if (out.empty()) throw std::invalid_argument("empty list '" + text + "'");
    return out;
}

std::pair<int, int> parseRange(const std::string& text) {
    try {
        const auto dash = text.find('-');
        size_t used = 0;
        const int lo = std::stoi(text.substr(0, dash), &used);
        const int hi = dash == std::string::npos ? lo : std::stoi(text.substr(dash + 1));
        if (lo < 1 || hi < lo) throw std::invalid_argument("order");
        return {lo, hi};
    } catch (const std::exception&) {
        throw std::invalid_argument("expected N or LO-HI with 1 <= LO <= HI, got '" + text + "'");
    }
}

} // namespace sl::gfn
