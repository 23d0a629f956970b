// SPDX-License-Identifier: MIT
// REGAL's torch-free parts: the shifts' Betas by hand, the actions' layout over the chromosome,
// all-zero actions as plain BRKGA draw for draw, steering mid-run, the oracle's actions, the
// features (hand-checked, independent of op names), the augmentation and the datasets.
#include "common/branchblock.h"
#include "common/testmain.h"
#include "core/brkga/beta.h"
#include "core/brkga/regaldecoder.h"
#include "core/generators/generators.h"
#include "core/regal/actions.h"
#include "core/regal/augment.h"
#include "core/regal/dataset.h"
#include "core/regal/features.h"
#include "core/regal/labels.h"
#include "core/regal/oracle.h"
#include "core/regal/search.h"

#include <QtTest>

#include <cmath>
#include <map>

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

SearchRequest steeredAfter(int generation, std::int64_t budget, std::uint64_t seed, brkga::Distributions d) {
    SearchRequest r{.budget = budget, .seed = seed};
    r.steering = {.afterGeneration = generation, .choose = [d](std::span<const brkga::Chromosome>) { return d; }};
    return r;
}

} // namespace

class TestRegal : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// Shift 0 is Uniform; +s is Beta(e^(s/4), 1), -s its mirror Beta(1, e^(s/4)).
    void shiftsSelectTheirBetas() {
        QCOMPARE(shiftedBeta(0).alpha, 1.0);
        QCOMPARE(shiftedBeta(0).beta, 1.0);
        QCOMPARE(shiftedBeta(4).alpha, std::exp(1.0));
        QCOMPARE(shiftedBeta(4).beta, 1.0);
        QCOMPARE(shiftedBeta(-12).alpha, 1.0);
        QCOMPARE(shiftedBeta(-12).beta, std::exp(3.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, shiftedBeta(13));
        // Beta(a, 1) has the quantile u^(1/a): the table the sampler uses agrees.
        const auto table = brkga::BetaQuantiles::shared(std::exp(1.0), 1);
        QCOMPARE_LE(std::abs(table->quantile(0.3) - std::pow(0.3, std::exp(-1.0))), 1e-6);
    }

    void actionsLandOnTheirGenes() {
        Problem p = regalProblem(diamond(), 2, Objective::Memory);
        const RegalLayout layout = RegalLayout::of(p);
        Actions a = Actions::uniform(4, 2);
        a.shift[a.index(2, 1)] = 4;    // op3's affinity for device 1: Beta(e, 1)
        a.shift[a.index(3, 2)] = -8;   // op4's priority: Beta(1, e^2)
        const GeneShapes s = geneShapes(layout, a);
        QCOMPARE(s.alpha[layout.affinity(2, 1)], std::exp(1.0));
        QCOMPARE(s.alpha[layout.affinity(2, 0)], 1.0);
        QCOMPARE(s.beta[layout.priority(3)], std::exp(2.0));
        for (TensorId t = 0; t < 4; ++t)   // transfer keys stay Uniform
            for (int q = 0; q < 2; ++q) QCOMPARE(s.alpha[layout.transfer(t, q)], 1.0);
        // Only the learned key types follow the actions.
        const GeneShapes placementOnly = geneShapes(layout, a, {.placement = true, .scheduling = false});
        QCOMPARE(placementOnly.beta[layout.priority(3)], 1.0);
        QCOMPARE(placementOnly.alpha[layout.affinity(2, 1)], std::exp(1.0));
        a.shift.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, geneShapes(layout, a));
        a.shift.push_back(13);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, geneShapes(layout, a));
    }

    /// All-zero actions steer nothing: the run is plain BRKGA's, draw for draw, on 2 and 4 devices.
    /// Catches a Uniform gene drawn another way than plain BRKGA draws it, steering that touches
    /// the random streams or the crossover thresholds, and a steered run started afresh.
    void zeroActionsArePlainBrkgaDrawForDraw() {
        const GeneratedInstance inst = generateInstance("nn", 40, 7);
        for (int devices : {2, 4}) {
            Problem p = regalProblem(inst.graph, devices, Objective::Memory);
            const RegalLayout layout = RegalLayout::of(p);
            const SearchOutcome plain = search(p, {.budget = 1500, .seed = 9});
            const SearchOutcome steered =
                search(p, steeredAfter(3, 1500, 9, geneDistributions(layout, Actions::uniform(layout.ops, devices))));
            QCOMPARE(steered.steeredAt, std::int64_t(370));   // 100 + 3 x 90
            QCOMPARE(steered.result.bestCost, plain.result.bestCost);
            QCOMPARE(steered.result.best, plain.result.best);
            QCOMPARE(steered.result.history.size(), plain.result.history.size());
            for (std::size_t g = 0; g < plain.result.history.size(); ++g)
                QCOMPARE(steered.result.history[g].mean, plain.result.history[g].mean);
        }
    }

    /// A run resumed from its snapshot at the steering point is the uninterrupted run (what every
    /// training reward relies on), steered or not. Catches a snapshot missing the ranks, the
    /// counters or the best, a resumed run that re-decodes or restarts its random streams.
    void resumingAtTheSteeringPointIsTheSameRun() {
        const GeneratedInstance inst = generateInstance("nn", 40, 5);
        Problem p = regalProblem(inst.graph, 3, Objective::Memory);
        const RegalLayout layout = RegalLayout::of(p);
        Actions pushed = Actions::uniform(layout.ops, 3);
        for (OpId j = 0; j < layout.ops; ++j) pushed.shift[pushed.index(j, j % 3)] = 6;
        for (const brkga::Distributions& d : {brkga::Distributions{}, geneDistributions(layout, pushed)}) {
            const SearchOutcome whole = search(p, steeredAfter(3, 1500, 9, d));
            SearchRequest prefix = steeredAfter(3, 370, 9, d);
            prefix.snapshotAtSteering = true;
            const SearchOutcome head = search(p, prefix);
            QVERIFY(head.atSteering);
            QCOMPARE(head.atSteering->evaluations, std::int64_t(370));
            SearchRequest rest = steeredAfter(3, 1500, 9, d);
            rest.resumeFrom = head.atSteering;
            const SearchOutcome resumed = search(p, rest);
            QCOMPARE(resumed.result.bestCost, whole.result.bestCost);
            QCOMPARE(resumed.result.best, whole.result.best);
            QCOMPARE(resumed.result.evaluations, std::int64_t(1500));
            QCOMPARE(resumed.steeredAt, std::int64_t(370));
        }
        SearchRequest other{.budget = 500, .seed = 1};
        other.resumeFrom = search(regalProblem(inst.graph, 2, Objective::Memory), [] {
            SearchRequest r = steeredAfter(1, 190, 1, {});
            r.snapshotAtSteering = true;
            return r;
        }()).atSteering;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, search(p, other));   // 2 devices' chromosomes, 3 devices' engine
    }

    /// Steering applies from the generation after `afterGeneration`: the run is plain BRKGA's until
    /// then, and its mutants follow the new distribution afterwards (all priorities near 1 here:
    /// the final population's mean priority key rises above plain BRKGA's).
    void steeringAppliesFromTheNextGeneration() {
        const GeneratedInstance inst = generateInstance("layered", 60, 3);
        Problem p = regalProblem(inst.graph, 2, Objective::Memory);
        const RegalLayout layout = RegalLayout::of(p);
        Actions high = Actions::uniform(layout.ops, 2);
        for (OpId j = 0; j < layout.ops; ++j) high.shift[high.index(j, 2)] = kMaxShift;
        SearchRequest plainRun{.budget = 2000, .seed = 5, .keepPopulation = 100};
        SearchRequest steeredRun = steeredAfter(2, 2000, 5, geneDistributions(layout, high));
        steeredRun.keepPopulation = 100;
        const SearchOutcome plain = search(p, plainRun), steered = search(p, steeredRun);
        for (int g = 0; g <= 2; ++g) QCOMPARE(steered.result.history[static_cast<size_t>(g)].mean, plain.result.history[static_cast<size_t>(g)].mean);
        QVERIFY(steered.result.history[3].mean != plain.result.history[3].mean);
        const auto meanPriority = [&](const SearchOutcome& o) {
            double s = 0;
            for (const auto& keys : o.population)
                for (OpId j = 0; j < layout.ops; ++j) s += keys[layout.priority(j)];
            return s / static_cast<double>(o.population.size() * static_cast<std::size_t>(layout.ops));
        };
        // Measured +0.076; unsteered runs are identical (0), the mutants' keys have mean 0.95.
        QCOMPARE_GE(meanPriority(steered) - meanPriority(plain), 0.03);
    }

    /// The oracle's actions by hand: the solution's device gets the shift, the priority falls
    /// linearly from +strength (first in the order) to -strength (last).
    void oracleActionsPointAtTheSolution() {
        const std::vector<int> placement = {1, 0, 0, 1};
        const std::vector<OpId> order = {0, 2, 1, 3};
        const Actions a = actionsToward(placement, order, 2, 6);
        const std::vector<int> affinity0 = {0, 6, 6, 0}, affinity1 = {6, 0, 0, 6}, priority = {6, -2, 2, -6};
        for (OpId j = 0; j < 4; ++j) {
            QCOMPARE(int(a.shift[a.index(j, 0)]), affinity0[static_cast<size_t>(j)]);
            QCOMPARE(int(a.shift[a.index(j, 1)]), affinity1[static_cast<size_t>(j)]);
            QCOMPARE(int(a.shift[a.index(j, 2)]), priority[static_cast<size_t>(j)]);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, actionsToward(placement, std::vector<OpId>{0, 0, 1, 3}, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, actionsToward(std::vector<int>{2, 0, 0, 1}, order, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, actionsToward(placement, order, 2, kMaxShift + 1));
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
        QCOMPARE_GE(early - late, 0.2 * cells / 2);
    }

    /// The oracle's parts: steering neither key type is plain BRKGA draw for draw, both is
    /// oracleSearch's run, and one type alone is neither (catches `keys` ignored, in part or whole).
    void oracleSteersOnlyTheKeyTypesAsked() {
        const Problem p = problemOf({"nn", 60, 3'100'777, "adam", 4, Objective::Memory});   // 190 ops
        const OracleGuide guide = longRunGuide(p, 3000, 99);
        SearchRequest plain{.budget = 1000, .seed = 7};
        const double plainCost = search(p, plain).result.bestCost;
        QCOMPARE(steeredToward(p, guide, 1000, 7, 3, {.placement = false, .scheduling = false}), plainCost);
        const double both = steeredToward(p, guide, 1000, 7, 3);
        QCOMPARE(both, oracleSearch(p, 3000, 99, 1000, 7).cost);
        const double placementOnly = steeredToward(p, guide, 1000, 7, 3, {.placement = true, .scheduling = false});
        const double orderOnly = steeredToward(p, guide, 1000, 7, 3, {.placement = false, .scheduling = true});
        QVERIFY(placementOnly != both && orderOnly != both && placementOnly != orderOnly);
    }

    void featuresHandChecked() {
        Problem p = regalProblem(diamond(), 2, Objective::Memory);
        const SearchOutcome run = search(p, {.budget = 200, .seed = 1, .keepPopulation = 100});
        const GraphFeatures f = computeFeatures(p, run.population);
        QCOMPARE(f.devices, 2);
        QCOMPARE(static_cast<int>(f.edgeSource.size()), 4);   // (op1,t1,op2), (op1,t1,op3), (op2,t2,op4), (op3,t3,op4)
        // Largest memory value: op3's parameter bytes, 8. Depth and height over the longest path, 2.
        const float expected[4][6] = {{0, 4 / 8.f, 0, 1 / 3.f, 0, 1},
                                      {4 / 8.f, 2 / 8.f, 0, 2 / 3.f, 0.5f, 0.5f},
                                      {4 / 8.f, 3 / 8.f, 1, 1, 0.5f, 0.5f},
                                      {5 / 8.f, 1 / 8.f, 0, 1 / 3.f, 1, 0}};
        for (int v = 0; v < 4; ++v)
            for (int c = 0; c < 6; ++c) QCOMPARE(f.at(v, c), expected[v][c]);
        for (int v = 0; v < 4; ++v) {
            QCOMPARE_LE(std::abs(f.pairAt(v, 0, 0) + f.pairAt(v, 1, 0) - 1.0f), 1e-5f);   // placement shares sum to 1
            QCOMPARE(f.pairAt(v, 0, 1) + f.pairAt(v, 1, 1), 1.0f);                        // the best places it once
            const int bestDevice = f.pairAt(v, 1, 1) == 1.0f ? 1 : 0;
            QCOMPARE(f.at(v, 8), f.pairAt(v, bestDevice, 0));                               // agreement with the best
            QVERIFY(f.at(v, 6) > 0 && f.at(v, 6) <= 1);
            QVERIFY(f.at(v, 9) >= 0 && f.at(v, 9) <= 1);
        }
        QVERIFY(f.at(0, 6) < f.at(3, 6));   // op1 always runs before op4
        // Symmetry breaking fixes op3 (input + output: 4, 6, 7, 6) on device 0, in every chromosome.
        QCOMPARE(f.at(2, 7), 1.0f);
        QCOMPARE(f.pairAt(2, 0, 0), 1.0f);
        QCOMPARE(f.pairAt(2, 0, 1), 1.0f);
        QCOMPARE(f.at(0, 7) + f.at(1, 7) + f.at(3, 7), 0.0f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeFeatures(p, {}));
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
        const Problem pa = regalProblem(inst.graph, 2, Objective::Memory);
        const Problem pb = regalProblem(std::make_shared<Graph>(renamed), 2, Objective::Memory);
        const SearchRequest r{.budget = 400, .seed = 4, .keepPopulation = 100};
        const SearchOutcome ra = search(pa, r), rb = search(pb, r);
        QCOMPARE(ra.result.bestCost, rb.result.bestCost);
        const GraphFeatures a = computeFeatures(pa, ra.population), b = computeFeatures(pb, rb.population);
        QVERIFY(a.node == b.node);
        QVERIFY(a.pair == b.pair);
        QVERIFY(a.edgeSize == b.edgeSize);
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
        spec.deviceCounts = {2, 5};   // cycled over the graphs
        const auto mixed = makeDataset(spec, Split::Training);
        QCOMPARE(mixed[0].problem.platform.deviceCount(), 2);
        QCOMPARE(mixed[1].problem.platform.deviceCount(), 5);
        QCOMPARE(mixed[2].problem.platform.deviceCount(), 2);
    }

    /// Each model's SGD and Adam steps at its own sizes: Adam's holds two more state tensors per weight.
    void realTrainingStepsComeInBothRules() {
        const auto steps = realTrainingSteps({std::string(SCHEDLAB_TEST_DATA) + "/onnx/light_squeezenet.onnx"}, 3, Objective::Memory);
        QCOMPARE(steps.size(), std::size_t(2));
        QCOMPARE(steps[0].name, std::string("light_squeezenet.onnx sgd"));
        QCOMPARE(steps[1].name, std::string("light_squeezenet.onnx adam"));
        QCOMPARE(steps[1].problem.platform.deviceCount(), 3);
        QVERIFY(steps[1].problem.g().opCount() >= steps[0].problem.g().opCount());
        QVERIFY(steps[0].problem.g().findOp("loss") != kNoOp);
    }

    // The classic-order guide on a branches block (input 2 B, branches to 8 and 6 B, shares of
    // 1 B, a 2 B join): its order runs branch by branch, the brute-force minimum 11 (both expands
    // first peak at 16; tests/core/tst_generators.cpp works both by hand). Mutation caught: the
    // worst of the classic orders kept (BFS runs both expands first).
    void classicOrderGuideRunsBranchByBranch() {
        const std::shared_ptr<Graph> g = test::handBranchBlock();
        const OracleGuide guide = classicOrderGuide(regalProblem(g, 2, Objective::Memory));
        QCOMPARE(guide.cost, 11.0);
        QCOMPARE(guide.order.size(), std::size_t{7});
        QVERIFY(std::all_of(guide.placement.begin(), guide.placement.end(), [](int d) { return d == 0; }));
    }

    // The rule "frees first" on the same block, by hand: the input (reads nothing, writes 2) and
    // each expand (reads 2, writes 8 or 6) allocate: priority -12; each reduce (reads 8 or 6,
    // writes 1) and the output (reads 2, writes 1) free: +12; the join (reads 1 + 1, writes 2)
    // neither: 0 (Uniform). Affinities untouched. Mutation caught: the sign reversed, or the
    // shift put on an affinity key.
    void freesFirstActionsByHand() {
        const std::shared_ptr<Graph> g = test::handBranchBlock();
        const Actions a = freesFirstActions(*g, 2);
        const std::map<std::string, int> expected{{"in", -12}, {"e1", -12}, {"r1", 12}, {"e2", -12},
                                                  {"r2", 12},  {"cat", 0},  {"out", 12}};
        for (OpId v = 0; v < g->opCount(); ++v) {
            QCOMPARE(int(a.shift[a.index(static_cast<int>(v), 2)]), expected.at(g->op(v).name));
            QCOMPARE(int(a.shift[a.index(static_cast<int>(v), 0)]), 0);
            QCOMPARE(int(a.shift[a.index(static_cast<int>(v), 1)]), 0);
        }
    }

    // Steering by no action at all is plain BRKGA, draw for draw: steeredBy with all-zero actions
    // gives plain regal::search's best cost to the bit. Mutation caught: steeredBy running
    // another budget or seed than it is given.
    void steeringByNothingIsPlainBrkga() {
        const Problem p = regalProblem(generateInstance("branches", 120, 4).graph, 2, Objective::Memory);
        SearchRequest plain;
        plain.budget = 800;
        plain.seed = 9;
        const double expected = search(p, plain).result.bestCost;
        QCOMPARE(steeredBy(p, Actions::uniform(p.g().opCount(), 2), 800, 9), expected);
    }
};

SCHEDLAB_TEST_MAIN(regal, TestRegal)
#include "tst_regal.moc"
