// SPDX-License-Identifier: MIT
// The Topoformer memory method: decoding, Plackett-Luce log-probabilities, training, shipped weights.
#include "common/testmain.h"
#include "models/topoformer/decoding.h"
#include "models/topoformer/model.h"
#include "models/topoformer/optimizer.h"
#include "models/topoformer/register.h"
#include "models/topoformer/training.h"
#include "models/weightfiles.h"

#include "core/exact/exactmemory.h"
#include "core/generators/generators.h"
#include "core/generators/hlotrainingstep.h"
#include "core/graph/traininggraph.h"
#include "core/heuristics/memoryorders.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"

#include <ATen/ATen.h>
#include <torch/optim/adam.h>

#include <QDir>
#include <QTest>

#include <algorithm>
#include <limits>
#include <cmath>
#include <filesystem>
#include <map>

using namespace sl;
using namespace sl::models;

namespace {

bool isTopological(const Graph& g, const std::vector<OpId>& order) {
    if (order.size() != static_cast<size_t>(g.opCount())) return false;
    std::vector<int> pos(static_cast<size_t>(g.opCount()), -1);
    for (size_t i = 0; i < order.size(); ++i) {
        if (order[i] < 0 || order[i] >= g.opCount() || pos[static_cast<size_t>(order[i])] >= 0) return false;
        pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
    }
    for (OpId u = 0; u < g.opCount(); ++u)
        for (OpId v : g.successors(u))
            if (pos[static_cast<size_t>(u)] >= pos[static_cast<size_t>(v)]) return false;
    return true;
}

std::vector<double> randomPriorities(int n, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<double> p(static_cast<size_t>(n));
    for (double& x : p) x = 2 * rng.normal();
    return p;
}

/// Every linear extension of a small graph.
void allOrders(const Graph& g, std::vector<OpId>& prefix, std::vector<int>& deg, std::vector<std::vector<OpId>>& out) {
    if (prefix.size() == static_cast<size_t>(g.opCount())) {
        out.push_back(prefix);
        return;
    }
    for (OpId v = 0; v < g.opCount(); ++v) {
        if (deg[static_cast<size_t>(v)] != 0) continue;
        deg[static_cast<size_t>(v)] = -1;
        for (OpId s : g.successors(v)) --deg[static_cast<size_t>(s)];
        prefix.push_back(v);
        allOrders(g, prefix, deg, out);
        prefix.pop_back();
        for (OpId s : g.successors(v)) ++deg[static_cast<size_t>(s)];
        deg[static_cast<size_t>(v)] = 0;
    }
}

/// Step-clock peak from its definition (Gagrani et al. 2022, §3.2 eqs. 1-3, read as in
/// docs/topoformer.md, 'Choices where the paper is silent'), independent of StepMemory: at step t, the
/// tensors made before t and still read at or after t, plus op t's outputs and parameters.
double definitionPeak(const Graph& g, const std::vector<OpId>& order) {
    std::vector<int> pos(static_cast<size_t>(g.opCount()));
    for (size_t i = 0; i < order.size(); ++i) pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
    double peak = 0;
    for (size_t t = 0; t < order.size(); ++t) {
        double m = g.op(order[t]).paramBytes;
        for (TensorId x = 0; x < g.tensorCount(); ++x) {
            const Tensor& tensor = g.tensor(x);
            const int made = pos[static_cast<size_t>(tensor.producer)];
            bool live = made == static_cast<int>(t);
            for (OpId c : tensor.consumers) live |= made < static_cast<int>(t) && pos[static_cast<size_t>(c)] >= static_cast<int>(t);
            if (live) m += tensor.bytes;
        }
        peak = std::max(peak, m);
    }
    return peak;
}

/// Greedy by a linear scan of the ready ops (no heap): the highest priority, ties to the smaller id.
std::vector<OpId> scanGreedy(const Graph& g, const std::vector<double>& prio) {
    std::vector<int> deg(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) deg[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size());
    std::vector<OpId> order;
    while (order.size() < static_cast<size_t>(g.opCount())) {
        OpId pick = -1;
        for (OpId v = 0; v < g.opCount(); ++v)
            if (deg[static_cast<size_t>(v)] == 0 && (pick < 0 || prio[static_cast<size_t>(v)] > prio[static_cast<size_t>(pick)]))
                pick = v;
        deg[static_cast<size_t>(pick)] = -1;
        for (OpId s : g.successors(pick)) --deg[static_cast<size_t>(s)];
        order.push_back(pick);
    }
    return order;
}

/// A tiny model on 16-24-op graphs: a few seconds for 40 steps.
TopoformerTrainConfig tinyTrainConfig(std::uint64_t seed, std::int64_t steps, const std::string& out) {
    TopoformerTrainConfig c;
    c.minNodes = 16;
    c.maxNodes = 24;
    c.validationGraphs = 4;
    c.validationNodes = 20;
    c.steps = steps;
    c.epochSteps = 20;
    c.learningRate = 1e-3;
    c.relativeAdvantage = true;
    c.width = 32;
    c.layers = 2;
    c.headsPerMask = 1;
    c.seed = seed;
    c.out = out;
    return c;
}

/// Margins of the shipped weights (share of the summed peak). Measured: 10.3 % below random
/// weights (init seed 1), 2.1 % below the best classic order; random weights are 9 % above it.
/// Inference only, so the sums are the same to every digit printed under ATEN_CPU_CAPABILITY
/// default, avx2 and avx512 and OpenBLAS's Haswell, SkylakeX, Sandybridge and Zen kernels (AMD
/// EPYC, Zen 4): a last-bit change of a priority rarely reorders a sample. Catches weights that
/// were not trained (random ones fail both) or not loaded.
constexpr double kTopoformerMarginOverRandom = 0.05;
constexpr double kMarginOverClassic = 0.01;

/// Peak of the topoformer optimizer's sample-16 order with the weights at `weights`, the network's
/// orders alone (no classic candidates: this measures the weights).
double sample16Peak(const GeneratedInstance& inst, const std::string& weights) {
    Problem p{.graph = inst.graph, .platform = inst.platform, .objective = {.kind = Objective::Memory}};
    RunOptions o;
    o.values["samples"] = 16;
    o.values["classic-candidates"] = 0;
    o.strings["weights"] = weights;
    const RunResult r = OptimizerRegistry::instance().create("topoformer")->run(p, o, {}, {});
    if (!isTopological(*inst.graph, r.schedule.order)) throw std::logic_error("not a topological order");
    return r.schedule.peakMemory();
}

/// Randomly initialised weights (init seed 1) of the architecture of the weights at `path`, in a
/// temporary file; its path.
std::string randomWeightsLike(const std::string& path) {
    const QString dir = QDir::tempPath() + "/tst_topoformer_random";
    std::filesystem::create_directories(dir.toStdString());
    const std::string randomPath = (dir + "/random.slw").toStdString();
    at::manual_seed(1);
    saveTopoformer(TopoformerModel(loadTopoformer(path)->config()), randomPath);
    return randomPath;
}

double bestClassic(const Graph& g) {
    double best = kInfinity;
    for (auto* rule : {&dfsOrder, &bfsOrder, &postOrder, &xlaListOrder}) best = std::min(best, orderPeak(g, (*rule)(g)));
    return best;
}

/// Training graphs (SGD and Adam) of the ONNX models in tests/data and of held-out nn graphs.
std::vector<std::pair<std::string, std::shared_ptr<Graph>>> trainingGraphs() {
    std::vector<std::pair<std::string, std::shared_ptr<Graph>>> out;
    std::vector<std::pair<std::string, std::shared_ptr<Graph>>> forward;
    for (const char* model : {"light_bvlc_alexnet", "light_squeezenet", "light_resnet50"})
        forward.emplace_back(model, loadGraph(std::string(SCHEDLAB_TEST_DATA) + "/onnx/" + model + ".onnx").graph);
    for (int i = 0; i < 4; ++i)
        forward.emplace_back("nn " + std::to_string(30 + 20 * i) + " seed " + std::to_string(7100000 + i),
                             generateNetworkLike(30 + 20 * i, 7100000 + static_cast<std::uint64_t>(i)).graph);
    for (const auto& [name, g] : forward)
        for (UpdateRule rule : {UpdateRule::Sgd, UpdateRule::Adam})
            out.emplace_back(name + " " + std::string(updateRuleName(rule)),
                             std::make_shared<Graph>(makeTrainingGraph(*g, {.rule = rule})));
    return out;
}

/// Held-out compiled steps: shapes outside the compiled label set's draws (models/topoformer/labelset.cpp).
std::vector<HloStepSpec> heldOutCompiledSteps() {
    using M = HloStepSpec::Model;
    return {
        {.model = M::Transformer, .layers = 1, .batch = 4, .sequence = 48, .hidden = 192, .heads = 6, .adam = true, .seed = 11},
        {.model = M::Transformer, .layers = 2, .hidden = 96, .heads = 3, .tensorParallel = 3, .seed = 12},
        {.model = M::Transformer, .layers = 1, .hidden = 320, .heads = 5, .adam = true, .bf16 = true, .seed = 13},
        {.model = M::Transformer, .layers = 2, .sequence = 32, .hidden = 128, .heads = 4, .tensorParallel = 2, .adam = true, .seed = 14},
        {.model = M::Mlp, .layers = 3, .batch = 48, .hidden = 300, .adam = true, .seed = 15},
        {.model = M::Mlp, .layers = 5, .hidden = 200, .tensorParallel = 2, .seed = 16},
        {.model = M::Mlp, .layers = 2, .batch = 256, .hidden = 1024, .adam = true, .bf16 = true, .seed = 17},
        {.model = M::Mlp, .layers = 8, .hidden = 64, .seed = 18},
    };
}

RunResult runTopoformer(const std::shared_ptr<Graph>& g, std::map<std::string, double> values, const std::string& weights = {}) {
    Problem p{.graph = g, .platform = Platform::identical(1), .objective = {.kind = Objective::Memory}};
    RunOptions o;
    o.values = std::move(values);
    if (!weights.empty()) o.strings["weights"] = weights;
    return OptimizerRegistry::instance().create("topoformer")->run(p, o, {}, {});
}

} // namespace

class TestTopoformer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void peaksComeFromTheStepClock() {
        // Two chains A1 -> A2, B1 -> B2 with m = 5, 1 (the worked example of docs/topoformer.md,
        // 'Choices where the paper is silent').
        Graph g;
        OpId a1 = g.addOp({.name = "A1"}), a2 = g.addOp({.name = "A2"});
        OpId b1 = g.addOp({.name = "B1"}), b2 = g.addOp({.name = "B2"});
        g.addEdge(a1, a2, 5);
        g.addEdge(b1, b2, 5);
        const TensorId ta = g.addTensor("a2out", a2, 1);
        const TensorId tb = g.addTensor("b2out", b2, 1);
        (void)ta;
        (void)tb;
        g.finalize();
        QCOMPARE(orderPeak(g, std::vector<OpId>{a1, a2, b1, b2}), 6.0);
        QCOMPARE(orderPeak(g, std::vector<OpId>{a1, b1, a2, b2}), 11.0);
        // Beam search with priorities that prefer the bad interleaving still finds 6 (collapse).
        const DecodeResult beam = beamSearch(g, std::vector<double>{1, 0, 0.9, 0}, 2);
        QCOMPARE(beam.peak, 6.0);
    }

    void decodedOrdersAreTopological() {
        for (std::uint64_t seed : {1, 2, 3, 4}) {
            for (const GeneratedInstance& inst : {generateLayered(80, seed), generateErdosRenyi(60, seed)}) {
                const Graph& g = *inst.graph;
                const std::vector<double> prio = randomPriorities(g.opCount(), seed);
                QVERIFY(isTopological(g, greedyOrder(g, prio)));
                Rng rng(seed);
                for (int s = 0; s < 5; ++s) QVERIFY(isTopological(g, sampleOrder(g, prio, rng)));
                // best of 8 = the least definition peak of the same 8 draws
                Rng again(seed + 100), replay(seed + 100);
                const DecodeResult best = bestOfSamples(g, prio, 8, again);
                double least = kInfinity;
                for (int s = 0; s < 8; ++s) least = std::min(least, definitionPeak(g, sampleOrder(g, prio, replay)));
                QVERIFY(isTopological(g, best.order));
                QCOMPARE(best.peak, least);
                const DecodeResult beam = beamSearch(g, prio, 8);
                QVERIFY(isTopological(g, beam.order));
                QCOMPARE(beam.peak, definitionPeak(g, beam.order));
            }
        }
    }

    void greedyTakesTheHighestReadyPriority() {
        const GeneratedInstance inst = generateLayered(60, 7);
        const std::vector<double> prio = randomPriorities(inst.graph->opCount(), 7);
        QCOMPARE(greedyOrder(*inst.graph, prio), scanGreedy(*inst.graph, prio));
        std::vector<double> coarse = prio;   // many exact ties: ids decide
        for (double& x : coarse) x = std::round(x);
        QCOMPARE(greedyOrder(*inst.graph, coarse), scanGreedy(*inst.graph, coarse));
        // equal priorities: ties by smaller id, i.e. Kahn's smallest-id order
        const std::vector<double> flat(static_cast<size_t>(inst.graph->opCount()), 0.0);
        QCOMPARE(greedyOrder(*inst.graph, flat), inst.graph->topologicalOrder());
        // greedy follows the highest ready priority
        Graph g;
        OpId a = g.addOp({.name = "a"}), b = g.addOp({.name = "b"}), c = g.addOp({.name = "c"});
        g.addEdge(a, c);
        g.finalize();
        QCOMPARE(greedyOrder(g, std::vector<double>{0, 1, 5}), (std::vector<OpId>{b, a, c}));
        QCOMPARE(greedyOrder(g, std::vector<double>{2, 1, 0}), (std::vector<OpId>{a, b, c}));
    }

    void logProbIsPlackettLuce() {
        // a -> c, b isolated, equal priorities: P(a, c, b) = 1/2 * 1/2 = 1/4 (eq. 8 of Gagrani et al. 2022).
        Graph g;
        OpId a = g.addOp({.name = "a"}), b = g.addOp({.name = "b"}), c = g.addOp({.name = "c"});
        g.addEdge(a, c);
        g.finalize();
        const std::vector<double> flat{0, 0, 0};
        QVERIFY(std::abs(plackettLuceLogProb(g, flat, std::vector<OpId>{a, c, b}) - std::log(0.25)) < 1e-12);
        QVERIFY(std::abs(plackettLuceLogProb(g, flat, std::vector<OpId>{b, a, c}) - std::log(0.5)) < 1e-12);
        // Probabilities of all linear extensions sum to 1; the tensor log-prob (training) agrees with
        // the formula; sampling frequencies match.
        const GeneratedInstance inst = generateErdosRenyi(7, 3);
        const Graph& h = *inst.graph;
        const std::vector<double> prio = randomPriorities(h.opCount(), 11);
        std::vector<std::vector<OpId>> orders;
        std::vector<OpId> prefix;
        std::vector<int> deg;
        for (OpId v = 0; v < h.opCount(); ++v) deg.push_back(static_cast<int>(h.predecessors(v).size()));
        allOrders(h, prefix, deg, orders);
        QVERIFY(orders.size() > 3);
        double total = 0;
        const at::Tensor y = at::tensor(std::vector<float>(prio.begin(), prio.end()), at::kFloat);
        std::map<std::vector<OpId>, double> prob;
        for (const auto& o : orders) {
            const double lp = plackettLuceLogProb(h, prio, o);
            total += std::exp(lp);
            prob[o] = std::exp(lp);
            // product of per-step ready-set softmaxes, written out directly
            double direct = 0;
            std::vector<int> d2;
            for (OpId v = 0; v < h.opCount(); ++v) d2.push_back(static_cast<int>(h.predecessors(v).size()));
            for (OpId v : o) {
                double z = 0;
                for (OpId u = 0; u < h.opCount(); ++u)
                    if (d2[static_cast<size_t>(u)] == 0) z += std::exp(prio[static_cast<size_t>(u)]);
                direct += prio[static_cast<size_t>(v)] - std::log(z);
                d2[static_cast<size_t>(v)] = -1;
                for (OpId s : h.successors(v)) --d2[static_cast<size_t>(s)];
            }
            QVERIFY(std::abs(direct - lp) < 1e-9);
            const double tensorLp = plackettLuceLogProbTensor(y, o, readySets(h, o)).item<double>();
            QVERIFY2(std::abs(tensorLp - lp) < 1e-4, qPrintable(QString("%1 vs %2").arg(tensorLp).arg(lp)));
        }
        QVERIFY(std::abs(total - 1.0) < 1e-9);
        Rng rng(5);
        std::map<std::vector<OpId>, int> seen;
        const int draws = 20000;
        for (int i = 0; i < draws; ++i) {
            std::vector<std::uint8_t> ready;
            const std::vector<OpId> o = sampleOrder(h, prio, rng, &ready);
            if (i < 20) QVERIFY(ready == readySets(h, o));
            ++seen[o];
        }
        for (const auto& [o, p] : prob) {
            const double freq = static_cast<double>(seen[o]) / draws;
            QVERIFY2(std::abs(freq - p) < 4 * std::sqrt(p * (1 - p) / draws) + 1e-3,
                     qPrintable(QString("frequency %1, probability %2").arg(freq).arg(p)));
        }
    }

    void wideBeamIsExact() {
        // With a beam wider than the number of op sets, collapse makes beam search the exact DP.
        for (std::uint64_t seed : {1, 2, 3}) {
            const GeneratedInstance inst = generateLayered(18, seed);
            const Graph& g = *inst.graph;
            const ExactMemoryResult exact = exactMinimumMemory(g, {});
            QVERIFY(exact.optimal);
            const DecodeResult beam = beamSearch(g, randomPriorities(g.opCount(), seed), 100000);
            QCOMPARE(beam.peak, exact.peak);
        }
    }

    void trainingOnAFixedBatchFavoursItsCheaperOrders() {
        // REINFORCE's loss on a fixed batch (4 graphs, 8 orders each, baseline = their mean peak),
        // 30 Adam steps at lr 1e-2. The orders are drawn once from seeded priorities that do not
        // come from the network, so the batch and its costs are the same on every CPU and BLAS
        // (orders drawn from the network's own priorities were not: another OpenBLAS kernel drew
        // other ones, and a batch whose extremes were near-equal moved by 2 nats). On every graph
        // the log-odds of its cheapest order over its dearest must rise by kLogOddsGain nats; the
        // margin printed is the smallest gain less kLogOddsGain (docs/reliability.md, Portability,
        // lists it per OpenBLAS core type and ATen kernel set). Catches an advantage of the wrong
        // sign and a loss without the advantage.
        constexpr double kLogOddsGain = 10.0;
        at::manual_seed(1);
        TopoformerModel model(topoformerModelConfig(tinyTrainConfig(1, 30, "")));
        std::vector<std::shared_ptr<Graph>> graphs;
        std::vector<EncoderInput> inputs;
        for (std::uint64_t i = 0; i < 4; ++i) {
            graphs.push_back(generateLayered(20, 7000 + i).graph);
            inputs.push_back(topoformerInput(*graphs.back(), model->config()));
        }
        const EncoderInput in = batchInputs(inputs);
        std::vector<std::vector<SampledOrder>> samples(graphs.size());
        std::vector<double> baselines;
        Rng rng(5);
        for (size_t b = 0; b < graphs.size(); ++b) {
            const Graph& g = *graphs[b];
            const std::vector<double> prio = randomPriorities(g.opCount(), 7000 + b);
            double sum = 0;
            for (int k = 0; k < 8; ++k) {
                SampledOrder o;
                o.order = sampleOrder(g, prio, rng, &o.ready);
                o.cost = orderPeak(g, o.order);
                sum += o.cost;
                samples[b].push_back(std::move(o));
            }
            baselines.push_back(sum / 8);
            const auto [lo, hi] = std::minmax_element(samples[b].begin(), samples[b].end(),
                                                      [](const SampledOrder& x, const SampledOrder& z) { return x.cost < z.cost; });
            QVERIFY2(lo->cost < hi->cost, "the batch must tell its orders apart");
        }
        // log p of each graph's cheapest and dearest order under the current weights
        auto extremes = [&] {
            at::NoGradGuard noGrad;
            const at::Tensor y = model->forward(in);
            std::vector<std::pair<double, double>> out;
            for (size_t b = 0; b < graphs.size(); ++b) {
                const auto [lo, hi] = std::minmax_element(samples[b].begin(), samples[b].end(),
                                                          [](const SampledOrder& x, const SampledOrder& z) { return x.cost < z.cost; });
                const at::Tensor row = y[static_cast<std::int64_t>(b)].narrow(0, 0, graphs[b]->opCount());
                out.emplace_back(plackettLuceLogProbTensor(row, lo->order, lo->ready).item<double>(),
                                 plackettLuceLogProbTensor(row, hi->order, hi->ready).item<double>());
            }
            return out;
        };
        const auto before = extremes();
        torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-2));
        for (int step = 0; step < 30; ++step) {
            const at::Tensor loss = reinforceLoss(model->forward(in), samples, baselines, true);
            adam.zero_grad();
            loss.backward();
            adam.step();
        }
        const auto after = extremes();
        double margin = std::numeric_limits<double>::infinity();
        for (size_t b = 0; b < graphs.size(); ++b) {
            const double oddsBefore = before[b].first - before[b].second, oddsAfter = after[b].first - after[b].second;
            qInfo("graph %d: log-odds of the cheapest over the dearest order %+.2f -> %+.2f nats", static_cast<int>(b), oddsBefore,
                  oddsAfter);
            margin = std::min(margin, oddsAfter - oddsBefore - kLogOddsGain);
        }
        qInfo("margin %+.2f nats", margin);
        QVERIFY2(margin > 0, qPrintable(QString("a graph's log-odds rose by %1 nats, not %2").arg(margin + kLogOddsGain).arg(kLogOddsGain)));
    }

    void trainingResumesFromItsCheckpoint() {
        const QString dir = QDir::tempPath() + "/tst_topoformer_resume";
        QDir(dir).removeRecursively();
        std::filesystem::create_directories(dir.toStdString());
        TopoformerTrainConfig c = tinyTrainConfig(3, 20, (dir + "/m.slw").toStdString());
        std::vector<std::string> lines;
        QCOMPARE(trainTopoformer(c, [&](const std::string& l) { lines.push_back(l); }).steps, std::int64_t{20});
        QVERIFY(lines.size() >= 2);
        QVERIFY(std::filesystem::exists(c.out));
        QVERIFY(std::filesystem::exists(c.out + ".card.json"));
        {   // the steps moved the weights away from the trainer's init (catches a lost optimiser step)
            TopoformerModel trained = loadTopoformer(c.out + ".ckpt.model");
            at::manual_seed(c.seed);
            TopoformerModel init(trained->config());
            double moved = 0;
            const auto initParams = init->parameters(), trainedParams = trained->parameters();
            for (size_t i = 0; i < initParams.size(); ++i)
                moved = std::max(moved, (initParams[i] - trainedParams[i]).abs().max().item<double>());
            QVERIFY2(moved > 1e-3, qPrintable(QString("largest weight change %1").arg(moved)));
        }
        c.steps = 30;
        c.resume = true;
        QCOMPARE(trainTopoformer(c, [](const std::string&) {}).steps, std::int64_t{30});
        TopoformerModel m = loadTopoformer(c.out);
        const GeneratedInstance inst = generateLayered(40, 77);
        QVERIFY(isTopological(*inst.graph, greedyOrder(*inst.graph, topoformerPriorities(*m, *inst.graph))));
    }

    void missingWeightsSayHowToFixIt() {
        try {
            loadTopoformer("/nonexistent/topoformer.slw");
            QFAIL("no exception");
        } catch (const std::runtime_error& e) {
            const QString msg = e.what();
            QVERIFY(msg.contains("/nonexistent/topoformer.slw"));
            QVERIFY(msg.contains("SCHEDLAB_TOPOFORMER_WEIGHTS"));
        }
    }

    void shippedLayeredWeightsBeatRandomWeightsAndClassicOrders() {
        // Held-out 150-op graphs (seeds far from training and validation), sample-16 through the
        // optimizer: the shipped layered-graph weights (the paper's recipe) against randomly
        // initialised ones of the same architecture (init seed 1) and against the best classic
        // order, with stated margins.
        const std::string path = modelsDir() + "/" + kTopoformerLayeredWeightsFile;
        QVERIFY2(std::filesystem::exists(path), path.c_str());
        const std::string randomPath = randomWeightsLike(path);
        registerCoreOptimizers();
        registerTopoformer();
        double shipped = 0, random = 0, classic = 0;
        for (std::uint64_t seed : {424201, 424202, 424203, 424204, 424205}) {
            const GeneratedInstance inst = generateLayered(150, seed);
            shipped += sample16Peak(inst, path);
            random += sample16Peak(inst, randomPath);
            classic += bestClassic(*inst.graph);
        }
        qInfo("sample-16 peaks summed over 5 graphs: shipped %.4g, random weights %.4g, best classic %.4g", shipped,
              random, classic);
        qInfo("margins: %+.4f over random weights, %+.4f over the classic orders (1 - ratio - required margin)",
              1 - shipped / random - kTopoformerMarginOverRandom, 1 - shipped / classic - kMarginOverClassic);
        QVERIFY2(shipped < (1 - kTopoformerMarginOverRandom) * random, "the shipped weights do not beat random weights by the margin");
        QVERIFY2(shipped < (1 - kMarginOverClassic) * classic, "the shipped weights do not beat the classic orders by the margin");
    }

    void theWeightsFollowTheGraphsKind() {
        // An HLO dump gets the compiled-step weights and says so; --weights wins over the kind; an
        // ONNX model gets the default. The compiled step's order without --weights is the order
        // with the compiled weights named (beam 16, no classic candidates: the network's own), so
        // the weights were loaded, not only named. Catches the default loaded for every graph (the
        // issue: a user never got the compiled weights) and a note that names other weights than
        // the ones used.
        registerTopoformer();
        const std::map<std::string, double> networkAlone{{"beam", 16}, {"classic-candidates", 0}};
        const auto hlo = loadGraph(std::string(SCHEDLAB_TEST_DATA) + "/hlo/graphsage_tf.hlo").graph;
        const RunResult chosen = runTopoformer(hlo, networkAlone);
        QVERIFY2(chosen.note.find("weights topoformer-memory-compiled.slw (for compiled steps)") != std::string::npos,
                 chosen.note.c_str());
        const RunResult named = runTopoformer(hlo, networkAlone, modelsDir() + "/" + kTopoformerCompiledWeightsFile);
        QVERIFY2(named.note.find("(--weights)") != std::string::npos, named.note.c_str());
        QCOMPARE(chosen.schedule.order, named.schedule.order);
        const RunResult overridden = runTopoformer(hlo, networkAlone, modelsDir() + "/" + kTopoformerWeightsFile);
        QVERIFY2(overridden.note.find("weights topoformer-memory.slw (--weights)") != std::string::npos,
                 overridden.note.c_str());
        const auto onnx = loadGraph(std::string(SCHEDLAB_TEST_DATA) + "/onnx/light_squeezenet.onnx").graph;
        const RunResult plain = runTopoformer(onnx, networkAlone);
        QVERIFY2(plain.note.find("weights topoformer-memory.slw (the default)") != std::string::npos,
                 plain.note.c_str());
    }

    void compiledStepWeightsBeatTheDefaultOnHeldOutCompiledSteps() {
        // Eight compiled training steps (generate hlo-step) of shapes and seeds the compiled label
        // set never drew (widths 96-1,024, 3 or 5 heads, TP 3, 8 MLP layers), 132-910 ops: the
        // network alone (beam-16) with the weights fine-tuned on compiled steps against the default
        // weights, by the geometric mean of the peak ratios (measured 0.83; under 0.9 required).
        // Beam search keeps 16 partial orders, so one near-tie does not decide; per-step ratios are
        // printed. Catches compiled-step weights that learned nothing from the compiled labels (or
        // a default file shipped in their place: the ratio would be 1).
        constexpr double kRequiredRatio = 0.9;
        registerTopoformer();
        const std::string compiled = modelsDir() + "/" + kTopoformerCompiledWeightsFile;
        QVERIFY2(std::filesystem::exists(compiled), compiled.c_str());
        double logRatios = 0;
        int steps = 0;
        for (const HloStepSpec& spec : heldOutCompiledSteps()) {
            const std::shared_ptr<Graph> g = parseGraph(generateHloTrainingStep(spec).text, GraphFormat::Hlo, "held-out").graph;
            const auto peakOf = [&](const std::string& weights) {
                return runTopoformer(g, {{"beam", 16}, {"classic-candidates", 0}}, weights).schedule.stepMemory.peak;
            };
            const double tuned = peakOf(compiled),
                         plain = peakOf(modelsDir() + "/" +
                                        kTopoformerWeightsFile);   // named: a compiled step's own choice is `compiled`
            qInfo("%4d ops: compiled-step weights %.6g, default %.6g (ratio %.3f)", g->opCount(), tuned, plain, tuned / plain);
            logRatios += std::log(tuned / plain);
            ++steps;
        }
        const double ratio = std::exp(logRatios / steps);
        qInfo("geometric mean ratio %.3f; margin %+.3f", ratio, kRequiredRatio - ratio);
        QVERIFY2(ratio < kRequiredRatio, "the compiled-step weights do not beat the default weights on compiled steps");
    }

    void shippedWeightsAreNearTheOptimumOnHeldOutTrainingSteps() {
        // The network alone (beam-16 without the classic candidates) on 14 held-out training steps
        // (the ONNX models' and four nn graphs', SGD and Adam; none in the label set it learned
        // from), against the optimum exact-memory proves here: its mean gap must stay under
        // kMeanGap and its worst under kWorstGap (issue 41's targets, 2 % and 5 %), margins printed
        // (docs/reliability.md lists them per OpenBLAS core type and ATen kernel set). Beam search
        // is deterministic and keeps 16 partial orders, so one near-tie of two priorities does not
        // flip the verdict; greedy, which it can (SqueezeNet's Adam step: 0 % or +12 % between two
        // checkpoints of one run), is printed beside it. Catches weights that never learned from
        // the optima (the layered-graph weights: beam-16 is +12 % on SqueezeNet's Adam step) and a
        // decoding that ignores the priorities.
        constexpr double kMeanGap = 2.0, kWorstGap = 5.0;
        registerTopoformer();
        double sum = 0, worst = -kInfinity;
        int steps = 0;
        for (const auto& [name, g] : trainingGraphs()) {
            const ExactMemoryResult exact = exactMinimumMemory(*g, {.timeLimit = 60});
            QVERIFY2(exact.optimal, name.c_str());
            const auto gapOf = [&](const RunResult& r) { return 100 * (r.schedule.stepMemory.peak - exact.peak) / exact.peak; };
            const double beam = gapOf(runTopoformer(g, {{"beam", 16}, {"classic-candidates", 0}}));
            const double greedy = gapOf(runTopoformer(g, {{"greedy", 1}, {"classic-candidates", 0}}));
            qInfo("%-32s %5d ops: beam-16 %+.3f %%, greedy %+.3f %% above the optimum", name.c_str(), g->opCount(), beam, greedy);
            sum += beam;
            worst = std::max(worst, beam);
            ++steps;
        }
        const double mean = sum / steps;
        qInfo("beam-16: mean %+.3f %%, worst %+.3f %%; margins %+.3f and %+.3f points", mean, worst, kMeanGap - mean, kWorstGap - worst);
        QVERIFY2(mean < kMeanGap, "the network's mean gap to the optima is above the target");
        QVERIFY2(worst < kWorstGap, "the network's worst gap to the optimum is above the target");
    }

    void classicCandidatesMakeItNeverWorseThanTheClassicOrders() {
        // On training graphs (ONNX models and held-out nn graphs, SGD and Adam), every decoding with
        // the classic candidates (the default) is at or below the best classic order; without them
        // (the paper's method) greedy returns exactly the network's greedy order. Randomly
        // initialised weights make the network's order lose to a classic one on some of these
        // graphs whatever the shipped weights learned, so an ignored option fails here.
        registerTopoformer();
        const std::string weights = randomWeightsLike(topoformerWeightsPath());
        const auto model = cachedTopoformer(weights);
        int paperWorse = 0;
        for (const auto& [name, g] : trainingGraphs()) {
            const QString where = QString::fromStdString(name);
            const double classic = bestClassic(*g);
            const std::vector<OpId> networkGreedy = greedyOrder(*g, topoformerPriorities(**model, *g));
            const double networkPeak = orderPeak(*g, networkGreedy);
            for (const auto& decoding :
                 std::vector<std::map<std::string, double>>{{{"greedy", 1}}, {{"samples", 8}}, {{"beam", 8}}}) {
                const RunResult r = runTopoformer(g, decoding, weights);
                QVERIFY2(isTopological(*g, r.schedule.order), qPrintable(where));
                QCOMPARE(r.schedule.stepMemory.peak, orderPeak(*g, r.schedule.order));
                QVERIFY2(
                    orderPeak(*g, r.schedule.order) <= classic,
                    qPrintable(where +
                               QString(": %1 above the best classic %2").arg(r.schedule.stepMemory.peak).arg(classic)));
                QVERIFY2(r.note.find("; classic candidates: ") != std::string::npos, r.note.c_str());
            }
            const RunResult with = runTopoformer(g, {{"greedy", 1}}, weights);
            const RunResult paper = runTopoformer(g, {{"greedy", 1}, {"classic-candidates", 0}}, weights);
            QVERIFY2(paper.note.find("no classic candidates") != std::string::npos, paper.note.c_str());
            QCOMPARE(paper.schedule.order, networkGreedy);
            if (networkPeak > classic) {
                // a classic order won: the note names it and the order has the best classic peak
                ++paperWorse;
                QCOMPARE(orderPeak(*g, with.schedule.order), classic);
                QVERIFY2(with.note.find(" won (peak ") != std::string::npos, with.note.c_str());
                QVERIFY(with.schedule.order != paper.schedule.order);
            } else {
                QCOMPARE(with.schedule.order, networkGreedy);
                QVERIFY2(with.note.find("the network's order kept") != std::string::npos, with.note.c_str());
            }
        }
        qInfo("the network's greedy order alone is above the best classic order on %d of 14 training graphs",
              paperWorse);
        QVERIFY2(paperWorse > 0,
                 "no graph where the classic candidates change the greedy result: the test cannot tell");
    }

    void undeclaredObjectiveIsRefused() {
        registerTopoformer();
        const GeneratedInstance inst = generateLayered(20, 5);
        Problem p{.graph = inst.graph, .platform = inst.platform, .objective = {.kind = Objective::Makespan}};
        try {
            OptimizerRegistry::instance().create("topoformer")->run(p, RunOptions{}, {}, {});
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            const QString msg = e.what();
            QVERIFY2(msg.contains("topoformer") && msg.contains("makespan") && msg.contains("supports: memory"), e.what());
        }
    }
};

SCHEDLAB_TEST_MAIN(topoformer, TestTopoformer)
#include "tst_topoformer.moc"
