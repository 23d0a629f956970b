// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Random instance generators, all seeded and reproducible (std::mt19937_64; same seed, same graph).
/// What the papers leave open is decided in docs/costmodel.md, "Generated instances".
///  - layered:       Topoformer's layered graphs (Gagrani et al. 2022, App. A, Algorithms 1-3),
///                   memory sizes on tensors
///  - layered-typed: the same with machine types {0,1,2} and a (1, 1, 4)-capacity platform
///                   (Jeon et al. 2023, App. B and C.3)
///  - erdos-renyi, sbm: random DAGs (Jeon et al. 2023, App. C.3), machine types as layered-typed
///  - jobshop:       random N_j x N_m job-shop (Jeon et al. 2023, App. C.1);
///                   `nodes` = number of operations, rounded to jobs x machines
///  - the GFlowNet test families (Zhang et al. 2023, App. E.5): durations U(0, 1], one output
///    tensor per op of U(0, 1) MiB, four identical devices; the undirected families oriented by a
///    random permutation:
///      layered-gfn      the layered shape above (durations and sizes per op, not per-layer GMM)
///      erdos-renyi-gfn  p = 0.12 (erdos-renyi above is the priority sampler's p = 0.05, typed)
///      sbm-gfn          4 blocks, p_in = 0.4, p_out = 0.05
///      watts-strogatz   k = 8, p = 0.3 (networkx's construction)
///      barabasi-albert  m = 4 (networkx's construction: a star of m + 1 nodes, then degree-
///                       proportional attachment)
///  - nn:            neural-network-like graphs (networklike.cpp, docs/training-graphs.md): ONNX op
///                   types, float32 activation sizes (up to 50 MiB), weights as parameter bytes and
///                   roofline durations in microseconds, from one of six styles per graph (ResNet,
///                   Inception, DenseNet, Transformer, mixed CNN, CNN + transformer): conv/BN/ReLU
///                   chains, residual adds, concat branches, squeeze-excitation, attention and MLP
///                   blocks; exactly `nodes` ops (8 or more), one device

#include "core/graph/graph.h"
#include "core/platform/platform.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sl {

struct GeneratedInstance {
    std::shared_ptr<Graph> graph;   ///< finalized
    Platform platform;              ///< the machine the family is meant for
};

/// Families: generatorFamilies() (also "er", "ws", "ba"). Throws std::invalid_argument.
GeneratedInstance generateInstance(const std::string& family, int nodes, std::uint64_t seed);
std::vector<std::string> generatorFamilies();

GeneratedInstance generateLayered(int nodes, std::uint64_t seed);
GeneratedInstance generateLayeredTyped(int nodes, std::uint64_t seed);
GeneratedInstance generateErdosRenyi(int nodes, std::uint64_t seed);
GeneratedInstance generateSbm(int nodes, std::uint64_t seed);
GeneratedInstance generateLayeredUniform(int nodes, std::uint64_t seed);
GeneratedInstance generateErdosRenyiUniform(int nodes, std::uint64_t seed);
GeneratedInstance generateSbmUniform(int nodes, std::uint64_t seed);
GeneratedInstance generateWattsStrogatz(int nodes, std::uint64_t seed);
GeneratedInstance generateBarabasiAlbert(int nodes, std::uint64_t seed);
/// The "nn" family: a network-like graph of exactly `nodes` ops (8 to 100,000).
GeneratedInstance generateNetworkLike(int nodes, std::uint64_t seed);
/// The "branches" family: forward graphs of blocks of 2-8 expand-work-reduce branches, whose peak
/// memory depends on the order (branch by branch against interleaved; 2 to 100,000 ops).
GeneratedInstance generateBranches(int nodes, std::uint64_t seed);
/// `jobs` x `machines`, durations uniform in [1, 99] (Taillard).
GeneratedInstance generateJobShop(int jobs, int machines, std::uint64_t seed);
/// STG-like task graphs ("sameprob": one edge probability in [0.05, 0.2] per graph, whole
/// durations 1-10, no data), on 4 identical processors.
GeneratedInstance generateStgLike(int tasks, std::uint64_t seed);

} // namespace sl
