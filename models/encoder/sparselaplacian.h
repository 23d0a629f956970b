// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The smallest eigenpairs of a graph's symmetric normalised Laplacian without a dense matrix: the
/// positional encoding of graphs beyond dense reach (features.cpp). A dense eigensolve is O(N^3)
/// time and O(N^2) memory (42 % of the network's time at 4,268 ops); this one is a sparse LDL^T
/// factorisation of L + sigma I (Eigen, fill-reducing ordering) and block inverse subspace
/// iteration with Rayleigh-Ritz: each iteration costs a few sparse solves per vector. A block
/// method, not Lanczos, because training steps are full of repeated eigenvalues (isomorphic
/// parameter updates) that a single-vector Krylov method cannot resolve. Plain C++, deterministic:
/// a fixed start block and no BLAS, so the same graph gives the same vectors on any CPU.

#include "core/graph/graph.h"

#include <vector>

namespace sl::models {

struct LaplacianEigenpairs {
    int ops = 0;
    int count = 0;
    std::vector<double> values;    ///< ascending, `count`
    std::vector<double> vectors;   ///< row-major [ops x count]: column k is the k-th eigenvector (unit norm)
    int iterations = 0;
    double worstResidual = 0;      ///< max_k ||L x_k - lambda_k x_k||
};

/// The `count` smallest eigenpairs of I - D^{-1/2} A D^{-1/2} of the undirected graph (an op with
/// no edge has a diagonal 1, as in the dense encoding). count <= ops.
LaplacianEigenpairs smallestLaplacianEigenpairs(const Graph& g, int count);

} // namespace sl::models
