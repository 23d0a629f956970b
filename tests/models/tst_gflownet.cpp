// SPDX-License-Identifier: MIT
// The GFlowNet model (models/gflownet): the LV and TB losses on a two-trajectory case by hand, the
// reward of the rollouts, masked log-probabilities, FiLM identity at initialisation, sampler
// validity and reproducibility, and training that works: a short run raises the mean sampled
// speedup and lowers std(zeta) against the same untrained model (paired, fixed seeds), and on 4
// independent ops / 2 devices (120 schedules, enumerated) mean zeta approaches the exact log Z.
#include "common/testmain.h"
#include "models/gflownet/loss.h"
#include "models/gflownet/policy.h"
#include "models/gflownet/rollout.h"
#include "models/gflownet/sampler.h"
#include "models/gflownet/training.h"

#include "core/costmodel/validator.h"
#include "core/gflownet/environment.h"
#include "core/generators/generators.h"
#include "core/io/graphio.h"

#include "core/analysis/diversity.h"
#include "core/optimizer/candidates.h"
#include "models/encoder/encoder.h"
#include "models/encoder/maththreads.h"

#include <QTemporaryDir>

#include "common/gflownetexact.h"
#include "common/workedexample.h"

#include <QTest>

#include <torch/torch.h>

#include <cmath>
#include <filesystem>
#include <numeric>
#include <functional>
#include <set>
#include <stdexcept>
#include <thread>

using namespace sl;
using namespace sl::gfn;

namespace {

Problem independentOps(const std::vector<double>& durations, int devices) {
    auto g = std::make_shared<Graph>();
    for (double d : durations) g->addOp({.name = "o" + std::to_string(g->opCount()), .duration = d});
    g->finalize();
    Problem p;
    p.graph = g;
    p.platform = Platform::identical(devices);
    return p;
}

/// The worked example of the proxy's eq. 2 (Zhang et al. 2023, §2.2; docs/gflownet.md, 'The per-state
/// architecture as implemented'; tests/common/workedexample.h): rho = (2, 1, 3, 1), m = 2.
Problem workedExample() { return reference::gflownetWorkedExample(); }

std::vector<std::uint64_t> seeds(int count, std::uint64_t base) {
    std::vector<std::uint64_t> s;
    for (int i = 0; i < count; ++i) s.push_back(base + static_cast<std::uint64_t>(i));
    return s;
}

struct ZetaStats {
    double mean = 0, std = 0, meanSpeedup = 0;
};

/// zeta and U over `count` on-policy samples at `sigma` (no gradient).
ZetaStats zetaStats(GflowNetPolicy& net, const Problem& p, double sigma, int count) {
    torch::NoGradGuard noGrad;
    const ScheduleEnv env(p);
    RolloutSpec spec;
    spec.sigma = sigma;
    spec.seeds = seeds(count, 9000);
    const Rollout r = rollout(net, env, graphMasks(p.g()), spec);
    const torch::Tensor z = zeta(torch::tensor(r.logReward, torch::kDouble), r.logPF, r.logPB);
    ZetaStats s{z.mean().item<double>(), z.std(false).item<double>(), 0};
    for (double u : r.speedup) s.meanSpeedup += u / count;
    return s;
}

/// zeta and U under P_F exactly, for a problem small enough to walk every trajectory (4 ops on 2
/// devices: 384): each trajectory's zeta weighted by its probability, no sample drawn. A verdict on
/// these numbers does not ride on which trajectories a network happened to draw.
ZetaStats exactZetaStats(GflowNetPolicy& net, const Problem& p, double sigma, bool uniformBackward = false) {
    torch::NoGradGuard noGrad;
    const ScheduleEnv env(p);
    const models::EncoderInput masks = graphMasks(p.g());
    const torch::Tensor logSigma = torch::full({1}, std::log(sigma), torch::kFloat);
    const int m = env.devices();
    std::vector<double> logPF, logPB, logR, speedups;
    PartialSchedule s(env);
    std::function<void(double, double, OpId)> walk = [&](double pf, double pb, OpId last) {
        StateBatch batch;
        encodeStates({s}, batch);
        const StateTensors t = toTensors(batch);
        const PolicyOutput out = net->forward(masks, t, logSigma);
        if (last >= 0) {   // log P_B of taking back the action that led here, as rollout() scores it
            int removable = 0;
            for (std::uint8_t r : batch.backwardMask) removable += r;
            pb += uniformBackward ? -std::log(static_cast<double>(removable))
                                  : backwardLogProbs(out, t)[0][last].item<double>();
        }
        if (s.complete()) {
            logPF.push_back(pf);
            logPB.push_back(pb);
            logR.push_back(env.logReward(s.makespan(), sigma));
            speedups.push_back(env.speedup(s.makespan()));
            return;
        }
        const torch::Tensor lpf = forwardLogProbs(out, t)[0].to(torch::kDouble).contiguous();
        for (int a = 0; a < static_cast<int>(lpf.size(0)); ++a) {
            if (!batch.forwardMask[static_cast<size_t>(a)]) continue;
            s.add(a / m, a % m);
            walk(pf + lpf[a].item<double>(), pb, a / m);
            s.remove(a / m);
        }
    };
    walk(0, 0, -1);
    const torch::Tensor z = zeta(torch::tensor(logR, torch::kDouble), torch::tensor(logPF, torch::kDouble),
                                 torch::tensor(logPB, torch::kDouble));
    const torch::Tensor w = torch::tensor(logPF, torch::kDouble).exp();
    const double total = w.sum().item<double>();
    if (std::abs(total - 1) > 1e-6) throw std::logic_error("the walk missed trajectories: P_F sums to " + std::to_string(total));
    ZetaStats st;
    st.mean = (w * z).sum().item<double>() / total;
    st.std = std::sqrt((w * (z - st.mean).pow(2)).sum().item<double>() / total);
    st.meanSpeedup = (w * torch::tensor(speedups, torch::kDouble)).sum().item<double>() / total;
    return st;
}

GflowNetTrainConfig tinyTraining(const std::string& graphFile, int devices, const std::string& out) {
    GflowNetTrainConfig c;
    c.architecture = "per-state";
    c.sigmaMin = 0.01;   // the range these tests were measured with
    c.sigmaMax = 1.0;
    c.graphFile = graphFile;
    c.minDevices = c.maxDevices = devices;
    c.batch = 16;
    c.width = 32;
    c.layers = 1;
    c.headDim = 8;
    c.mlpHidden = 64;
    c.filmDim = 16;
    c.logEvery = 1000;
    c.checkpointEvery = 100000;
    c.evalSamples = 8;
    c.learningRate = 3e-3;   // a few seconds of training (the paper's 1e-3 takes longer)
    c.out = out;
    return c;
}

void quiet(const std::string&) {}

/// The untrained and the trained policy of one tiny single-graph run on `p` at a fixed sigma
/// (600 steps; `adjust` sets the loss options). `dir` keeps the files (TB's log Z checkpoint).
struct TrainedPair {
    GflowNetPolicy before{nullptr}, after{nullptr};
    GflowNetTrainConfig config;
};
TrainedPair trainAtSigma(const Problem& p, double sigma, const QTemporaryDir& dir,
                         const std::function<void(GflowNetTrainConfig&)>& adjust = {}) {
    const std::string graph = dir.filePath("g.json").toStdString();
    saveGraphJson(p.g(), nullptr, graph);
    TrainedPair t;
    t.config = tinyTraining(graph, 2, dir.filePath("w.slw").toStdString());
    if (adjust) adjust(t.config);
    t.config.sigmaMin = t.config.sigmaMax = sigma;
    t.config.steps = 0;
    trainGflowNet(t.config, quiet);
    t.before = loadPolicy(t.config.out);
    t.config.steps = 600;
    trainGflowNet(t.config, quiet);
    t.after = loadPolicy(t.config.out);
    return t;
}


} // namespace

class TestGflowNet : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { torch::manual_seed(1); }

    // zeta = (-1 - 0.5 + 2, -3 + 0 + 1) = (0.5, -2), mean -0.75: LV = 1.25^2 = 1.5625 and
    // dLV/dzeta = 2 (zeta - mean) / 2 = (1.25, -1.25); TB with log Z = 1: (0.5^2 + 3^2) / 4 = 2.3125.
    // Catches a sign slip in Eq. 7, a missing square or mean, a detached mean that changes the value.
    void lossesOnTwoTrajectoriesByHand() {
        const torch::Tensor logR = torch::tensor({-1.0, -3.0}, torch::kDouble);
        const torch::Tensor logPF = torch::tensor({-2.0, -1.0}, torch::kDouble).requires_grad_(true);
        const torch::Tensor logPB = torch::tensor({-0.5, 0.0}, torch::kDouble);
        const torch::Tensor z = zeta(logR, logPF, logPB);
        QCOMPARE(z[0].item<double>(), 0.5);
        QCOMPARE(z[1].item<double>(), -2.0);
        const torch::Tensor lv = logPartitionVarianceLoss(z);
        QCOMPARE(lv.item<double>(), 1.5625);
        lv.backward();
        // d zeta / d logPF = -1
        QCOMPARE(logPF.grad()[0].item<double>(), -1.25);
        QCOMPARE(logPF.grad()[1].item<double>(), 1.25);
        QCOMPARE(trajectoryBalanceLoss(torch::tensor(1.0, torch::kDouble), z.detach()).item<double>(), 2.3125);
    }

    // The rollouts' reward is log R = (U - m) / sigma with U = sum rho / T (7 / T here, m = 2), and
    // s1 -> s0 has log P_B = 0 (one parent). Catches a reward on T instead of U, a missing / sigma,
    // or log P_B counted at s1.
    void rolloutRewardAndProbabilities() {
        const Problem p = workedExample();
        const ScheduleEnv env(p);
        GflowNetPolicy net(PolicyConfig::cpu());
        torch::NoGradGuard noGrad;
        RolloutSpec spec;
        spec.sigma = 0.25;
        spec.seeds = seeds(40, 1);
        const Rollout r = rollout(net, env, graphMasks(p.g()), spec);
        QCOMPARE(static_cast<int>(r.finals.size()), 40);
        for (size_t i = 0; i < r.finals.size(); ++i) {
            const double t = r.finals[i].makespan();
            QCOMPARE(r.speedup[i], 7.0 / t);
            QCOMPARE(r.logReward[i], (7.0 / t - 2.0) / 0.25);
            QVERIFY(std::abs(std::exp(r.logReward[i]) - std::exp((7.0 / t - 2.0) / 0.25)) < 1e-15);
            QVERIFY(r.logPF[static_cast<std::int64_t>(i)].item<double>() < 0);
        }
        // A one-action trajectory: log P_B = 0 exactly; log P_F = log of one of 2 x 2 actions' probabilities.
        const Problem one = independentOps({1.0}, 3);
        const ScheduleEnv env1(one);
        spec.seeds = seeds(5, 7);
        const Rollout r1 = rollout(net, env1, graphMasks(one.g()), spec);
        for (int i = 0; i < 5; ++i) QCOMPARE(r1.logPB[i].item<double>(), 0.0);
    }

    // Masked log-softmax: probabilities of the valid actions sum to 1, invalid ones are exactly 0.
    // Catches a softmax over all N x m entries or a mask applied after the softmax.
    void logProbabilitiesAreMaskedAndNormalised() {
        const Problem p = workedExample();
        const ScheduleEnv env(p);
        PartialSchedule s(env);
        s.add(0, 0);
        s.add(1, 1);
        s.add(2, 0);
        StateBatch b;
        encodeStates({PartialSchedule(env), s}, b);
        const StateTensors t = toTensors(b);
        GflowNetPolicy net(PolicyConfig::cpu());
        torch::NoGradGuard noGrad;
        const PolicyOutput out = net->forward(graphMasks(p.g()), t, torch::full({1}, std::log(0.1)));
        const torch::Tensor pf = forwardLogProbs(out, t).exp();
        const torch::Tensor pb = backwardLogProbs(out, t).exp();
        for (int i = 0; i < 2; ++i) {
            QVERIFY(std::abs(pf[i].sum().item<double>() - 1) < 1e-5);
            QCOMPARE(pf[i].masked_select(t.forwardMask[i].reshape({-1}).logical_not()).sum().item<double>(), 0.0);
        }
        QCOMPARE(t.forwardMask[0].sum().item<std::int64_t>(), std::int64_t{4});   // ops {1, 2} x 2 devices
        QCOMPARE(t.forwardMask[1].sum().item<std::int64_t>(), std::int64_t{2});   // op 4 x 2 devices
        QCOMPARE(pb[1][2].item<double>(), 1.0);                                     // only op 3 is removable
        // Node features of op 3 in s: start 2 / (7 / 2), device one-hot slot 0, removable, scheduled.
        const float* f = b.nodes.data() + (4 + 2) * kNodeFeatures;
        QCOMPARE(f[0], 1.0f);
        QCOMPARE(f[1], static_cast<float>(2.0 / 3.5));
        QCOMPARE(f[2], 1.0f);
        QCOMPARE(f[2 + kDeviceSlots + 1], 1.0f);
        QCOMPARE(f[2 + kDeviceSlots + 2], 1.0f);
        QCOMPARE(b.nodes[3 * kNodeFeatures + 1], -1.0f);   // unscheduled in s0: -1
    }

    // Identity FiLM at initialisation: the same weights without FiLM give the same embedding at
    // any temperature; after a change of the FiLM weights the temperature matters. Catches a
    // scale initialised at 0 or a shift not at 0, or FiLM not applied.
    void filmStartsAsTheIdentity() {
        models::EncoderConfig plain = PolicyConfig::cpu().encoder;
        plain.filmDim = 0;
        models::EncoderConfig film = PolicyConfig::cpu().encoder;
        models::TopoformerEncoder a(plain), b(film);
        torch::NoGradGuard noGrad;
        auto bParams = b->named_parameters();
        for (const auto& p : a->named_parameters()) bParams[p.key()].copy_(p.value());
        const Problem p = workedExample();
        models::EncoderInput in = graphMasks(p.g());
        in.x = torch::rand({3, 4, kNodeFeatures});
        const torch::Tensor ha = a->forward(in);
        for (double sigma : {0.005, 0.1, 1.0}) QVERIFY(torch::equal(ha, b->forward(in, torch::full({1}, std::log(sigma)))));
        bParams["layer0_film_shift.weight"].normal_();
        QVERIFY(!torch::allclose(b->forward(in, torch::full({1}, std::log(0.01))), b->forward(in, torch::full({1}, std::log(1.0)))));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, b->forward(in));
    }

    // Samples are valid schedules; sample i depends on (seed, i) only: a longer run repeats the
    // shorter one's samples (70 crosses the 64-sample chunk) and thread settings change nothing.
    // Catches a shared random stream, a chunk-dependent draw or an invalid terminal.
    void samplerIsValidAndReproducible() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("g.slw").toStdString();
        savePolicy(GflowNetPolicy(PolicyConfig::cpu()), path);
        GflowNetSampler sampler(path);
        Problem p = workedExample();
        p.platform = Platform::identical(3);
        const auto many = sampler.sample(p, 0.1, 70, 42);
        at::set_num_threads(2);
        const auto few = sampler.sample(p, 0.1, 10, 42);
        at::set_num_threads(1);
        QCOMPARE(many.size(), size_t{70});
        std::set<std::vector<int>> distinct;
        for (size_t i = 0; i < many.size(); ++i) {
            const ValidationReport v = validateSchedule(p, many[i].schedule);
            QVERIFY(v.ok());
            QCOMPARE(many[i].speedup, 7.0 / many[i].schedule.makespan);
            distinct.insert(many[i].schedule.placement());
            if (i < few.size()) {
                QCOMPARE(few[i].schedule.placement(), many[i].schedule.placement());
                QCOMPARE(few[i].schedule.order, many[i].schedule.order);
            }
        }
        QVERIFY(distinct.size() > 3);   // it samples, it does not repeat one schedule
        std::vector<double> speedups;
        for (const auto& x : many) speedups.push_back(x.speedup);
        const std::vector<int> top = topKByProxy(speedups, 5);
        QCOMPARE(top.size(), size_t{5});
        for (size_t i = 1; i < top.size(); ++i) QVERIFY(many[static_cast<size_t>(top[i - 1])].speedup >= many[static_cast<size_t>(top[i])].speedup);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sampler.sample(p, 0, 1, 1));
    }

    // The sampler's rollout (n passes, no backward head, direct attention) draws exactly the
    // trajectories of the training rollout for the same seeds: same chains, same makespans, and
    // its log-probabilities are forward()'s bit for bit.
    void samplingRolloutDrawsWhatTheTrainingRolloutDraws() {
        torch::manual_seed(8);
        GflowNetPolicy net(PolicyConfig::cpu());
        net->eval();
        const Problem p{generateLayered(22, 4).graph, Platform::identical(3), {}};
        const ScheduleEnv env(p);
        const torch::NoGradGuard noGrad;
        const models::MathThreads pin(1);
        RolloutSpec spec;
        spec.sigma = 0.05;
        spec.seeds = seeds(12, 77);
        const Rollout slow = rollout(net, env, graphMasks(p.g()), spec);
        const auto fast = sampleTrajectories(net, env, net->prepareSampling(graphMasks(p.g()), 12, 0.05), spec.seeds);
        QCOMPARE(fast.size(), slow.finals.size());
        for (size_t i = 0; i < fast.size(); ++i) {
            QVERIFY(fast[i] == slow.finals[i]);
            QCOMPARE(fast[i].makespan(), slow.makespan[i]);
        }
        // and the probabilities it draws from are forward()'s bit for bit, in a middle state
        std::vector<PartialSchedule> states(12, PartialSchedule(env));
        for (size_t i = 0; i < states.size(); ++i)
            for (OpId v : fast[i].env().graph().topologicalOrder())
                if (fast[i].start(v) < 0.4 * fast[i].makespan()) states[i].add(v, fast[i].device(v));
        StateBatch batch;
        encodeStates(states, batch);
        const StateTensors t = toTensors(batch);
        const torch::Tensor reference =
            forwardLogProbs(net->forward(graphMasks(p.g()), t, torch::full({1}, std::log(0.05), torch::kFloat)), t);
        QVERIFY(torch::equal(net->sampleLogProbs(net->prepareSampling(graphMasks(p.g()), 12, 0.05), batch), reference));
    }

    // Chunks on several threads: the same samples in the same order as on one; a callback that
    // says stop after the first chunk, or a stop requested up front, leaves exactly the first chunk.
    void samplerThreadsGiveTheSameSamplesAndStop() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("g.slw").toStdString();
        torch::manual_seed(9);
        savePolicy(GflowNetPolicy(PolicyConfig::cpu()), path);
        GflowNetSampler sampler(path);
        const Problem p{generateLayered(12, 2).graph, Platform::identical(3), {}};
        const auto one = sampler.sample(p, 0.2, 150, 5, {}, {}, 1);
        const std::thread::id caller = std::this_thread::get_id();
        QCOMPARE(one.size(), size_t{150});
        for (int threads : {2, 3}) {
            std::vector<size_t> sizes;
            bool here = true;
            const auto many = sampler.sample(p, 0.2, 150, 5, {}, [&](const std::vector<Candidate>& sofar) {
                sizes.push_back(sofar.size());
                here = here && std::this_thread::get_id() == caller;
                return true;
            }, threads);
            QCOMPARE(sizes, (std::vector<size_t>{64, 128, 150}));   // in chunk order
            QVERIFY(here);                                          // on the calling thread
            QCOMPARE(many.size(), one.size());
            for (size_t i = 0; i < many.size(); ++i) {
                QCOMPARE(many[i].schedule.placement(), one[i].schedule.placement());
                QCOMPARE(many[i].schedule.order, one[i].schedule.order);
            }
            const auto first = sampler.sample(p, 0.2, 150, 5, {}, [](const std::vector<Candidate>&) { return false; }, threads);
            QCOMPARE(first.size(), size_t{64});
            std::stop_source stop;
            stop.request_stop();
            const auto stopped = sampler.sample(p, 0.2, 150, 5, stop.get_token(), {}, threads);
            QCOMPARE(stopped.size(), size_t{64});
            QCOMPARE(stopped.back().schedule.placement(), one[63].schedule.placement());
        }
    }

    // The shipped single-graph model on its graph (Zhang et al. 2023, §5.2, Fig. 3): at sigma = 0.005
    // the samples are better on average and less diverse than at sigma = 1. Untrained weights fail
    // it: FiLM starts as the identity, so sigma changes nothing until training teaches it to.
    void shippedModelTradesQualityForDiversity() {
        namespace fs = std::filesystem;
        const fs::path weights = fs::path(sl::models::modelsDir()) / "gflownet-layered24.slw";
        const fs::path graph = fs::path(sl::models::modelsDir()).parent_path().parent_path() / "resources" / "examples" /
                               "gflownet-layered24.json";
        if (!fs::exists(weights) || !fs::exists(graph)) QSKIP("shipped weights or example not found");
        const Problem p{loadGraph(graph.string()).graph, Platform::identical(4), {}};
        GflowNetSampler sampler(weights.string());
        auto stats = [&](double sigma) {
            const auto c = sampler.sample(p, sigma, 64, 7);
            std::vector<Schedule> schedules;
            double sum = 0;
            for (const auto& x : c) {
                sum += x.speedup;
                schedules.push_back(x.schedule);
            }
            return std::tuple{sum / static_cast<double>(c.size()), distinctSchedules(schedules).upToRelabelling,
                              diversity(schedules).ged};
        };
        const auto [coldMean, coldDistinct, coldGed] = stats(0.005);
        const auto [hotMean, hotDistinct, hotGed] = stats(1.0);
        qInfo("sigma 0.005: mean U %.4f, %d distinct up to relabelling, GED %.1f; sigma 1: %.4f, %d, %.1f", coldMean,
              coldDistinct, coldGed, hotMean, hotDistinct, hotGed);
        QVERIFY(coldMean > hotMean + 0.3);   // docs/gflownet.md: about 3.2 against 2 at 1,000 samples
        QVERIFY(coldMean > 3.1);             // list-cp reaches 3.2785 on this graph
        // (3.2043 and the rest to every digit printed under ATEN_CPU_CAPABILITY default, avx2,
        // avx512 and four OpenBLAS kernels, AMD EPYC Zen 4: sampling, no training)
        // Fewer distinct schedules does not hold at 64 samples of 24 ops (every sample differs at both
        // temperatures, so a bound on the counts has no slack: one repeated sample on another BLAS
        // would fail it); the samples are closer to each other at the low temperature.
        QVERIFY(coldGed < hotGed);
        qInfo("margins: %+.4f (cold - hot - 0.3), %+.4f (cold - 3.1), %+.1f (GED hot - cold)", coldMean - hotMean - 0.3,
              coldMean - 3.1, hotGed - coldGed);
    }

    // Paired comparison on fixed seeds: the same initial weights (steps 0) against a few seconds
    // of training, on 6 independent ops (2 devices, optimum U = 2). Training must raise the mean
    // sampled U at sigma 0.05 and lower std(zeta). Fails with untrained weights by construction.
    void shortTrainingImproves() {
        QTemporaryDir dir;
        const std::string graph = dir.filePath("g.json").toStdString();
        const Problem p = independentOps({0.9, 0.7, 0.5, 0.4, 0.3, 0.2}, 2);
        saveGraphJson(p.g(), nullptr, graph);
        for (std::uint64_t seed : {1, 2}) {
            GflowNetTrainConfig c = tinyTraining(graph, 2, dir.filePath("w.slw").toStdString());
            c.seed = seed;
            c.steps = 0;
            trainGflowNet(c, quiet);
            GflowNetPolicy before = loadPolicy(c.out);
            c.steps = 150;
            const GflowNetTrainReport rep = trainGflowNet(c, quiet);
            QCOMPARE(rep.steps, std::int64_t{150});
            GflowNetPolicy after = loadPolicy(c.out);
            const ZetaStats b = zetaStats(before, p, 0.05, 128), a = zetaStats(after, p, 0.05, 128);
            qInfo("seed %d: mean U %.4f -> %.4f, std(zeta) %.3f -> %.3f", static_cast<int>(seed), b.meanSpeedup,
                  a.meanSpeedup, b.std, a.std);
            // Measured (mean U gain; std ratio), seeds 1 and 2: +0.25, 0.56 and +0.30, 0.47
            // (ATEN_CPU_CAPABILITY default); +0.24, 0.55 and +0.32, 0.50 (avx2); +0.24, 0.53 and
            // +0.35, 0.43 (avx512), AMD EPYC (Zen 4). The kernels move each by at most 0.05: the
            // bounds sit 0.19 and 0.14 beyond the worst of them.
            qInfo("seed %d margins: %+.3f (U gain - 0.05), %+.3f (0.7 std before - std after)", static_cast<int>(seed),
                  a.meanSpeedup - b.meanSpeedup - 0.05, 0.7 * b.std - a.std);
            QVERIFY(a.meanSpeedup > b.meanSpeedup + 0.05);
            QVERIFY(a.std < 0.7 * b.std);
        }
    }

    // 4 independent ops on 2 labelled devices have 4! * C(5, 1) = 120 schedules; the
    // exact log Z = log sum_x exp((U(x) - 2) / sigma). Trained at that sigma only, the mean zeta
    // approaches log Z and std(zeta) shrinks; the untrained model is far from both (checked).
    void tinyExactCheck() {
        const Problem p = independentOps({0.4, 0.3, 0.2, 0.1}, 2);
        const double sigma = 0.5;
        const ExactPartition exact = exactPartition(p, sigma);
        QCOMPARE(exact.terminals, size_t{120});
        const double logZ = exact.logZ;

        QTemporaryDir dir;
        TrainedPair t = trainAtSigma(p, sigma, dir);
        const ZetaStats b = exactZetaStats(t.before, p, sigma), a = exactZetaStats(t.after, p, sigma);
        qInfo("log Z %.4f; E_PF zeta %.4f -> %.4f; std(zeta) %.4f -> %.4f (every trajectory, no sampling)", logZ, b.mean,
              a.mean, b.std, a.std);
        // E_PF and std over every trajectory, so no verdict rides on draws; the training itself
        // samples on-policy and its trajectory follows the kernels. Measured after training
        // (mean zeta - log Z; std): -0.012 to -0.017, 0.153 to 0.185 under OpenBLAS Haswell and
        // Sandybridge x ATEN_CPU_CAPABILITY default and avx2 (docs/reliability.md, Portability),
        // while the untrained model, -0.232 and 0.690, fails both bounds (0.1 and 0.35): catches
        // a loss of the wrong sign or a policy the optimiser never steps.
        qInfo("margins: %+.3f (0.1 - |mean zeta - log Z|), %+.3f (0.35 - std)", 0.1 - std::abs(a.mean - logZ), 0.35 - a.std);
        QVERIFY(std::abs(b.mean - logZ) > 0.1 && b.std > 0.35);   // the untrained model does not pass
        QVERIFY(std::abs(a.mean - logZ) < 0.1);
        QVERIFY(a.std < 0.35);
    }

    // The options: TB with a learned log Z and a uniform P_B also train (paired, same problem as
    // above): std(zeta) falls and the learned log Z moves to the exact one. Catches a TB gradient
    // of the wrong sign or a log Z net left out of the optimiser.
    void trajectoryBalanceWithUniformBackwardTrains() {
        const Problem p = independentOps({0.4, 0.3, 0.2, 0.1}, 2);
        const ScheduleEnv env(p);
        const double sigma = 0.5;
        const double exactLogZ = exactPartition(p, sigma).logZ;
        QTemporaryDir dir;
        TrainedPair t = trainAtSigma(p, sigma, dir, [](GflowNetTrainConfig& c) {
            c.trajectoryBalance = true;
            c.uniformBackward = true;
        });
        const GflowNetTrainConfig& c = t.config;
        GflowNetPolicy& before = t.before;
        GflowNetPolicy& after = t.after;
        LogZNet logZ(after->config().encoder);
        models::loadWeights(*logZ, c.out + ".ckpt.logz.slw", "gflownet-logz");
        StateBatch empty;
        encodeStates({PartialSchedule(env)}, empty);
        torch::NoGradGuard noGrad;
        const double learned =
            logZ->forward(graphMasks(p.g()), toTensors(empty).nodes, torch::full({1}, std::log(sigma))).item<double>();
        // Uniform P_B: zeta of the untrained policy has its own spread; compare the same estimator,
        // over every trajectory (no sampling).
        auto spread = [&](GflowNetPolicy& net) { return exactZetaStats(net, p, sigma, true).std; };
        const double b = spread(before), a = spread(after);
        qInfo("TB: log Z exact %.4f learned %.4f; std(zeta) %.4f -> %.4f", exactLogZ, learned, b, a);
        // Margins measured under OpenBLAS Haswell, Zen and Sandybridge x ATEN_CPU_CAPABILITY
        // default and avx2: +0.18 to +0.26 to the std bound (0.6), +0.21 to +0.30 to the log Z
        // bound (0.3); docs/reliability.md, Portability.
        qInfo("margins: %+.3f (0.6 std before - std after), %+.3f (0.3 - |learned - exact log Z|)", 0.6 * b - a,
              0.3 - std::abs(learned - exactLogZ));
        QVERIFY(a < 0.6 * b);
        QVERIFY(std::abs(learned - exactLogZ) < 0.3);
    }
};

SCHEDLAB_TEST_MAIN(gflownet, TestGflowNet)
#include "tst_gflownet.moc"
