// SPDX-License-Identifier: MIT
// Node input features of the Topoformer encoder (Gagrani et al. 2022, App. C.5). How hops are
// counted with many sources and sinks and how the Laplacian PE is built are our choices:
// docs/topoformer.md, 'Choices where the paper is silent'.
#include "models/encoder/encoder.h"
#include "models/encoder/maththreads.h"
#include "models/encoder/sparselaplacian.h"

#include "core/util/random.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <dlfcn.h>
#include <stdexcept>

namespace sl::models {

int FeatureSpec::rawWidth() const {
    return (memory ? 2 : 0) + (degrees ? 2 : 0) + (hops ? 4 : 0) + (durations ? 2 : 0) + std::max(0, machineTypes) +
           std::max(0, extraColumns);
}

int FeatureSpec::width() const { return rawWidth() + std::max(0, laplacianDims); }

std::string FeatureSpec::describe() const {
    std::string s;
    auto add = [&](const std::string& part) { s += (s.empty() ? "" : ",") + part; };
    if (memory) add("memory");
    if (degrees) add("degrees");
    if (hops) add("hops");
    if (durations) add("durations");
    if (machineTypes > 0) add("machine" + std::to_string(machineTypes));
    if (extraColumns > 0) add("extra" + std::to_string(extraColumns));
    if (laplacianDims > 0) add("pe" + std::to_string(laplacianDims));
    return s;
}

namespace {

/// Min and max hop counts from the sources (forward) or to the sinks (reverse).
void hopDistances(const Graph& g, bool toSinks, std::vector<double>& minHops, std::vector<double>& maxHops) {
    const int n = g.opCount();
    minHops.assign(static_cast<size_t>(n), 0);
    maxHops.assign(static_cast<size_t>(n), 0);
    const auto& topo = g.topologicalOrder();
    auto visit = [&](OpId v) {
        const auto from = toSinks ? g.successors(v) : g.predecessors(v);
        if (from.empty()) return;
        double lo = kInfinity, hi = 0;
        for (OpId u : from) {
            lo = std::min(lo, minHops[static_cast<size_t>(u)] + 1);
            hi = std::max(hi, maxHops[static_cast<size_t>(u)] + 1);
        }
        minHops[static_cast<size_t>(v)] = lo;
        maxHops[static_cast<size_t>(v)] = hi;
    };
    if (toSinks)
        for (auto it = topo.rbegin(); it != topo.rend(); ++it) visit(*it);
    else
        for (OpId v : topo) visit(v);
}

/// From this many ops on, only the eigenpairs needed are computed (LAPACK dsyevr, RANGE = 'I'):
/// at 1,000 ops 0.19 s instead of 0.5 s for the full spectrum. Below it the full eigh is kept, so
/// the features of the graph sizes the shipped models were trained on are unchanged (a degenerate
/// eigenspace, e.g. several components, may get another basis from another solver).
constexpr int kPartialEigenOps = 700;

using DsyevrFn = void (*)(const char*, const char*, const char*, const int*, double*, const int*, const double*,
                          const double*, const int*, const int*, const double*, int*, double*, double*, const int*,
                          int*, double*, const int*, int*, const int*, int*);

/// The `count` smallest eigenpairs' vectors of the symmetric [n x n] matrix `a`, as [n x count]
/// (column k = k-th smallest), or an undefined tensor if LAPACK's dsyevr is not in the process
/// (LibTorch links LAPACK; looked up at run time so that no link flag is needed) or fails.
at::Tensor smallestEigenvectors(const at::Tensor& a, int count) {
    static const auto dsyevr = reinterpret_cast<DsyevrFn>(dlsym(RTLD_DEFAULT, "dsyevr_"));
    if (!dsyevr) return {};
    const int n = static_cast<int>(a.size(0));
    // Column-major for LAPACK: a symmetric matrix is its own transpose.
    at::Tensor work = a.contiguous().clone();
    const int il = 1, iu = count;
    const double vl = 0, vu = 0, abstol = 0;
    int found = 0, info = 0, lwork = -1, liwork = -1, iworkQuery = 0;
    double workQuery = 0;
    std::vector<double> w(static_cast<size_t>(n)), z(static_cast<size_t>(n) * static_cast<size_t>(count));
    std::vector<int> support(2 * static_cast<size_t>(n));
    dsyevr("V", "I", "U", &n, work.data_ptr<double>(), &n, &vl, &vu, &il, &iu, &abstol, &found, w.data(), z.data(), &n,
           support.data(), &workQuery, &lwork, &iworkQuery, &liwork, &info);
    if (info != 0) return {};
    lwork = static_cast<int>(workQuery);
    liwork = iworkQuery;
    std::vector<double> scratch(static_cast<size_t>(std::max(lwork, 1)));
    std::vector<int> iscratch(static_cast<size_t>(std::max(liwork, 1)));
    dsyevr("V", "I", "U", &n, work.data_ptr<double>(), &n, &vl, &vu, &il, &iu, &abstol, &found, w.data(), z.data(), &n,
           support.data(), scratch.data(), &lwork, iscratch.data(), &liwork, &info);
    if (info != 0 || found != count) return {};
    // z is column-major [n x count]: as a row-major [count x n] tensor, transposed.
    return at::from_blob(z.data(), {count, n}, at::kDouble).t().contiguous();
}

/// The `count` smallest eigenvectors as columns of an [n x count] (or wider) double tensor, by
/// LAPACK on the dense Laplacian: the encoding of the graph sizes the models are trained on.
at::Tensor denseEigenvectors(const Graph& g, int count) {
    const int n = g.opCount();
    std::vector<double> degree(static_cast<size_t>(n), 0);
    for (OpId v = 0; v < n; ++v)
        degree[static_cast<size_t>(v)] = static_cast<double>(g.successors(v).size() + g.predecessors(v).size());
    at::Tensor lap = at::eye(n, at::kDouble);
    double* L = lap.data_ptr<double>();
    for (OpId u = 0; u < n; ++u)
        for (OpId v : g.successors(u)) {
            const double w = -1.0 / std::sqrt(degree[static_cast<size_t>(u)] * degree[static_cast<size_t>(v)]);
            L[static_cast<size_t>(u) * static_cast<size_t>(n) + static_cast<size_t>(v)] = w;
            L[static_cast<size_t>(v) * static_cast<size_t>(n) + static_cast<size_t>(u)] = w;
        }
    // One BLAS thread: the basis LAPACK picks in a degenerate eigenspace depends on the thread count.
    const MathThreads pin(1);
    at::Tensor vectors = n >= kPartialEigenOps ? smallestEigenvectors(lap, count) : at::Tensor();
    if (!vectors.defined()) vectors = std::get<1>(at::linalg_eigh(lap));
    return vectors.contiguous();
}

/// The same from the sparse solver (sparselaplacian.h): beyond dense reach.
at::Tensor sparseEigenvectors(const Graph& g, int count) {
    LaplacianEigenpairs pairs = smallestLaplacianEigenpairs(g, count);
    return at::from_blob(pairs.vectors.data(), {pairs.ops, pairs.count}, at::kDouble).clone();
}

/// Eigenvectors of the symmetric normalised Laplacian of the undirected graph, smallest
/// eigenvalues first, the trivial one skipped; [n x dims] row-major, zero-padded.
std::vector<float> laplacianEncoding(const Graph& g, int dims, std::uint64_t signSeed) {
    const int n = g.opCount();
    std::vector<float> pe(static_cast<size_t>(n) * static_cast<size_t>(dims), 0.0f);
    if (n < 2 || dims <= 0) return pe;
    const int take = std::min(dims, n - 1);
    at::Tensor vectors = n > kDenseEncoderOps ? sparseEigenvectors(g, take + 1) : denseEigenvectors(g, take + 1);
    const double* V = vectors.data_ptr<double>();   // column k = k-th eigenvector, ascending
    const auto cols = static_cast<size_t>(vectors.size(1));
    Rng rng(signSeed);
    for (int k = 0; k < take; ++k) {
        const int col = k + 1;
        double sign = 1;
        if (signSeed != 0) {
            sign = rng.uniform() < 0.5 ? -1 : 1;
        } else {
            double best = 0;
            for (int i = 0; i < n; ++i) {
                const double x = V[static_cast<size_t>(i) * cols + static_cast<size_t>(col)];
                if (std::abs(x) > std::abs(best) + 1e-12) best = x;
            }
            sign = best < 0 ? -1 : 1;
        }
        for (int i = 0; i < n; ++i)
            pe[static_cast<size_t>(i) * static_cast<size_t>(dims) + static_cast<size_t>(k)] =
                static_cast<float>(sign * V[static_cast<size_t>(i) * cols + static_cast<size_t>(col)]);
    }
    return pe;
}

} // namespace

namespace {

void checkSize(const Graph& g, int most, const char* why) {
    if (g.opCount() > most)
        throw std::invalid_argument("the neural methods handle at most " + std::to_string(most) + " ops (" + why +
                                    "); this graph has " + std::to_string(g.opCount()) +
                                    ". Use a list heuristic or BRKGA; for peak memory, exact-memory or mem-approx-dp "
                                    "(they prove or approach the optimum of steps of tens of thousands of ops).");
}

} // namespace

void checkEncoderSize(const Graph& g) { checkSize(g, kMaxEncoderOps, "their attention is dense in the op count"); }

void checkRelationEncoderSize(const Graph& g) {
    checkSize(g, kMaxRelationEncoderOps, "their attention takes time quadratic in the op count");
}

NodeFeatures buildFeatures(const Graph& g, const FeatureSpec& spec, const std::vector<float>* extra,
                           std::uint64_t peSignSeed) {
    if (!g.finalized()) throw std::invalid_argument("buildFeatures: the graph is not finalized");
    checkRelationEncoderSize(g);
    const int n = g.opCount();
    const int raw = spec.rawWidth();
    const int pe = std::max(0, spec.laplacianDims);
    if (spec.extraColumns > 0) {
        if (!extra || extra->size() != static_cast<size_t>(n) * static_cast<size_t>(spec.extraColumns))
            throw std::invalid_argument("buildFeatures: expected " + std::to_string(n) + " x " +
                                        std::to_string(spec.extraColumns) + " extra feature values");
    }
    std::vector<std::vector<double>> cols;   // normalised columns
    std::vector<bool> normalise;
    cols.reserve(static_cast<size_t>(raw));   // column() hands out references: no reallocation
    auto column = [&](bool norm) -> std::vector<double>& {
        cols.emplace_back(static_cast<size_t>(n), 0.0);
        normalise.push_back(norm);
        return cols.back();
    };
    if (spec.memory) {
        auto& m = column(true);
        auto& p = column(true);
        for (OpId v = 0; v < n; ++v) {
            m[static_cast<size_t>(v)] = g.outputBytes(v);
            p[static_cast<size_t>(v)] = g.op(v).paramBytes;
        }
    }
    if (spec.degrees) {
        auto& in = column(true);
        auto& out = column(true);
        for (OpId v = 0; v < n; ++v) {
            in[static_cast<size_t>(v)] = static_cast<double>(g.predecessors(v).size());
            out[static_cast<size_t>(v)] = static_cast<double>(g.successors(v).size());
        }
    }
    if (spec.hops) {
        std::vector<double> a, b, c, d;
        hopDistances(g, false, a, b);
        hopDistances(g, true, c, d);
        for (auto* src : {&a, &b, &c, &d}) column(true) = *src;
    }
    if (spec.durations) {
        auto& dur = column(true);
        auto& bottom = column(true);
        const auto& topo = g.topologicalOrder();
        for (OpId v = 0; v < n; ++v) dur[static_cast<size_t>(v)] = g.op(v).duration;
        for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
            double best = 0;
            for (OpId s : g.successors(*it)) best = std::max(best, bottom[static_cast<size_t>(s)]);
            bottom[static_cast<size_t>(*it)] = best + g.op(*it).duration;
        }
    }
    for (int t = 0; t < spec.machineTypes; ++t) {
        auto& c = column(false);
        for (OpId v = 0; v < n; ++v) {
            const int type = std::clamp(g.op(v).machineType, 0, spec.machineTypes - 1);
            c[static_cast<size_t>(v)] = type == t ? 1.0 : 0.0;
        }
    }
    for (int e = 0; e < spec.extraColumns; ++e) {
        auto& c = column(true);
        for (OpId v = 0; v < n; ++v)
            c[static_cast<size_t>(v)] =
                (*extra)[static_cast<size_t>(v) * static_cast<size_t>(spec.extraColumns) + static_cast<size_t>(e)];
    }
    NodeFeatures f;
    f.ops = n;
    f.width = raw + pe;
    f.values.assign(static_cast<size_t>(n) * static_cast<size_t>(f.width), 0.0f);
    for (size_t c = 0; c < cols.size(); ++c) {
        double scale = 1;
        if (normalise[c]) {
            double mx = 0;
            for (double x : cols[c]) mx = std::max(mx, std::abs(x));
            scale = mx > 0 && std::isfinite(mx) ? 1.0 / mx : 0.0;
        }
        for (int v = 0; v < n; ++v)
            f.values[static_cast<size_t>(v) * static_cast<size_t>(f.width) + c] =
                static_cast<float>(cols[c][static_cast<size_t>(v)] * scale);
    }
    if (pe > 0) {
        const std::vector<float> enc = laplacianEncoding(g, pe, peSignSeed);
        for (int v = 0; v < n; ++v)
            for (int k = 0; k < pe; ++k)
                f.values[static_cast<size_t>(v) * static_cast<size_t>(f.width) + static_cast<size_t>(raw + k)] =
                    enc[static_cast<size_t>(v) * static_cast<size_t>(pe) + static_cast<size_t>(k)];
    }
    return f;
}

} // namespace sl::models
