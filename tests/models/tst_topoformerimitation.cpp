// SPDX-License-Identifier: MIT
// Topoformer's imitation of proven optima (models/topoformer/imitation.h) and its label set
// (labelset.h): the loss is Plackett-Luce's, training on a hand-checked step's optimal order makes
// that order the network's most likely and greedy one, and label files round-trip or are refused
// with their line.
#include "common/testmain.h"
#include "models/topoformer/decoding.h"
#include "models/topoformer/imitation.h"
#include "models/topoformer/labelset.h"
#include "models/topoformer/model.h"
#include "models/topoformer/trainingdata.h"

#include "core/exact/exactmemory.h"
#include "core/util/atomicfile.h"

#include "common/memorybrute.h"

#include <ATen/ATen.h>
#include <torch/optim/adam.h>

#include <QTemporaryDir>
#include <QTest>

#include <set>

#include <limits>

using namespace sl;
using namespace sl::models;
using namespace sl::reference;

namespace {

/// Hand-checked: after a (10 bytes of parameters) both v (makes V = 5, read by z at the end) and
/// w1 (makes W = 8 for w2) fit under a's peak, but running v before w1, w2 keeps V live through
/// w2's step: 5 + 8 + 1 + 2 = 16. The only optimal orders run w1, w2 before v: a w1 w2 v z, peak 11.
Graph handCheckedStep() {
    Graph g;
    const OpId a = g.addOp({.name = "a", .duration = 1, .paramBytes = 10});
    const OpId v = g.addOp({.name = "v", .duration = 1});
    const OpId w1 = g.addOp({.name = "w1", .duration = 1});
    const OpId w2 = g.addOp({.name = "w2", .duration = 1, .paramBytes = 2});
    const OpId z = g.addOp({.name = "z", .duration = 1});
    const TensorId start = g.addTensor("T", a, 0);
    g.addConsumer(start, v);
    g.addConsumer(start, w1);
    g.addConsumer(g.addTensor("V", v, 5), z);
    g.addConsumer(g.addTensor("W", w1, 8), w2);
    g.addConsumer(g.addTensor("X", w2, 1), z);
    g.finalize();
    return g;
}

TopoformerConfig tinyConfig() {
    TopoformerTrainConfig c;
    c.width = 32;
    c.layers = 2;
    c.headsPerMask = 1;
    return topoformerModelConfig(c);
}

std::vector<std::vector<OpId>> allOrders(const Graph& g) {
    std::vector<std::vector<OpId>> orders;
    forEachOrder(g, {}, [&](const std::vector<OpId>& o) { orders.push_back(o); });
    return orders;
}

/// The small compiled-steps label set both label-set tests use (two MLP steps and a validation
/// step, exact-memory at most 5 s each), built once: it takes most of this unit's time.
const LabelSet& smallCompiledLabelSet() {
    static const LabelSet set = buildLabelSet(
        {.train = 2, .validation = 1, .secondsPerStep = 5, .mix = LabelMix::CompiledSteps}, [](const std::string&) {});
    return set;
}

} // namespace

class TestTopoformerImitation : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theHandCheckedOptimumIsTheOneTheSearchProves() {
        const Graph g = handCheckedStep();
        QCOMPARE(bruteMinimum(g), 11.0);
        const ExactMemoryResult r = exactMinimumMemory(g, {});
        QVERIFY(r.optimal);
        QCOMPARE(r.peak, 11.0);
        QCOMPARE(r.order, (std::vector<OpId>{0, 2, 3, 1, 4}));   // a w1 w2 v z
    }

    // Against decoding.h's double-precision Plackett-Luce (eq. 8), per step of the order. Catches
    // a loss with the wrong sign, without the per-step normalisation, or with wrong ready sets.
    void lossIsThePerStepNegativeLogLikelihood() {
        const Graph g = handCheckedStep();
        const std::vector<double> prio{0.3, -1.2, 0.8, 0.1, -0.4};
        const at::Tensor y = at::tensor(std::vector<float>(prio.begin(), prio.end())).unsqueeze(0);
        for (const std::vector<OpId>& order : allOrders(g)) {
            const double loss = imitationLoss(y, {&g}, {order}).item<double>();
            QVERIFY(std::abs(loss + plackettLuceLogProb(g, prio, order) / 5.0) < 1e-5);
        }
    }

    // 40 Adam steps on the step's one optimal order. The verdicts compare log-probabilities of
    // enumerated orders (no sampling) with margins printed: the labelled order must become the
    // most likely by kMargin nats and the greedy one. Catches the loss's sign reversed (the label
    // becomes the least likely) and training on another order (a w1 v w2 z is then preferred).
    void trainingOnTheOptimalOrderMakesItTheMostLikely() {
        constexpr double kMargin = 1.0;
        at::manual_seed(3);
        const Graph g = handCheckedStep();
        const std::vector<OpId> optimal{0, 2, 3, 1, 4};
        TopoformerModel model(tinyConfig());
        const EncoderInput in = batchInputs({topoformerInput(g, model->config())});
        auto logProbs = [&] {
            at::NoGradGuard noGrad;
            const std::vector<double> prio(rowPriorities(model->forward(in)[0], g.opCount()));
            std::vector<double> out;
            for (const std::vector<OpId>& order : allOrders(g)) out.push_back(plackettLuceLogProb(g, prio, order));
            return std::make_pair(out, greedyOrder(g, prio));
        };
        const std::vector<std::vector<OpId>> orders = allOrders(g);
        const size_t label = static_cast<size_t>(std::find(orders.begin(), orders.end(), optimal) - orders.begin());
        const double before = logProbs().first[label];
        torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-2));
        for (int step = 0; step < 40; ++step) {
            const at::Tensor loss = imitationLoss(model->forward(in), {&g}, {optimal});
            adam.zero_grad();
            loss.backward();
            adam.step();
        }
        const auto [after, greedy] = logProbs();
        double runnerUp = -std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < after.size(); ++i)
            if (i != label) runnerUp = std::max(runnerUp, after[i]);
        qInfo("log p(optimal) %.3f -> %.3f; best other order %.3f; margin %+.3f nats", before, after[label], runnerUp,
              after[label] - runnerUp - kMargin);
        QVERIFY(after[label] > before);
        QVERIFY2(after[label] - runnerUp > kMargin, "the labelled order is not the most likely by a clear margin");
        QCOMPARE(greedy, optimal);
    }

    // Catches a label file that loses or reorders entries, and one whose order no longer matches
    // its graph being accepted.
    void labelSetRoundTripsAndRefusesABadOrder() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("labels.jsonl").toStdString();
        const LabelSet built = buildLabelSet({.train = 5, .validation = 2, .secondsPerStep = 5}, [](const std::string&) {});
        QCOMPARE(built.train.size(), size_t{5});
        saveLabelSet(built, path);
        const LabelSet loaded = loadLabelSet(path);
        QCOMPARE(loaded.train.size(), built.train.size());
        QCOMPARE(loaded.validation.size(), built.validation.size());
        for (size_t i = 0; i < built.train.size(); ++i) {
            QCOMPARE(loaded.train[i].order, built.train[i].order);
            QCOMPARE(loaded.train[i].peak, built.train[i].peak);
            QCOMPARE(loaded.train[i].spec.seed, built.train[i].spec.seed);
            QVERIFY(loaded.train[i].optimal);   // small steps: exact-memory proves them
        }
        std::string text = readFile(path);
        const size_t at = text.find("\"order\":[") + 9;
        const size_t comma = text.find(',', at);
        const std::string first = text.substr(at, comma - at), second = text.substr(comma + 1, text.find(',', comma + 1) - comma - 1);
        text.replace(at, text.find(',', comma + 1) - at, second + "," + first);   // swap the first two ops of line 2
        writeFileAtomically(path, text);
        try {
            loadLabelSet(path);
            QFAIL("a label whose order was changed was accepted");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("labels.jsonl:2:") != std::string::npos, e.what());
        }
    }

    // Catches a parallel builder that files an entry under another's index (its spec and its label
    // would then disagree, or differ from a one-thread build) and a compiled set that does not
    // rebuild the HLO steps it labelled.
    void compiledLabelSetIsTheSameOnAnyThreadCountAndRoundTrips() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("compiled.jsonl").toStdString();
        const LabelSetSize size{.train = 2, .validation = 1, .secondsPerStep = 5, .mix = LabelMix::CompiledSteps};
        LabelSetSize twoThreads = size;
        twoThreads.threads = 2;
        const LabelSet& one = smallCompiledLabelSet();
        const LabelSet two = buildLabelSet(twoThreads, [](const std::string&) {});
        QCOMPARE(two.train.size(), size_t{2});
        for (size_t i = 0; i < one.train.size(); ++i) {
            QCOMPARE(two.train[i].spec.family, std::string("hlo-mlp"));   // entries 0, 1: MLP SGD, MLP Adam
            QCOMPARE(two.train[i].spec.training, std::string(i == 0 ? "sgd" : "adam"));
            QCOMPARE(two.train[i].spec.seed, kCompiledLabelTrainSeedBase + i);
            QVERIFY(one.train[i].optimal && two.train[i].optimal);   // small MLP steps: proven, so equal peaks
            QCOMPARE(two.train[i].peak, one.train[i].peak);
        }
        saveLabelSet(two, path);
        const LabelSet loaded = loadLabelSet(path);   // rebuilds each step from the generator and checks its label
        QVERIFY(loaded.mix == LabelMix::CompiledSteps);
        QCOMPARE(loaded.train[1].order, two.train[1].order);
        QCOMPARE(loaded.validation[0].spec.seed, kCompiledLabelValidationSeedBase);
    }

    // Catches a model-shapes entry whose seed does not pick its shape (every entry the same model,
    // or a shape off the published configurations), a width the heads or split do not divide (the
    // generator refuses it), and entries not in fours of one and two blocks, SGD and Adam.
    void modelShapesMixDrawsThePublishedShapes() {
        std::set<std::pair<int, int>> seen;
        const std::set<std::pair<int, int>> published = {
            {768, 50257}, {768, 30522}, {4096, 32000}, {4096, 50400}, {32, 8000}};
        for (std::uint64_t i = 0; i < 40; ++i) {
            const MemoryStepSpec spec{"hlo-model", 1 + static_cast<int>(i % 4) / 2, kShapedLabelTrainSeedBase + i,
                                      i % 2 ? "adam" : "sgd"};
            const HloStepSpec shape = modelShapedStepSpec(spec);
            QVERIFY(published.count({shape.hidden, shape.vocab}) == 1);
            QCOMPARE(shape.hidden % shape.heads, 0);
            QCOMPARE(shape.heads % shape.tensorParallel, 0);
            QCOMPARE(shape.layers, spec.nodes);
            QCOMPARE(shape.adam, spec.training == "adam");
            seen.insert({shape.hidden, shape.vocab});
        }
        QCOMPARE(seen, published);
        QVERIFY(graphOf({"hlo-model", 2, kShapedLabelTrainSeedBase + 3, "adam"})->opCount() > 500);
        QVERIFY(parseLabelMix("models") == LabelMix::ModelShapes);
        QCOMPARE(std::string(labelMixName(LabelMix::ModelShapes)), std::string("models"));
    }

    // Catches batches that draw from one label set only, and a validation score that averages a
    // weak set away instead of reporting the weaker one.
    void batchesDrawFromEveryLabelSetInTurn() {
        QTemporaryDir dir;
        const std::string networks = dir.filePath("networks.jsonl").toStdString(),
                          compiled = dir.filePath("compiled.jsonl").toStdString();
        saveLabelSet(buildLabelSet({.train = 3, .validation = 1, .secondsPerStep = 5}, [](const std::string&) {}), networks);
        saveLabelSet(smallCompiledLabelSet(), compiled);
        TopoformerTrainConfig c;
        c.labels = networks + "," + compiled;
        c.batch = 4;
        const TopoformerConfig model = tinyConfig();
        const TopoformerData data(c, model, [](const std::string&) {});
        for (std::int64_t step = 0; step < 3; ++step) {
            const std::vector<Prepared> batch = data.batch(step, 7);
            for (size_t b = 0; b < batch.size(); ++b)
                QCOMPARE(batch[b].label->spec.family.rfind("hlo-", 0) == 0, b % 2 == 1);
        }
        QCOMPARE(data.validation().size(), size_t{2});
        std::vector<double> peaks = data.reference();
        peaks[1] *= 1.10;   // 10 % above on the compiled set's one step, at the optimum on the other
        QVERIFY(std::abs(data.meanGap(peaks) - 10.0) < 1e-9);
    }
};

SCHEDLAB_TEST_MAIN(topoformerimitation, TestTopoformerImitation)
#include "tst_topoformerimitation.moc"
