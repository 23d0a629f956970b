// SPDX-License-Identifier: MIT
// The encode-once GFlowNet (models/gflownet/readyactions.h, readypolicy.h): the incrementally
// kept action features equal a recomputation from scratch after every action (typed devices and
// paid transfers included); its log-probabilities equal the torch head's on the scratch features;
// the training rollout's batched log P_F equals the sampler's; samples are valid schedules that
// evaluate scores the same, the same for any thread count; one encoder pass per graph and sigma;
// and a second of training brings the mean zeta to the exact log Z of a tiny problem.
#include "common/testmain.h"
#include "models/gflownet/readyrollout.h"
#include "models/gflownet/sampler.h"
#include "models/gflownet/training.h"

#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/gflownet/environment.h"
#include "core/generators/generators.h"
#include "core/heuristics/evaluate.h"
#include "core/heuristics/priorities.h"
#include "core/io/graphio.h"
#include "core/util/random.h"
#include "models/encoder/maththreads.h"
#include "models/weightformat.h"

#include "common/gflownetexact.h"

#include <QTemporaryDir>
#include <QTest>

#include <torch/torch.h>

#include <cmath>

using namespace sl;
using namespace sl::gfn;

namespace {

/// A layered graph on 3 devices, the last of another machine type that some ops need, with
/// transfers that cost time: every branch of the feature updates matters.
Problem typedProblemWithTransfers(int nodes, std::uint64_t seed) {
    auto g = std::make_shared<Graph>(*generateLayered(nodes, seed).graph);
    Rng rng(seed);
    for (OpId v = 0; v < g->opCount(); ++v) {
        g->mutableOp(v).machineType = rng.uniform() < 0.2 ? 1 : 0;
        g->mutableOp(v).deviceDurations.clear();
    }
    g->finalize();
    Problem p;
    p.graph = g;
    p.platform = Platform::identical(3);
    p.platform.devices[2].machineType = 1;
    p.platform.devices.push_back({.name = "d3", .machineType = 1});
    p.platform.link = {.latency = 0.05, .bandwidth = 4e6};
    return p;
}

Problem identicalProblem(int nodes, std::uint64_t seed, int devices) {
    return {generateLayered(nodes, seed).graph, Platform::identical(devices), {}};
}

/// The features of the table's valid slots, keyed like scratchActions (op, device).
std::map<std::pair<OpId, int>, ActionFeatures> tableFeatures(const ReadyActions& t) {
    std::map<std::pair<OpId, int>, ActionFeatures> out;
    for (int s = 0; s < t.slots(); ++s)
        if (t.valid(s)) out[{t.op(s), t.device(s)}] = t.features(s);
    return out;
}

ReadyPolicy seededPolicy(std::uint64_t seed) {
    torch::manual_seed(seed);
    ReadyPolicy net(ReadyPolicyConfig::cpu());
    net->eval();
    return net;
}

std::string savedPolicy(const QTemporaryDir& dir, std::uint64_t seed) {
    const std::string path = dir.filePath("ready.slw").toStdString();
    saveReadyPolicy(seededPolicy(seed), path);
    return path;
}

} // namespace

class TestGflowNetReady : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // After every action of random trajectories, the table's features are the scratch ones bit
    // for bit and it offers exactly the valid actions. Catches a missed refresh (an op whose
    // earliest start moved, the placed device's other actions, a new ready op's arrivals).
    void incrementalFeaturesEqualScratch() {
        ReadyPolicy net = seededPolicy(3);
        for (std::uint64_t seed : {1, 2, 3}) {
            const Problem p = seed == 3 ? identicalProblem(40, seed, 4) : typedProblemWithTransfers(40, seed);
            const ScheduleEnv env(p);
            const GraphTimes times(env);
            const torch::NoGradGuard noGrad;
            ReadyActions table(env, times, plainScorer(net->plainHead(net->encode(readyPolicyInput(env), 0.3))));
            Rng rng(seed + 100);
            int checks = 0;
            while (!table.complete()) {
                const std::vector<ScratchAction> scratch = scratchActions(table.state(), times);
                const auto kept = tableFeatures(table);
                QCOMPARE(kept.size(), scratch.size());
                for (const ScratchAction& a : scratch) {
                    const auto it = kept.find({a.op, a.device});
                    QVERIFY(it != kept.end());
                    QVERIFY(it->second == a.features);
                }
                ++checks;
                table.place(table.draw(rng.uniform()));
            }
            QCOMPARE(checks, 40);
            QVERIFY(validateSchedule(p, table.state().toSchedule()).ok());
        }
    }

    // The table's log P_F of every valid action equals log_softmax of the torch head over the
    // scratch features, in every state of a trajectory (float sums in another order: 1e-4).
    // Catches a plain scorer that drifts from the module (a missing term, beta not applied).
    void logProbabilitiesEqualTheTorchHead() {
        ReadyPolicy net = seededPolicy(5);
        const Problem p = typedProblemWithTransfers(30, 7);
        const ScheduleEnv env(p);
        const GraphTimes times(env);
        const torch::NoGradGuard noGrad;
        const OpTerms terms = net->encode(readyPolicyInput(env), 0.02);
        ReadyActions table(env, times, plainScorer(net->plainHead(terms)));
        Rng rng(9);
        double worst = 0;
        while (!table.complete()) {
            const std::vector<ScratchAction> scratch = scratchActions(table.state(), times);
            std::vector<std::int64_t> ops;
            std::vector<float> features;
            for (const ScratchAction& a : scratch) {
                ops.push_back(a.op);
                features.insert(features.end(), a.features.begin(), a.features.end());
            }
            const torch::Tensor f = torch::from_blob(features.data(), {static_cast<std::int64_t>(ops.size()), kActionFeatures}).clone();
            const torch::Tensor logp = torch::log_softmax(net->logits(terms, torch::tensor(ops), f).to(torch::kDouble), 0);
            for (int s = 0; s < table.slots(); ++s) {
                if (!table.valid(s)) continue;
                size_t k = 0;
                while (scratch[k].op != table.op(s) || scratch[k].device != table.device(s)) ++k;
                worst = std::max(worst, std::abs(table.logProbability(s) - logp[static_cast<std::int64_t>(k)].item<double>()));
            }
            table.place(table.draw(rng.uniform()));
        }
        qInfo("largest |log P_F difference| %.2e", worst);
        QVERIFY(worst < 1e-4);
    }

    // The training loss's batched log P_F (with gradient) equals the sum the sampler drew with,
    // per trajectory, and a gradient reaches the encoder. Catches a wrong segment, a wrong chosen
    // index or a shift applied twice.
    void trainingLogPFEqualsTheSampledOne() {
        ReadyPolicy net = seededPolicy(11);
        net->train();
        {   // the heads' last layers start at 0 (the untrained model is the prior): give them weights,
            // so that a gradient can reach the encoder
            const torch::NoGradGuard noGrad;
            for (auto& item : net->named_parameters())
                if (item.key() == "out.weight" || item.key() == "op_score.weight") item.value().normal_(0, 0.3);
        }
        const Problem p = identicalProblem(25, 4, 3);
        const ScheduleEnv env(p);
        const GraphTimes times(env);
        const OpTerms terms = net->encode(readyPolicyInput(env), 0.1);
        const ReadyRollout r = readyRollout(env, times, plainScorer(net->plainHead(terms)), {1, 2, 3, 4}, 0.1);
        const torch::Tensor logPF = readyLogPF(net, terms, r);
        QCOMPARE(logPF.size(0), std::int64_t{4});
        for (int b = 0; b < 4; ++b) QVERIFY(std::abs(logPF[b].item<double>() - r.sampledLogPF[static_cast<size_t>(b)]) < 1e-3);
        logPF.sum().backward();
        double encoderGrad = 0;
        for (const auto& item : net->named_parameters())
            if (item.key().rfind("encoder.", 0) == 0 && item.value().grad().defined())
                encoderGrad += item.value().grad().abs().sum().template item<double>();
        QVERIFY(encoderGrad > 0);
    }

    // Samples are valid schedules whose makespan is the proxy's, the same for 1 and 2 threads,
    // and the whole call runs the encoder once per graph and sigma. Catches an encoder pass per
    // chunk or per sample, a shared random stream, an invalid terminal.
    void samplerEncodesOnceAndIsReproducible() {
        QTemporaryDir dir;
        GflowNetSampler sampler(savedPolicy(dir, 13));
        const Problem p = identicalProblem(120, 8, 4);
        const auto one = sampler.sample(p, 0.05, 300, 21, {}, {}, 1);
        QCOMPARE(sampler.encoderPasses(), std::int64_t{1});
        std::vector<size_t> sizes;
        const auto two = sampler.sample(p, 0.05, 300, 21, {}, [&](const std::vector<Candidate>& sofar) {
            sizes.push_back(sofar.size());
            return true;
        }, 2);
        QCOMPARE(sampler.encoderPasses(), std::int64_t{2});
        QVERIFY(sizes.size() > 2);   // streamed in chunks
        QCOMPARE(two.size(), one.size());
        std::set<std::vector<int>> distinct;
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(two[i].schedule.placement(), one[i].schedule.placement());
            QCOMPARE(two[i].schedule.order, one[i].schedule.order);
            QVERIFY(validateSchedule(p, one[i].schedule).ok());
            Schedule scored = one[i].schedule;
            QCOMPARE(scoreSchedule(p, scored), one[i].makespan);   // evaluate's cost, to the bit
            distinct.insert(one[i].schedule.placement());
        }
        QVERIFY(distinct.size() > 100);
    }

    // A cancelled run returns its first chunk at once, never a half-drawn sample.
    void stopKeepsWholeSamples() {
        QTemporaryDir dir;
        GflowNetSampler sampler(savedPolicy(dir, 13));
        const Problem p = identicalProblem(400, 8, 4);
        std::stop_source stop;
        stop.request_stop();
        const auto first = sampler.sample(p, 0.05, 1000, 21, stop.get_token(), {}, 2);
        QVERIFY(!first.empty() && first.size() < 1000);
        for (const Candidate& c : first) QVERIFY(validateSchedule(p, c.schedule).ok());
    }

    // 4 independent ops on 2 devices have 120 labelled schedules and an exact log Z. Trained at
    // sigma 0.5 (600 steps, about a second), the on-policy mean zeta reaches log Z and std(zeta) shrinks; the untrained model
    // (on 2 ops per device its inverse temperature starts low: nearly uniform) is far from both. Catches a
    // loss of the wrong sign, a gradient that does not reach the weights, a log P_B or log R
    // that disagrees with the rollout.
    void trainingReachesTheExactPartition() {
        QTemporaryDir dir;
        auto g = std::make_shared<Graph>();
        for (double d : {0.4, 0.3, 0.2, 0.1}) g->addOp({.name = "o" + std::to_string(g->opCount()), .duration = d});
        g->finalize();
        const std::string graph = dir.filePath("g.json").toStdString();
        saveGraphJson(*g, nullptr, graph);
        const Problem p{g, Platform::identical(2), {}};
        const double sigma = 0.5, logZ = exactPartition(p, sigma).logZ;
        GflowNetTrainConfig c;
        c.graphFile = graph;
        c.minDevices = c.maxDevices = 2;
        c.sigmaMin = c.sigmaMax = sigma;
        c.batch = 16;
        c.width = 16;
        c.layers = 1;
        c.headDim = 8;
        c.mlpHidden = 32;
        c.filmDim = 8;
        c.learningRate = 1e-2;
        c.evalSamples = 4;
        c.out = dir.filePath("w.slw").toStdString();
        c.steps = 0;
        trainGflowNet(c, [](const std::string&) {});
        const auto [beforeMean, beforeStd] = zetaStats(c.out, p, sigma);
        c.steps = c.checkpointEvery = c.logEvery = 600;
        QCOMPARE(trainGflowNet(c, [](const std::string&) {}).steps, std::int64_t{600});
        const auto [afterMean, afterStd] = zetaStats(c.out, p, sigma);
        qInfo("log Z %.4f; mean zeta %.4f -> %.4f; std(zeta) %.4f -> %.4f", logZ, beforeMean, afterMean, beforeStd, afterStd);
        // Measured (log Z - mean zeta; std) before: 0.265, 0.687; after: 0.069, 0.317 (ATEN_CPU_CAPABILITY
        // default and avx2), 0.066, 0.303 (avx512), AMD EPYC Zen 4. The bounds sit 0.08 and 0.18
        // beyond the worst, and the untrained model fails both. (The std does not reach 0: the
        // action features do not tell every state apart, so the fit has a floor.)
        qInfo("margins: %+.3f (0.15 - |mean zeta - log Z|), %+.3f (0.5 - std)", 0.15 - std::abs(afterMean - logZ), 0.5 - afterStd);
        QVERIFY(std::abs(beforeMean - logZ) > 0.15 && beforeStd > 0.5);   // the untrained model does not pass
        QVERIFY(std::abs(afterMean - logZ) < 0.15);
        QVERIFY(afterStd < 0.5);
    }

    // The shipped model against list-cp on held-out graphs (ER and layered, 60 ops, 4 devices,
    // seeds outside every training and validation set): the best of 1,000 samples at the default
    // sigma must be at least list-cp's schedule in geometric mean, with no heuristic schedule
    // among the samples. Catches shipped weights that lose to the heuristic they should beat.
    void shippedModelBeatsListScheduling() {
        const std::string weights = defaultWeightsFor({});
        if (weights.empty() || models::readWeightInfo(weights).kind != kReadyWeightKind) QSKIP("no shipped encode-once weights");
        GflowNetSampler sampler(weights);
        double logRatio = 0;
        int graphs = 0;
        for (const char* family : {"erdos-renyi-gfn", "layered-gfn"})
            for (std::uint64_t seed : {901, 902, 903}) {
                const Problem p{generateInstance(family, 60, seed).graph, Platform::identical(4), {}};
                double best = 0;
                for (const Candidate& c : sampler.sample(p, 0.005, 1000, 1, {}, {}, 2)) best = std::max(best, c.speedup);
                PriorityEvaluator list(p);
                const double listSpeedup = ScheduleEnv(p).speedup(list.cost(criticalPathPriorities(p.g())));
                logRatio += std::log(best / listSpeedup);
                ++graphs;
            }
        const double ratio = std::exp(logRatio / graphs);
        qInfo("best of 1,000 / list-cp, geometric mean over %d graphs: %.4f; margin %+.4f", graphs, ratio, ratio - 1);
        // Measured 1.0167 under ATEN_CPU_CAPABILITY default, avx2 and avx512 (AMD EPYC Zen 4): the
        // encoder runs once, and its last-bit differences change no sample's best here.
        QVERIFY(ratio >= 1.0);
    }

private:
    /// Mean and std of zeta over 512 trajectories at `sigma`, fixed seeds.
    static std::pair<double, double> zetaStats(const std::string& weights, const Problem& p, double sigma) {
        ReadyPolicy net = loadReadyPolicy(weights);
        const torch::NoGradGuard noGrad;
        const ScheduleEnv env(p);
        const GraphTimes times(env);
        const OpTerms terms = net->encode(readyPolicyInput(env), sigma);
        std::vector<std::uint64_t> seeds;
        for (std::uint64_t i = 0; i < 512; ++i) seeds.push_back(500 + i);
        const ReadyRollout r = readyRollout(env, times, plainScorer(net->plainHead(terms)), seeds, sigma);
        const torch::Tensor z = torch::tensor(r.logReward, torch::kDouble) + torch::tensor(r.logPB, torch::kDouble) -
                                readyLogPF(net, terms, r);
        return {z.mean().item<double>(), z.std(/*unbiased=*/false).item<double>()};
    }
};

SCHEDLAB_TEST_MAIN(gflownetready, TestGflowNetReady)
#include "tst_gflownetready.moc"
