// SPDX-License-Identifier: MIT
// Smallest eigenpairs of the normalised Laplacian by block inverse subspace iteration on a sparse
// LDL^T factorisation (Eigen).
#include "models/encoder/sparselaplacian.h"

#include "core/util/random.h"

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace sl::models {

namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

/// The shift that makes L + sigma I positive definite. Far below any non-zero eigenvalue of the
/// graphs the network reads (a 20,000-op path has its first at about 2.5e-8), so the wanted
/// eigenvalues stay well apart after the inversion; its condition (about 2e10) is harmless in
/// double precision, where Rayleigh-Ritz on L itself fixes what the solves blur.
constexpr double kShift = 1e-10;
constexpr int kExtraVectors = 16;   ///< the block is count + 16 wide: a guard band that speeds convergence
constexpr int kMaxIterations = 400;
constexpr double kTolerance = 1e-9;   ///< residual norm of a unit eigenvector
constexpr std::uint64_t kStartSeed = 0x5eed1a91ac1a4ULL;

/// I - D^{-1/2} A D^{-1/2} as the dense encoding builds it: degrees count every edge end, and
/// each adjacent pair has one entry whatever the number of edges joining it.
SparseMatrix normalisedLaplacian(const Graph& g) {
    const int n = g.opCount();
    std::vector<double> degree(static_cast<std::size_t>(n));
    for (OpId v = 0; v < n; ++v)
        degree[static_cast<std::size_t>(v)] = static_cast<double>(g.successors(v).size() + g.predecessors(v).size());
    std::vector<std::pair<OpId, OpId>> pairs;
    for (OpId u = 0; u < n; ++u)
        for (OpId v : g.successors(u)) pairs.emplace_back(std::min(u, v), std::max(u, v));
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(static_cast<std::size_t>(n) + 2 * pairs.size());
    for (OpId v = 0; v < n; ++v) entries.emplace_back(v, v, 1.0);
    for (const auto& [u, v] : pairs) {
        const double w = -1.0 / std::sqrt(degree[static_cast<std::size_t>(u)] * degree[static_cast<std::size_t>(v)]);
        entries.emplace_back(u, v, w);
        entries.emplace_back(v, u, w);
    }
    SparseMatrix lap(n, n);
    lap.setFromTriplets(entries.begin(), entries.end());
    return lap;
}

Eigen::MatrixXd startBlock(int n, int width) {
    Rng rng(kStartSeed);
    Eigen::MatrixXd x(n, width);
    for (int c = 0; c < width; ++c)
        for (int r = 0; r < n; ++r) x(r, c) = rng.uniform() - 0.5;
    return x;
}

} // namespace

LaplacianEigenpairs smallestLaplacianEigenpairs(const Graph& g, int count) {
    const int n = g.opCount();
    if (count < 1 || count > n) throw std::invalid_argument("smallestLaplacianEigenpairs: count must be in 1..ops");
    const SparseMatrix lap = normalisedLaplacian(g);
    SparseMatrix shifted = lap;
    for (int v = 0; v < n; ++v) shifted.coeffRef(v, v) += kShift;
    const Eigen::SimplicialLDLT<SparseMatrix> factor(shifted);
    if (factor.info() != Eigen::Success) throw std::runtime_error("the Laplacian of this graph could not be factorised");

    const int width = std::min(n, count + kExtraVectors);
    Eigen::MatrixXd x = startBlock(n, width);
    Eigen::VectorXd theta;
    LaplacianEigenpairs out;
    out.ops = n;
    out.count = count;
    for (out.iterations = 1; out.iterations <= kMaxIterations; ++out.iterations) {
        // One step of inverse iteration on the block, then Rayleigh-Ritz on L in its span.
        const Eigen::MatrixXd y = factor.solve(x);
        const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(y).householderQ() * Eigen::MatrixXd::Identity(n, width);
        const Eigen::MatrixXd lq = lap * q;
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> ritz(q.transpose() * lq);
        x = q * ritz.eigenvectors();
        theta = ritz.eigenvalues();
        const Eigen::MatrixXd residual = lq * ritz.eigenvectors().leftCols(count) - x.leftCols(count) * theta.head(count).asDiagonal();
        out.worstResidual = residual.colwise().norm().maxCoeff();
        if (out.worstResidual <= kTolerance) break;
    }
    out.iterations = std::min(out.iterations, kMaxIterations);
    out.values.assign(theta.data(), theta.data() + count);
    out.vectors.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(count));
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < count; ++c)
            out.vectors[static_cast<std::size_t>(r) * static_cast<std::size_t>(count) + static_cast<std::size_t>(c)] = x(r, c);
    return out;
}

} // namespace sl::models
