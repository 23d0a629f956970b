// SPDX-License-Identifier: MIT
// REGAL's torch-free parts: the Beta dequantisation of Paliwal et al. (ICLR 2020, App. A.2) against
// the k = 2 table of docs/regal.md and the 6 / 6 / 4 split of placement preferences the paper
// reports (§5.1), the actions' layout over the chromosome, the learned
// distributions reaching BRKGA, the features (independent of op names, hand-checked static
// columns), the augmentation and the dataset's reproducibility.
#include "core/brkga/beta.h"
#include "core/brkga/regaldecoder.h"
#include "core/generators/generators.h"
#include "core/regal/actions.h"
#include "core/regal/augment.h"
#include "core/regal/dataset.h"
#include "core/regal/features.h"
#include "core/regal/oracle.h"
#include "core/regal/search.h"

#include <QtTest>

#include <cmath>

using namespace sl;
using namespace sl::regal;

namespace {

/// Four ops: op1 -> t1 (4) -> op2, op3; op2 -> t2 (2), op3 -> t3 (3) -> op4 -> t4 (1).
std::shared_ptr<Graph> diamond() {
    auto g = std::make_shared<Graph>();
    const OpId a = g->addOp({.name = "op1", .duration = 1});
    const OpId b = g->addOp({.name = "op2", .duration = 2});
    const OpId c = g->addOp({.name = "op3", .duration = 3, .paramBytes = 8});
    const OpId d = g->addOp({.name = "op4", .duration = 1});
    const TensorId t1 = g->addTensor("t1", a, 4);
    g->addConsumer(t1, b);
    g->addConsumer(t1, c);
    g->addConsumer(g->addTensor("t2", b, 2), d);
    g->addConsumer(g->addTensor("t3", c, 3), d);
    g->addTensor("t4", d, 1);
    g->finalize();
    return g;
}

Actions uniformActions(int ops, int devices, std::uint8_t m, std::uint8_t v) {
    Actions a;
    a.ops = ops;
    a.devices = devices;
    a.mean.assign(static_cast<std::size_t>(ops * (devices + 1)), m);
    a.variance.assign(a.mean.size(), v);
    return a;
}

} // namespace

class TestRegal : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dequantizationMatchesTheK2Table() {
        // App. A.2 with k = 2 (docs/regal.md, 'Choices where the papers are silent'): (m, v) -> (alpha, beta).
        const struct { int m, v; double alpha, beta; } table[] = {
            {0, 0, 2.0 / 3, 4.0 / 3}, {0, 1, 1.0 / 6, 1.0 / 3}, {1, 0, 4.0 / 3, 2.0 / 3}, {1, 1, 1.0 / 3, 1.0 / 6}};
        for (const auto& row : table) {
            const BetaShape b = dequantizeBeta(row.m, row.v, 2);
            QCOMPARE_LE(std::abs(b.alpha - row.alpha), 1e-12);
            QCOMPARE_LE(std::abs(b.beta - row.beta), 1e-12);
        }
        // The moments App. A.2 defines, for a larger k: mean (m+1)/(k+1), variance mu(1-mu)(v+1)/(k+1).
        const int k = 5;
        for (int m = 0; m < k; ++m)
            for (int v = 0; v < k; ++v) {
                const BetaShape b = dequantizeBeta(m, v, k);
                const double mu = (m + 1.0) / (k + 1), var = mu * (1 - mu) * (v + 1.0) / (k + 1);
                const double s = b.alpha + b.beta;
                QCOMPARE_LE(std::abs(b.alpha / s - mu), 1e-12);
                QCOMPARE_LE(std::abs(b.alpha * b.beta / (s * s * (s + 1)) - var), 1e-12);
            }
        QCOMPARE(dequantizeRho(0, 4), 0.5);
        QCOMPARE(dequantizeRho(3, 4), 0.875);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dequantizeBeta(2, 0, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dequantizeBeta(0, -1, 2));
    }

    void sixteenPlacementActionsSplitSixSixFour() {
        // The paper (§5.1) reports 16 placement actions: 6 prefer one device, 6 the other, 4 neither.
        // With k = 2 the 16 (m, v) pairs of two affinity keys split the same way: 6 prefer device 0,
        // 6 device 1 and 4 (identical distributions) neither.
        int first = 0, second = 0, none = 0;
        Rng rng(7);
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b) {
                const BetaShape x = dequantizeBeta(a / 2, a % 2, 2), y = dequantizeBeta(b / 2, b % 2, 2);
                int wins = 0;
                const int draws = 20000;
                for (int i = 0; i < draws; ++i)
                    wins += brkga::betaVariate(x.alpha, x.beta, rng) > brkga::betaVariate(y.alpha, y.beta, rng);
                const double p = static_cast<double>(wins) / draws;
                if (p > 0.53) ++first;
                else if (p < 0.47) ++second;
                else ++none;
            }
        QCOMPARE(first, 6);
        QCOMPARE(second, 6);
        QCOMPARE(none, 4);
    }

    void actionsLandOnTheirGenes() {
        Problem p = regalProblem(diamond(), 2, Objective::Memory);
        const RegalLayout layout = RegalLayout::of(p);
        Actions a = uniformActions(4, 2, 0, 0);
        a.mean[a.index(2, 1)] = 1;   // op3's affinity for device 1: mean 2/3
        a.variance[a.index(3, 2)] = 1;   // op4's priority: (0, 1)
        const GeneShapes s = geneShapes(layout, a);
        QCOMPARE_LE(std::abs(s.alpha[layout.affinity(2, 1)] - 4.0 / 3), 1e-12);
        QCOMPARE_LE(std::abs(s.alpha[layout.affinity(2, 0)] - 2.0 / 3), 1e-12);
        QCOMPARE_LE(std::abs(s.alpha[layout.priority(3)] - 1.0 / 6), 1e-12);
        QCOMPARE_LE(std::abs(s.beta[layout.priority(3)] - 1.0 / 3), 1e-12);
        for (TensorId t = 0; t < 4; ++t)   // transfer keys stay Uniform
            for (int q = 0; q < 2; ++q) QCOMPARE(s.alpha[layout.transfer(t, q)], 1.0);
        // Only the learned key types follow the actions.
        const GeneShapes placementOnly = geneShapes(layout, a, {.placement = true, .scheduling = false});
        QCOMPARE(placementOnly.alpha[layout.priority(3)], 1.0);
        QCOMPARE_LE(std::abs(placementOnly.alpha[layout.affinity(2, 1)] - 4.0 / 3), 1e-12);
        a.mean.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, geneShapes(layout, a));
    }

    void learnedDistributionsReachBrkgasPopulation() {
        // A fixed policy: every key ~ Beta(4/3, 2/3), mean 2/3. A 100-evaluation run keeps its
        // initial population, drawn from those Betas; plain BRKGA's is uniform (mean 1/2).
        const GeneratedInstance inst = generateInstance("layered", 60, 3);
        Problem p = regalProblem(inst.graph, 2, Objective::Memory);
        const RegalLayout layout = RegalLayout::of(p);
        const Actions high = uniformActions(layout.ops, 2, 1, 0);
        SearchRequest r{.budget = 100, .seed = 5, .keepPopulation = 100};
        const auto meanPriority = [&](const SearchOutcome& o) {
            double s = 0;
            for (const auto& keys : o.population)
                for (OpId j = 0; j < layout.ops; ++j) s += keys[layout.priority(j)];
            return s / static_cast<double>(o.population.size() * static_cast<std::size_t>(layout.ops));
        };
        const double plain = meanPriority(search(p, r));
        r.distributions = geneDistributions(layout, high);
        const double learned = meanPriority(search(p, r));
        QCOMPARE_LE(std::abs(plain - 0.5), 0.02);
        QCOMPARE_LE(std::abs(learned - 2.0 / 3), 0.02);
    }

    /// The oracle's actions by hand: the solution's device gets the high mean, earlier ops the higher
    /// priority quantile (the decoder runs the highest key first).
    void oracleActionsPointAtTheSolution() {
        const std::vector<int> placement = {1, 0, 0, 1};
        const std::vector<OpId> order = {0, 2, 1, 3};
        const Actions a = actionsToward(placement, order, 2);
        const std::vector<int> affinity0 = {0, 1, 1, 0}, affinity1 = {1, 0, 0, 1}, priority = {1, 0, 1, 0};
        for (OpId j = 0; j < 4; ++j) {
            QCOMPARE(a.mean[a.index(j, 0)], affinity0[static_cast<size_t>(j)]);
            QCOMPARE(a.mean[a.index(j, 1)], affinity1[static_cast<size_t>(j)]);
            QCOMPARE(a.mean[a.index(j, 2)], priority[static_cast<size_t>(j)]);
        }
        QVERIFY(std::all_of(a.variance.begin(), a.variance.end(), [](auto v) { return v == 0; }));
        const Actions three = actionsToward(placement, order, 2, 3);   // ranks 0..3 -> quantiles 0, 0, 1, 2
        const std::vector<int> priority3 = {2, 1, 2, 0};
        for (OpId j = 0; j < 4; ++j) QCOMPARE(three.mean[three.index(j, 2)], priority3[static_cast<size_t>(j)]);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, actionsToward(placement, std::vector<OpId>{0, 0, 1, 3}, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, actionsToward(std::vector<int>{2, 0, 0, 1}, order, 2));
    }

    /// The oracle's Betas reach BRKGA's population: its initial chromosomes put most ops on the
    /// guide's device and give the guide's first half higher priorities than its second half;
    /// uniform keys would do neither (agreement 1/2, equal means).
    void oracleSteersBrkgaTowardItsGuide() {
        const GeneratedInstance inst = generateInstance("layered", 60, 3);
        Problem p = regalProblem(inst.graph, 2, Objective::Memory);
        const RegalLayout layout = RegalLayout::of(p);
        std::vector<int> placement(static_cast<size_t>(layout.ops));
        for (OpId j = 0; j < layout.ops; ++j) placement[static_cast<size_t>(j)] = (j * 7 / 3) % 2;
        const std::vector<OpId>& order = p.g().topologicalOrder();
        SearchRequest r{.budget = 100, .seed = 5, .keepPopulation = 100};
        r.distributions = geneDistributions(layout, actionsToward(placement, order, 2));
        const SearchOutcome o = search(p, r);
        double agree = 0, early = 0, late = 0;
        for (const auto& keys : o.population)
            for (size_t rank = 0; rank < order.size(); ++rank) {
                const OpId j = order[rank];
                const int device = keys[layout.affinity(j, 1)] > keys[layout.affinity(j, 0)] ? 1 : 0;
                agree += device == placement[static_cast<size_t>(j)];
                (2 * rank < order.size() ? early : late) += keys[layout.priority(j)];
            }
        const double cells = static_cast<double>(o.population.size() * order.size());
        QCOMPARE_GE(agree / cells, 0.7);
        QCOMPARE_GE(early - late, 0.2 * cells / 2);   // mean 2/3 against 1/3 in expectation
    }

    void featuresHandChecked() {
        Problem p = regalProblem(diamond(), 2, Objective::Memory);
        const GraphFeatures f = computeFeatures(p, {.budget = 200, .seed = 1});
        QCOMPARE(f.width, 8);
        QCOMPARE(static_cast<int>(f.edgeSource.size()), 4);   // (op1,t1,op2), (op1,t1,op3), (op2,t2,op4), (op3,t3,op4)
        // Largest memory value: op3's parameter bytes, 8.
        const float expected[4][4] = {{0, 4 / 8.f, 0, 1 / 3.f}, {4 / 8.f, 2 / 8.f, 0, 2 / 3.f},
                                      {4 / 8.f, 3 / 8.f, 1, 1}, {5 / 8.f, 1 / 8.f, 0, 1 / 3.f}};
        for (int v = 0; v < 4; ++v)
            for (int c = 0; c < 4; ++c) QCOMPARE(f.at(v, c), expected[v][c]);
        for (int v = 0; v < 4; ++v) {
            QCOMPARE_LE(std::abs(f.at(v, 4) + f.at(v, 5) - 1.0f), 1e-5f);   // placement shares sum to 1
            QVERIFY(f.at(v, 6) > 0 && f.at(v, 6) <= 1);
        }
        QVERIFY(f.at(0, 6) < f.at(3, 6));   // op1 always runs before op4
        // Symmetry breaking fixes op1 or op3 (input + output: 4, 6, 7, 6): op3, on device 0.
        QCOMPARE(f.at(2, 7), 1.0f);
        QCOMPARE(f.at(2, 4), 1.0f);
        QCOMPARE(f.at(0, 7) + f.at(1, 7) + f.at(3, 7), 0.0f);
    }

    void featuresIgnoreOpNames() {
        const GeneratedInstance inst = generateInstance("layered", 40, 9);
        Graph renamed;
        for (const Op& o : inst.graph->ops()) {
            Op copy = o;
            copy.name = "renamed_" + std::to_string(renamed.opCount() * 7919 % 1000) + "_" + o.name;
            renamed.addOp(copy);
        }
        for (const Tensor& t : inst.graph->tensors()) {
            const TensorId id = renamed.addTensor("x" + t.name, t.producer, t.bytes);
            for (OpId c : t.consumers) renamed.addConsumer(id, c);
        }
        renamed.finalize();
        const GraphFeatures a = computeFeatures(regalProblem(inst.graph, 2, Objective::Memory), {.seed = 4});
        const GraphFeatures b = computeFeatures(regalProblem(std::make_shared<Graph>(renamed), 2, Objective::Memory), {.seed = 4});
        QVERIFY(a.node == b.node);
        QVERIFY(a.edgeSize == b.edgeSize);
        QCOMPARE(a.bestCost, b.bestCost);
    }

    void augmentationScalesEveryTensorWithinBounds() {
        const std::shared_ptr<Graph> g = diamond();
        const Graph noisy = perturbTensorSizes(*g, 3);
        bool changed = false;
        for (TensorId t = 0; t < g->tensorCount(); ++t) {
            const double before = g->tensor(t).bytes, after = noisy.tensor(t).bytes;
            QVERIFY(after >= std::floor(0.5 * before) && after <= std::ceil(1.5 * before));
            QCOMPARE(noisy.tensor(t).consumers, g->tensor(t).consumers);
            changed |= after != before;
        }
        QVERIFY(changed);
        QCOMPARE(perturbTensorSizes(*g, 3).tensor(0).bytes, noisy.tensor(0).bytes);
    }

    void datasetSplitsAreReproducibleAndDisjoint() {
        DatasetSpec spec;
        spec.families = {"layered"};
        spec.graphs = 3;
        const auto a = makeDataset(spec, Split::Training), b = makeDataset(spec, Split::Training);
        const auto held = makeDataset(spec, Split::HeldOut);
        QCOMPARE(a.size(), std::size_t(3));
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].name, b[i].name);
            QCOMPARE(a[i].problem.g().opCount(), b[i].problem.g().opCount());
            QVERIFY(a[i].name != held[i].name);
            QCOMPARE(a[i].problem.platform.deviceCount(), 2);
            // A training step: more than twice the forward ops (2n + 1 + updates).
            QVERIFY(a[i].problem.g().findOp("loss") != kNoOp);
        }
    }
};

QTEST_GUILESS_MAIN(TestRegal)
#include "tst_regal.moc"
