// SPDX-License-Identifier: MIT
// The encoder beyond dense reach: attention read from the compact relations, the sparse Laplacian
// eigensolver, and Topoformer on a training step above kDenseEncoderOps.
#include "common/testmain.h"
#include "models/encoder/encoder.h"
#include "models/encoder/maththreads.h"
#include "models/encoder/relationattention.h"
#include "models/encoder/relations.h"
#include "models/encoder/sparselaplacian.h"
#include "models/topoformer/decoding.h"
#include "models/topoformer/model.h"
#include "models/topoformer/optimizer.h"

#include "core/costmodel/stepmemory.h"
#include "core/costmodel/validator.h"
#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"

#include <ATen/ATen.h>

#include <QTest>

#include <cmath>

using namespace sl;
using namespace sl::models;

namespace {

/// A random DAG with every kind of pair: redundant edges, long paths, isolated ops.
std::shared_ptr<Graph> mixedDag(int n, std::uint64_t seed) {
    Rng rng(seed);
    auto g = std::make_shared<Graph>();
    for (int i = 0; i < n; ++i) g->addOp({.name = "op" + std::to_string(i), .duration = 1});
    for (OpId v = 2; v < n; ++v) {
        if (v % 17 == 0) continue;   // some ops without predecessors; op 0 stays isolated
        const auto first = static_cast<OpId>(rng.integer(std::max(1, v - 12), v - 1));
        g->addEdge(first, v, 1);
        if (rng.uniform() < 0.6) {
            const auto second = static_cast<OpId>(rng.integer(std::max(1, v - 12), v - 1));
            if (second != first) g->addEdge(second, v, 1);
        }
    }
    g->finalize();
    return g;
}

/// Eq. 4 per head straight from the dense masks, in double: row v's message is the softmax over
/// the senders u with (u, v) in the head's set of q_v . k_u * scale, times v_u; zero if none.
std::vector<double> referenceMessages(const GraphMasks& m, const std::vector<float>& qkv, const std::vector<std::int64_t>& headMask,
                                      int dk, double scale) {
    const int n = m.ops;
    const auto heads = static_cast<int>(headMask.size());
    const int ld = 3 * heads * dk;
    std::vector<double> out(static_cast<size_t>(n) * static_cast<size_t>(heads * dk), 0.0);
    for (int h = 0; h < heads; ++h)
        for (OpId v = 0; v < n; ++v) {
            std::vector<std::pair<OpId, double>> scores;
            for (OpId u = 0; u < n; ++u) {
                if (!m.has(static_cast<MaskKind>(headMask[static_cast<size_t>(h)]), u, v)) continue;
                double dot = 0;
                for (int j = 0; j < dk; ++j) dot += double(qkv[static_cast<size_t>(v * ld + h * dk + j)]) * qkv[static_cast<size_t>(u * ld + (heads + h) * dk + j)];
                scores.emplace_back(u, dot * scale);
            }
            if (scores.empty()) continue;
            double top = -1e300, total = 0;
            for (const auto& s : scores) top = std::max(top, s.second);
            for (auto& s : scores) total += s.second = std::exp(s.second - top);
            for (const auto& [u, w] : scores)
                for (int j = 0; j < dk; ++j)
                    out[static_cast<size_t>(v * heads * dk + h * dk + j)] += w / total * qkv[static_cast<size_t>(u * ld + (2 * heads + h) * dk + j)];
        }
    return out;
}

double maxAbs(const at::Tensor& a) { return a.abs().max().item<double>(); }

} // namespace

class TestLargeGraphs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Relations hold the same seven sets as the dense masks: checked pair by pair through the
    // attention, whose every head reads one set (a swapped direction, a direct edge left in the
    // closure set or an op incomparable to itself moves messages by far more than the tolerance).
    void attentionByRelationsEqualsEquationFourOnTheDenseMasks() {
        const auto graph = mixedDag(230, 3);
        const Graph& g = *graph;
        const GraphMasks masks = buildMasks(g);
        const GraphRelations rel = buildRelations(g);
        const std::vector<std::int64_t> headMask{0, 1, 2, 2, 3, 4, 5, 6, 6};
        const int dk = 4;
        at::manual_seed(7);
        const at::Tensor qkv = at::randn({g.opCount(), 3 * static_cast<std::int64_t>(headMask.size()) * dk});
        const std::vector<float> flat(qkv.data_ptr<float>(), qkv.data_ptr<float>() + qkv.numel());
        const std::vector<double> ref = referenceMessages(masks, flat, headMask, dk, 0.5);
        const at::Tensor expected = at::tensor(ref, at::kDouble).view({g.opCount(), -1});
        for (const std::int64_t rows : {std::int64_t{7}, std::int64_t{0}}) {   // blocks of 7 receivers, and one block
            const at::Tensor got = attendByRelations(qkv, rel, headMask, dk, 0.5, rows).to(at::kDouble);
            qInfo("rows %lld: largest difference %.3g (margin %.3g)", static_cast<long long>(rows), maxAbs(got - expected),
                  1e-5 - maxAbs(got - expected));
            QVERIFY2(maxAbs(got - expected) < 1e-5, qPrintable(QString("rows %1: off by %2").arg(rows).arg(maxAbs(got - expected))));
        }
    }

    // The whole encoder on one graph gives the same embeddings whether its masks are dense or
    // relations (catches the wiring: the qkv layout, the heads' masks, the residual).
    void encoderByRelationsEqualsTheDenseEncoder() {
        const auto graph = mixedDag(300, 5);
        const Graph& g = *graph;
        const FeatureSpec spec;
        at::manual_seed(13);
        TopoformerEncoder enc(EncoderConfig::cpuSmall(spec.width()));
        const NodeFeatures f = buildFeatures(g, spec);
        const at::NoGradGuard noGrad;
        const at::Tensor dense = enc->forward(makeEncoderInput(f, buildMasks(g)));
        const at::Tensor sparse = enc->forward(makeEncoderInput(f, std::make_shared<const GraphRelations>(buildRelations(g))));
        qInfo("largest difference %.3g (margin %.3g)", maxAbs(dense - sparse), 1e-4 - maxAbs(dense - sparse));
        QVERIFY2(maxAbs(dense - sparse) < 1e-4, qPrintable(QString("off by %1").arg(maxAbs(dense - sparse))));
    }

    // The sparse solver's eigenvalues are LAPACK's on the dense Laplacian, repeated ones included
    // (eight identical chains hanging off one op: a single-vector Krylov method finds one vector
    // per repeated eigenvalue and fails here); its vectors are orthonormal eigenvectors.
    void sparseEigenpairsAreTheDenseOnes() {
        Graph star;
        const OpId hub = star.addOp({.name = "hub"});
        for (int c = 0; c < 8; ++c) {
            OpId prev = hub;
            for (int i = 0; i < 30; ++i) {
                const OpId v = star.addOp({.name = "c" + std::to_string(c) + "_" + std::to_string(i)});
                star.addEdge(prev, v, 1);
                prev = v;
            }
        }
        star.finalize();
        for (const Graph* g : {&star}) {
            const int n = g->opCount(), count = 21;
            const LaplacianEigenpairs pairs = smallestLaplacianEigenpairs(*g, count);
            at::Tensor lap = at::eye(n, at::kDouble);
            for (OpId u = 0; u < n; ++u)
                for (OpId v : g->successors(u)) {
                    const double d = std::sqrt(double(g->successors(u).size() + g->predecessors(u).size()) *
                                               double(g->successors(v).size() + g->predecessors(v).size()));
                    lap[u][v] = lap[v][u] = -1.0 / d;
                }
            const at::Tensor expected = at::linalg_eigvalsh(lap).narrow(0, 0, count);
            const at::Tensor values = at::tensor(pairs.values, at::kDouble);
            QVERIFY2(maxAbs(values - expected) < 1e-9, qPrintable(QString("eigenvalues off by %1").arg(maxAbs(values - expected))));
            const at::Tensor x = at::tensor(pairs.vectors, at::kDouble).view({n, count});
            QVERIFY(maxAbs(x.t().mm(x) - at::eye(count, at::kDouble)) < 1e-9);
            QVERIFY(maxAbs(lap.mm(x) - x * values) < 1e-8);
        }
    }

    // Topoformer on a training step past kDenseEncoderOps: it runs (by relations, sparse PE) and
    // its order is a valid topological order whose peak the step-clock model confirms.
    void topoformerRunsOnAStepBeyondDenseReach() {
        const auto forward = generateNetworkLike(900, 4);   // 2,261 ops
        const Graph step = makeTrainingGraph(*forward.graph, {.rule = UpdateRule::Adam});
        QVERIFY(step.opCount() > kDenseEncoderOps);
        TopoformerModel model = loadTopoformer(topoformerWeightsPath());
        const EncoderInput in = topoformerInput(step, model->config());
        QVERIFY(in.relations && !in.maskBias.defined());
        const std::vector<double> priority = topoformerPriorities(*model, step);
        QCOMPARE(priority.size(), static_cast<size_t>(step.opCount()));
        for (double y : priority) QVERIFY(std::isfinite(y));
        const std::vector<OpId> order = greedyOrder(step, priority);
        QVERIFY(orderError(step, order).empty());
        StepMemory mem(step, 1);
        QCOMPARE(orderPeak(step, order), mem.peak(order));
    }
};

SCHEDLAB_TEST_MAIN(largegraphs, TestLargeGraphs)
#include "tst_largegraphs.moc"
