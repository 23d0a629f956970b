// SPDX-License-Identifier: MIT
// REGAL's networks and training (models/regal): a disjoint-union batch gives each graph what it
// gets alone; the mean aggregation by hand on a two-node graph; the actions' log-probability
// against a hand sum; REINFORCE's sign (one step raises the log-probability of the draw with the
// higher reward); a short seeded training run is reproducible and resumes bit for bit; the
// shipped weights load and beat plain BRKGA on ResNet-50's training step, where an untrained
// policy does not.
#include "models/regal/network.h"
#include "models/regal/run.h"
#include "models/regal/sampling.h"
#include "models/regal/training.h"

#include "core/generators/generators.h"
#include "core/optimizer/optimizer.h"
#include "core/regal/dataset.h"
#include "core/regal/features.h"
#include "core/regal/search.h"
#include "models/encoder/encoder.h"
#include "models/register.h"

#include <QTemporaryDir>
#include <QTest>

#include <torch/torch.h>

#include <cmath>
#include <filesystem>

using namespace sl;
using namespace sl::regal;

namespace {

GraphFeatures featuresOf(const char* family, int nodes, std::uint64_t seed) {
    const GeneratedInstance inst = generateInstance(family, nodes, seed);
    return computeFeatures(regalProblem(inst.graph, 2, Objective::Memory), {.budget = 200, .seed = seed});
}

NetworkConfig smallConfig() {
    NetworkConfig c;
    c.rounds = 4;
    return c;
}

} // namespace

class TestRegalModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { torch::manual_seed(3); }

    void configRoundTripsAndOldFilesDefault() {
        NetworkConfig c = smallConfig();
        c.learnsPlacement = false;
        c.k = 3;
        const NetworkConfig back = NetworkConfig::fromJson(c.toJson());
        QCOMPARE(back.learnsPlacement, false);
        QCOMPARE(back.learnsScheduling, true);
        QCOMPARE(back.k, 3);
        QCOMPARE(back.rounds, 4);
        // A file written before the field existed steers both key types.
        std::string old = c.toJson();
        old.replace(old.find("\"learns_placement\":false,"), std::string("\"learns_placement\":false,").size(), "");
        QCOMPARE(NetworkConfig::fromJson(old).learnsPlacement, true);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NetworkConfig::fromJson("{\"devices\": 2}"));
    }

    void batchingIsInvisible() {
        const GraphFeatures a = featuresOf("layered", 30, 1), b = featuresOf("erdos-renyi-gfn", 25, 2);
        RegalPolicy policy(smallConfig());
        RegalBaseline baseline(smallConfig());
        torch::NoGradGuard noGrad;
        const torch::Tensor alone = policy->forward(makeBatch({&b})).logits;
        const GraphBatch both = makeBatch({&a, &b});
        const torch::Tensor inBatch = policy->forward(both).logits.slice(0, a.ops, a.ops + b.ops);
        QVERIFY(torch::allclose(alone, inBatch, 1e-5, 1e-6));
        const torch::Tensor bl = baseline->forward(both);
        QCOMPARE(bl.size(0), 2);
        QVERIFY(std::abs(bl[1].item<float>() - baseline->forward(makeBatch({&b}))[0].item<float>()) < 1e-5);
    }

    void logProbabilityIsTheSumOverHeads() {
        const GraphFeatures f = featuresOf("layered", 12, 5);
        RegalPolicy policy(smallConfig());
        const GraphBatch batch = makeBatch({&f});
        const PolicyOutput out = policy->forward(batch);
        Rng rng(1);
        const std::vector<Actions> actions = chooseActions(out, batch, policy->config(), rng);
        const torch::Tensor logSoftmax = torch::log_softmax(out.logits, -1);
        double expected = 0;
        const Actions& a = actions[0];
        for (int op = 0; op < a.ops; ++op)
            for (int q = 0; q < 3; ++q) {
                expected += logSoftmax[op][2 * q][a.mean[a.index(op, q)]].item<double>();
                expected += logSoftmax[op][2 * q + 1][a.variance[a.index(op, q)]].item<double>();
            }
        QCOMPARE_LE(std::abs(logProbability(out, batch, actions)[0].item<double>() - expected), 1e-3);
        // Greedy actions are each head's argmax.
        const Actions g = chooseActions(out, batch, policy->config(), rng, true)[0];
        QCOMPARE(static_cast<std::int64_t>(g.mean[g.index(0, 2)]), out.logits[0][4].argmax().item<std::int64_t>());
    }

    void reinforceStepFavoursTheBetterDraw() {
        // Two draws for one graph, rewards -0.9 (better) and -1.1: one step of the training loss
        // must raise log p of the first and lower log p of the second.
        const GraphFeatures f = featuresOf("layered", 12, 6);
        RegalPolicy policy(smallConfig());
        const GraphBatch batch = makeBatch({&f, &f});
        Rng rng(2);
        const std::vector<Actions> actions = chooseActions(policy->forward(batch), batch, policy->config(), rng);
        torch::optim::SGD sgd(policy->parameters(), 0.05);
        const torch::Tensor before = logProbability(policy->forward(batch), batch, actions).detach();
        const torch::Tensor reward = torch::tensor({-0.9f, -1.1f});
        const torch::Tensor loss = reinforceLoss(logProbability(policy->forward(batch), batch, actions), reward,
                                                 torch::full({2}, -1.0f), leaveOneOut(reward, 2), 0.0);
        sgd.zero_grad();
        loss.backward();
        sgd.step();
        const torch::Tensor after = logProbability(policy->forward(batch), batch, actions).detach();
        QVERIFY(after[0].item<double>() > before[0].item<double>());
        QVERIFY(after[1].item<double>() < before[1].item<double>());
    }

    void optimizerIsReproducibleForAnyThreadCountAndCancels() {
        QTemporaryDir dir;
        const std::string weights = (dir.path() + "/r.slw").toStdString();
        savePolicy(RegalPolicy(smallConfig()), weights);
        registerNeuralOptimizers();
        const GeneratedInstance inst = generateInstance("nn", 30, 12);
        const Problem p = regalProblem(inst.graph, 2, Objective::Memory);
        RunOptions o;
        o.seed = 4;
        o.budget = 1500;
        o.strings["weights"] = weights;
        const auto run = [&](int threads, std::stop_token stop = {}) {
            o.threads = threads;
            return OptimizerRegistry::instance().create("regal")->run(p, o, {}, stop);
        };
        const RunResult one = run(1), two = run(2);
        QCOMPARE(one.cost, two.cost);
        QCOMPARE(one.schedule.order, two.schedule.order);
        QCOMPARE(one.evaluations, std::int64_t(1500));
        // The convergence curve has a point per generation of both runs (feature run 120 = 100 + 20,
        // learned run 1,380 = 100 + 14 x 90 + 20: 2 + 16 statuses), at their evaluation counts.
        // Catches points thinned by the progress throttle, all drawn at 0 evaluations, or a curve
        // that starts after the feature run.
        QCOMPARE_GE(one.history.size(), std::size_t(18));
        QCOMPARE(one.history.front().evaluations, std::int64_t(100));
        for (std::size_t i = 1; i < one.history.size(); ++i) {
            QCOMPARE_GE(one.history[i].evaluations, one.history[i - 1].evaluations);
            QCOMPARE_LE(one.history[i].best, one.history[i - 1].best);
        }
        std::stop_source cancelled;
        cancelled.request_stop();
        const RunResult stopped = run(1, cancelled.get_token());
        QVERIFY(stopped.cancelled);
        QVERIFY(stopped.evaluations < 1500);
        // Another device count than the model's is refused with a message naming both.
        const Problem four = regalProblem(inst.graph, 4, Objective::Memory);
        o.threads = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, OptimizerRegistry::instance().create("regal")->run(four, o, {}, {}));
    }

    void shippedWeightsBeatBrkgaOnResNet50sTrainingStep() {
        // ResNet-50's training step at its own tensor sizes (training saw only noisy copies):
        // over three seeds at 5,000 evaluations the shipped weights find a lower mean peak than
        // plain BRKGA, and an untrained policy of the same shape does not (so the test needs the
        // training). On generated held-out graphs REGAL does not beat BRKGA: docs/regal.md.
        registerCoreOptimizers();
        registerNeuralOptimizers();
        const std::string shipped = (std::filesystem::path(models::modelsDir()) / "regal-memory.slw").string();
        QVERIFY2(std::filesystem::exists(shipped), "models/weights/regal-memory.slw is missing");
        QTemporaryDir dir;
        const std::string untrained = (dir.path() + "/untrained.slw").toStdString();
        torch::manual_seed(1);
        savePolicy(RegalPolicy(loadPolicy(shipped)->config()), untrained);
        DatasetSpec spec;
        spec.families.clear();
        spec.onnxFiles = {std::string(SCHEDLAB_TEST_DATA) + "/onnx/light_resnet50.onnx"};
        spec.onnxCopies = 1;
        const Problem p = makeDataset(spec, Split::HeldOut).front().problem;
        double plain = 0, learned = 0, random = 0;
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            RunOptions o;
            o.seed = seed;
            o.budget = 5000;
            plain += OptimizerRegistry::instance().create("brkga")->run(p, o, {}, {}).cost;
            o.strings["weights"] = shipped;
            learned += OptimizerRegistry::instance().create("regal")->run(p, o, {}, {}).cost;
            o.strings["weights"] = untrained;
            random += OptimizerRegistry::instance().create("regal")->run(p, o, {}, {}).cost;
        }
        qInfo("ResNet-50 training step, mean peak over 3 seeds: BRKGA %.3f MB, REGAL %.3f MB, untrained REGAL %.3f MB",
              plain / 3e6, learned / 3e6, random / 3e6);
        // Measured 57.442 MB against 59.948 (BRKGA) and 60.757 (untrained), the same to every digit
        // under ATEN_CPU_CAPABILITY default, avx2 and avx512 and OpenBLAS's Haswell, SkylakeX,
        // Sandybridge and Zen kernels (AMD EPYC, Zen 4): inference only, and REGAL's actions are
        // argmaxes over bins that a last-bit change does not flip here.
        QVERIFY(learned < plain);
        QVERIFY(random > learned);
    }

    void trainingIsSeededAndResumes() {
        QTemporaryDir dir;
        TrainConfig c;
        c.data.families = {"layered"};
        c.data.minNodes = 10;
        c.data.maxNodes = 16;
        c.data.graphs = 4;
        c.validationGraphs = 2;
        c.budget = 150;
        c.featureBudget = 100;
        c.rounds = 2;
        c.steps = 4;
        c.learningRate = 1e-2;
        c.samplesPerGraph = 2;
        c.checkpointEvery = 2;
        c.threads = 2;
        const auto quiet = [](const std::string&) {};
        c.out = (dir.path() + "/a.slw").toStdString();
        trainRegal(c, quiet);
        TrainConfig half = c;
        half.out = (dir.path() + "/b.slw").toStdString();
        half.threads = 1;
        half.steps = 2;
        trainRegal(half, quiet);
        half.steps = 4;
        half.resume = true;
        trainRegal(half, quiet);
        // Same checkpointed weights after 4 steps, uninterrupted on 2 threads or resumed on 1.
        RegalPolicy a(smallConfig()), b(smallConfig());
        a = loadPolicy(c.out + ".ckpt.policy.slw");
        b = loadPolicy(half.out + ".ckpt.policy.slw");
        const auto pa = a->parameters(), pb = b->parameters();
        QCOMPARE(pa.size(), pb.size());
        for (std::size_t i = 0; i < pa.size(); ++i) QVERIFY(torch::equal(pa[i], pb[i]));
        // And training moved them: the untrained policy of the same seed differs.
        torch::manual_seed(c.seed);
        TrainConfig none = c;
        none.steps = 0;
        none.out = (dir.path() + "/c.slw").toStdString();
        trainRegal(none, quiet);
        const auto p0 = loadPolicy(none.out + ".ckpt.policy.slw")->parameters();
        bool moved = false;
        for (std::size_t i = 0; i < pa.size(); ++i) moved |= !torch::equal(pa[i], p0[i]);
        QVERIFY(moved);
    }
};

QTEST_GUILESS_MAIN(TestRegalModels)
#include "tst_regal.moc"
