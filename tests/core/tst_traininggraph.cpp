// SPDX-License-Identifier: MIT
// Training graphs (core/graph/traininggraph.h): a hand-checked three-op network, the saved-tensor
// table, gradient accumulation, control dependencies, names, errors, and invariants over random
// graphs of several generators and a real ONNX model.
#include "common/testmain.h"
#include "core/costmodel/stepmemory.h"
#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/util/limits.h"
#include "core/io/graphio.h"
#include "core/util/random.h"

#include <optional>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <queue>
#include <set>

using namespace sl;

namespace {

/// conv (300 weight bytes) -> t1 (1000) -> relu -> t2 (1000) -> matmul (5000) -> t3 (10), the
/// graph output. The ops touch 1,300, 2,000 and 6,010 bytes in 1.3, 20 and 6.01 time units: 0.001,
/// 0.01 and 0.001 per byte, a median rate of 0.001 (the mean, 27.31 / 9,310, would differ).
Graph threeOps() {
    Graph g;
    const OpId c = g.addOp({.name = "conv", .type = "Conv", .duration = 1.3, .paramBytes = 300});
    const OpId r = g.addOp({.name = "relu", .type = "Relu", .duration = 20});
    const OpId m = g.addOp({.name = "matmul", .type = "MatMul", .duration = 6.01, .paramBytes = 5000});
    g.addConsumer(g.addTensor("t1", c, 1000), r);
    g.addConsumer(g.addTensor("t2", r, 1000), m);
    g.addTensor("t3", m, 10);
    g.finalize();
    return g;
}

std::vector<std::string> consumerNames(const Graph& g, TensorId t) {
    std::vector<std::string> names;
    for (OpId c : g.tensor(t).consumers) names.push_back(g.op(c).name);
    std::sort(names.begin(), names.end());
    return names;
}

TensorId tensorNamed(const Graph& g, const std::string& name) {
    for (TensorId t = 0; t < g.tensorCount(); ++t)
        if (g.tensor(t).name == name) return t;
    return -1;
}


/// A random topological order (random priorities among ready ops).
std::vector<OpId> randomOrder(const Graph& g, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<int> indeg(static_cast<size_t>(g.opCount()));
    std::vector<OpId> ready, order;
    for (OpId v = 0; v < g.opCount(); ++v)
        if ((indeg[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size())) == 0) ready.push_back(v);
    while (!ready.empty()) {
        const auto k = static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(ready.size()) - 1));
        const OpId v = ready[k];
        ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(k));
        order.push_back(v);
        for (OpId w : g.successors(v))
            if (--indeg[static_cast<size_t>(w)] == 0) ready.push_back(w);
    }
    return order;
}

/// Ops reachable from `from` along successors (forward = true) or predecessors.
std::vector<bool> reachable(const Graph& g, OpId from, bool forward) {
    std::vector<bool> seen(static_cast<size_t>(g.opCount()), false);
    std::vector<OpId> stack{from};
    seen[static_cast<size_t>(from)] = true;
    while (!stack.empty()) {
        const OpId v = stack.back();
        stack.pop_back();
        for (OpId w : forward ? g.successors(v) : g.predecessors(v))
            if (!seen[static_cast<size_t>(w)]) {
                seen[static_cast<size_t>(w)] = true;
                stack.push_back(w);
            }
    }
    return seen;
}

/// Memory during each step of `order`, computed from tensor intervals (producer step to the last
/// consumer step; an unread tensor at its producer's step only) plus parameters at their op's step:
/// the step clock's definition, independent of StepMemory's incremental walk.
std::vector<double> intervalProfile(const Graph& g, const std::vector<OpId>& order) {
    std::vector<int> pos(static_cast<size_t>(g.opCount()));
    for (size_t i = 0; i < order.size(); ++i) pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
    std::vector<double> live(order.size(), 0.0);
    for (const Tensor& t : g.tensors()) {
        const int from = pos[static_cast<size_t>(t.producer)];
        int to = from;
        for (OpId c : t.consumers) to = std::max(to, pos[static_cast<size_t>(c)]);
        for (int i = from; i <= to; ++i) live[static_cast<size_t>(i)] += t.bytes;
    }
    for (size_t i = 0; i < order.size(); ++i) live[i] += g.op(order[i]).paramBytes;
    return live;
}

std::vector<double> stepProfile(const Graph& g, const std::vector<OpId>& order) {
    StepMemory mem(g, 1);
    mem.reset();
    std::vector<double> out;
    for (OpId v : order) out.push_back(mem.step(v));
    return out;
}

int parameterised(const Graph& g) {
    return static_cast<int>(std::count_if(g.ops().begin(), g.ops().end(), [](const Op& o) { return o.paramBytes > 0; }));
}

/// The readers a forward tensor must have in the training graph: its forward consumers, the
/// gradient ops whose rule saves it, the loss when nobody read it.
std::set<std::string> expectedReaders(const Graph& f, TensorId t) {
    const Tensor& x = f.tensor(t);
    std::set<std::string> out;
    for (OpId c : x.consumers) {
        out.insert(f.op(c).name);
        if (x.bytes > 0 && savesInputs(savedTensorsOf(f.op(c).type))) out.insert("grad/" + f.op(c).name);
    }
    if (x.bytes > 0 && savesOutputs(savedTensorsOf(f.op(x.producer).type))) out.insert("grad/" + f.op(x.producer).name);
    if (x.consumers.empty()) out.insert("loss");
    return out;
}

/// The step clock's memory during each step of the ops named `order`, one device.
std::vector<double> stepProfile(const Graph& g, const std::vector<std::string>& order) {
    std::vector<OpId> ids;
    for (const auto& name : order) ids.push_back(g.findOp(name));
    return stepProfile(g, ids);
}

const std::vector<std::string> kThreeOpOrder{"conv", "relu", "matmul", "loss", "grad/matmul", "update/matmul",
                                             "grad/relu", "grad/conv", "update/conv"};

} // namespace

class TestTrainingGraph : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // 2n + 1 + p ops, in the documented id order, with the documented types and parameter bytes.
    void threeOpsHasTheDocumentedOps() {
        const Graph t = makeTrainingGraph(threeOps());
        QCOMPARE(t.opCount(), 2 * 3 + 1 + 2);
        const std::vector<std::string> names{"conv", "relu", "matmul", "loss", "grad/matmul", "grad/relu",
                                             "grad/conv", "update/matmul", "update/conv"};
        for (OpId v = 0; v < t.opCount(); ++v) QCOMPARE(t.op(v).name, names[static_cast<size_t>(v)]);
        QCOMPARE(t.op(t.findOp("grad/relu")).type, std::string("ReluGrad"));
        QCOMPARE(t.op(t.findOp("update/conv")).type, std::string("SgdUpdate"));
        QCOMPARE(t.op(t.findOp("loss")).type, std::string("Loss"));
        QCOMPARE(t.op(t.findOp("grad/matmul")).paramBytes, 5000.0);   // dX = dY W^T reads the weights
        QCOMPARE(t.op(t.findOp("grad/relu")).paramBytes, 0.0);
        QCOMPARE(t.op(t.findOp("update/matmul")).paramBytes, 5000.0);
        QCOMPARE(makeTrainingGraph(threeOps(), {.rule = UpdateRule::Adam}).op(t.findOp("update/matmul")).paramBytes, 15000.0);
    }

    // Which tensors the step keeps: Relu saves its output t2, MatMul its input t2; Conv's input is
    // the graph input (not a tensor), so t1 dies at relu.
    void threeOpsTensorsAndTheirReaders() {
        const Graph t = makeTrainingGraph(threeOps());
        QCOMPARE(t.tensorCount(), 3 + 3 + 2);
        using Names = std::vector<std::string>;
        QCOMPARE(consumerNames(t, tensorNamed(t, "t1")), (Names{"relu"}));
        QCOMPARE(consumerNames(t, tensorNamed(t, "t2")), (Names{"grad/matmul", "grad/relu", "matmul"}));
        QCOMPARE(consumerNames(t, tensorNamed(t, "t3")), (Names{"loss"}));
        struct Expected { const char* name; const char* producer; const char* consumer; double bytes; };
        for (const Expected& e : {Expected{"grad/t3", "loss", "grad/matmul", 10}, Expected{"grad/t2", "grad/matmul", "grad/relu", 1000},
                                  Expected{"grad/t1", "grad/relu", "grad/conv", 1000},
                                  Expected{"grad/matmul:params", "grad/matmul", "update/matmul", 5000},
                                  Expected{"grad/conv:params", "grad/conv", "update/conv", 300}}) {
            const TensorId x = tensorNamed(t, e.name);
            QVERIFY2(x >= 0, e.name);
            QCOMPARE(t.op(t.tensor(x).producer).name, std::string(e.producer));
            QCOMPARE(consumerNames(t, x), (Names{e.consumer}));
            QCOMPARE(t.tensor(x).bytes, e.bytes);
        }
    }

    // The step clock on the natural order, derived by hand (docs/training-graphs.md walks it):
    // at grad/matmul, t2 (1000) + grad/t3 (10) + grad/t2 (1000) + grad/matmul:params (5000) +
    // the weights (5000) = 12,010. Adam adds 2 x 5000 of state at update/matmul: 22,000.
    void threeOpsStepMemoryByHand() {
        const Graph sgd = makeTrainingGraph(threeOps());
        const std::vector<double> expectSgd{1300, 2000, 6010, 1020, 12010, 12000, 3000, 1600, 600};
        QCOMPARE(stepProfile(sgd, kThreeOpOrder), expectSgd);
        const Graph adam = makeTrainingGraph(threeOps(), {.rule = UpdateRule::Adam});
        const std::vector<double> expectAdam{1300, 2000, 6010, 1020, 12010, 22000, 3000, 1600, 1200};
        QCOMPARE(stepProfile(adam, kThreeOpOrder), expectAdam);
        // inference alone peaks at matmul: t2 + t3 + weights
        const Graph forward = threeOps();
        QCOMPARE(StepMemory(forward, 1).peak(std::vector<OpId>{0, 1, 2}), 6010.0);
    }

    void threeOpsDurations() {
        const Graph t = makeTrainingGraph(threeOps());
        auto duration = [&t](const char* name) { return t.op(t.findOp(name)).duration; };
        QCOMPARE(duration("grad/conv"), 2.6);
        QCOMPARE(duration("grad/relu"), 40.0);
        QCOMPARE(duration("grad/matmul"), 12.02);
        QCOMPARE(duration("loss"), 0.001 * 2 * 10);              // reads t3, writes grad/t3
        QCOMPARE(duration("update/matmul"), 0.001 * 3 * 5000);   // SGD: w and g in, w out
        const Graph adam = makeTrainingGraph(threeOps(), {.rule = UpdateRule::Adam});
        QCOMPARE(adam.op(adam.findOp("update/conv")).duration, 0.001 * 7 * 300);
        const Graph slow = makeTrainingGraph(threeOps(), {.backwardFactor = 3});
        QCOMPARE(slow.op(slow.findOp("grad/matmul")).duration, 18.03);
    }

    // The table: case-insensitive ONNX names, the conservative default for unknown types.
    void savedTensorTable_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("rule");
        const auto row = [](const char* t, SavedTensors r) { QTest::addRow("%s", t) << QString(t) << static_cast<int>(r); };
        row("Relu", SavedTensors::Outputs);
        row("RELU", SavedTensors::Outputs);
        row("sigmoid", SavedTensors::Outputs);
        row("Softmax", SavedTensors::Outputs);
        row("Conv", SavedTensors::Inputs);
        row("MatMul", SavedTensors::Inputs);
        row("BatchNormalization", SavedTensors::Inputs);
        row("Add", SavedTensors::Nothing);
        row("Concat", SavedTensors::Nothing);
        row("GlobalAveragePool", SavedTensors::Nothing);
        row("MaxPool", SavedTensors::InputsAndOutputs);
        row("Frobnicate", SavedTensors::InputsAndOutputs);
        row("", SavedTensors::InputsAndOutputs);
        row("Reluz", SavedTensors::InputsAndOutputs);   // no prefix matching
    }
    void savedTensorTable() {
        QFETCH(QString, type);
        QFETCH(int, rule);
        QCOMPARE(static_cast<int>(savedTensorsOf(type.toStdString())), rule);
    }

    // a -> t (8) -> {b, c} -> d: b's and c's gradient ops each write a partial gradient of t,
    // summed by grad/a; both live until grad/a. Catches one shared gradient tensor, a partial of
    // the wrong size, partials read by the wrong op.
    void partialGradientsOfASharedTensor() {
        Graph f;
        const OpId a = f.addOp({.name = "a", .type = "Identity", .duration = 1});
        const OpId b = f.addOp({.name = "b", .type = "Relu", .duration = 1});
        const OpId c = f.addOp({.name = "c", .type = "Sigmoid", .duration = 1});
        const OpId d = f.addOp({.name = "d", .type = "Add", .duration = 1});
        const TensorId t = f.addTensor("t", a, 8);
        f.addConsumer(t, b);
        f.addConsumer(t, c);
        f.addConsumer(f.addTensor("u", b, 4), d);
        f.addConsumer(f.addTensor("w", c, 4), d);
        f.addTensor("y", d, 2);
        f.finalize();
        const Graph g = makeTrainingGraph(f);
        QCOMPARE(g.opCount(), 9);
        for (const char* from : {"b", "c"}) {
            const TensorId p = tensorNamed(g, std::string("grad/t/") + from);
            QVERIFY2(p >= 0, from);
            QCOMPARE(g.op(g.tensor(p).producer).name, "grad/" + std::string(from));
            QCOMPARE(consumerNames(g, p), std::vector<std::string>{"grad/a"});
            QCOMPARE(g.tensor(p).bytes, 8.0);
        }
        QCOMPARE(tensorNamed(g, "grad/t"), -1);
        // Add keeps nothing: u and w die at d; Relu and Sigmoid keep their outputs u and w
        QCOMPARE(consumerNames(g, tensorNamed(g, "u")), (std::vector<std::string>{"d", "grad/b"}));
        QCOMPARE(consumerNames(g, t), (std::vector<std::string>{"b", "c"}));   // Identity, Relu, Sigmoid: t not saved
    }

    // Zero-byte tensors (job-shop chains) are reversed as zero-byte tensors; a sink without outputs
    // reaches the loss through "<op>->loss". Catches a backward pass cut off from the loss.
    void controlDependenciesAreMirrored() {
        Graph f;
        const OpId a = f.addOp({.name = "a", .duration = 3});
        const OpId b = f.addOp({.name = "b", .duration = 4});
        f.addEdge(a, b, 0);
        f.finalize();
        const Graph g = makeTrainingGraph(f);
        QCOMPARE(g.opCount(), 5);
        QCOMPARE(consumerNames(g, tensorNamed(g, "b->loss")), std::vector<std::string>{"loss"});
        const TensorId seed = tensorNamed(g, "grad/b->loss");
        QCOMPARE(g.op(g.tensor(seed).producer).name, std::string("loss"));
        QCOMPARE(consumerNames(g, seed), std::vector<std::string>{"grad/b"});
        QCOMPARE(g.tensor(seed).bytes, 0.0);
        QCOMPARE(consumerNames(g, tensorNamed(g, "grad/a->b")), std::vector<std::string>{"grad/a"});
        QCOMPARE(g.op(g.findOp("grad/a")).type, std::string("Grad"));
        QCOMPARE(g.op(g.findOp("loss")).duration, 0.0);   // no bytes: no time
    }

    // New names never take a forward name: the first free "~k" suffix, deterministically.
    void namesStayUnique() {
        Graph f;
        const OpId x = f.addOp({.name = "x", .duration = 1});
        const OpId l = f.addOp({.name = "loss", .duration = 1});
        const OpId gx = f.addOp({.name = "grad/x", .duration = 1});
        f.addEdge(x, l, 4);
        f.addEdge(l, gx, 4);
        f.finalize();
        const Graph g = makeTrainingGraph(f);
        QVERIFY(g.findOp("loss~1") != kNoOp);
        QVERIFY(g.findOp("grad/x~1") != kNoOp);
        QVERIFY(g.findOp("grad/grad/x") != kNoOp);
        QCOMPARE(g.op(g.findOp("grad/x~1")).duration, 2.0);   // x's gradient, not grad/x's
        // and the training graph of a training graph works too
        QCOMPARE(makeTrainingGraph(g).opCount(), 2 * g.opCount() + 1);
    }

    void badInputIsAnError() {
        QVERIFY_THROWS_EXCEPTION(GraphError, makeTrainingGraph(Graph{}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeTrainingGraph(threeOps(), {.backwardFactor = std::nan("")}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeTrainingGraph(threeOps(), {.backwardFactor = -1}));
        // 2^51 weight bytes: SGD's step holds 4 x 2^51 = 2^53 bytes (the limit), Adam's 6 x 2^51;
        // one op's weights may be that big only once the per-tensor limit is raised
        struct RaisedLimits {
            RaisedLimits() { setLimits(parseLimits("tensor-bytes=9007199254740992", Limits{})); }
            ~RaisedLimits() { setLimits(Limits{}); }
        } raised;
        Graph huge;
        huge.addOp({.name = "big", .type = "Conv", .paramBytes = 2251799813685248.0});
        huge.addOp({.name = "small", .type = "Conv", .paramBytes = 0});
        huge.finalize();
        QCOMPARE(makeTrainingGraph(huge).opCount(), 6);
        try {
            makeTrainingGraph(huge, {.rule = UpdateRule::Adam});
            QFAIL("expected a GraphError");
        } catch (const GraphError& e) {
            QVERIFY2(std::string(e.what()).find("'big'") != std::string::npos, e.what());
        }
        // an unfinalized forward graph is finalized first: its faults name its ops
        Graph cyclic;
        const OpId p = cyclic.addOp({.name = "p"}), q = cyclic.addOp({.name = "q"});
        cyclic.addEdge(p, q);
        cyclic.addEdge(q, p);
        try {
            makeTrainingGraph(cyclic);
            QFAIL("expected a GraphError");
        } catch (const GraphError& e) {
            QVERIFY2(std::string(e.what()).find("p, q") != std::string::npos, e.what());
        }
    }

    void parsesUpdateRules() {
        QCOMPARE(parseUpdateRule("sgd"), std::optional<UpdateRule>(UpdateRule::Sgd));
        QCOMPARE(parseUpdateRule("Adam"), std::optional<UpdateRule>(UpdateRule::Adam));
        QCOMPARE(parseUpdateRule("rmsprop"), std::nullopt);
        QCOMPARE(parseUpdateRule(""), std::nullopt);
        QCOMPARE(updateRuleName(UpdateRule::Adam), std::string_view("adam"));
        QCOMPARE(residentParameterBytes(threeOps(), UpdateRule::Sgd), 5300.0);
        QCOMPARE(residentParameterBytes(threeOps(), UpdateRule::Adam), 15900.0);
    }

    // ---- invariants over random graphs ----
    void invariants_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("nodes");
        for (const char* f : {"layered", "layered-typed", "erdos-renyi", "sbm", "jobshop", "watts-strogatz", "barabasi-albert"})
            QTest::addRow("%s", f) << QString(f) << 60;
        for (int n : {20, 90, 250}) QTest::addRow("nn-%d", n) << QStringLiteral("nn") << n;
        QTest::addRow("squeezenet") << QStringLiteral(SCHEDLAB_TEST_DATA "/onnx/light_squeezenet.onnx") << 0;
    }
    void invariants() {
        QFETCH(QString, source);
        QFETCH(int, nodes);
        for (std::uint64_t seed = 1; seed <= (nodes ? 4u : 1u); ++seed) {
            std::shared_ptr<const Graph> f = nodes ? generateInstance(source.toStdString(), nodes, seed).graph
                                                   : loadGraph(source.toStdString()).graph;
            const Graph sgd = makeTrainingGraph(*f), adam = makeTrainingGraph(*f, {.rule = UpdateRule::Adam});
            checkShape(*f, sgd);
            checkPrecedence(*f, sgd);
            checkForwardTensors(*f, sgd);
            checkGradientBytes(*f, sgd);
            checkLifetimes(*f, sgd, seed);
            checkAdamAddsItsState(*f, sgd, adam, seed);
            if (QTest::currentTestFailed()) return;
        }
    }

private:
    // 2n + 1 + p ops, acyclic; a gradient op per forward op (type, duration x2, the op's weights)
    // and an update exactly for the parameterised ones. Catches a missing or extra op.
    static void checkShape(const Graph& f, const Graph& g) {
        QCOMPARE(g.opCount(), 2 * f.opCount() + 1 + parameterised(f));
        QVERIFY(g.finalized());
        QCOMPARE(g.topologicalOrder().size(), static_cast<size_t>(g.opCount()));
        for (OpId v = 0; v < f.opCount(); ++v) {
            const Op& o = f.op(v);
            QCOMPARE(g.op(v).name, o.name);
            const OpId grad = g.findOp("grad/" + o.name);
            QVERIFY(grad != kNoOp);
            QCOMPARE(g.op(grad).type, o.type + "Grad");
            QCOMPARE(g.op(grad).duration, 2 * o.duration);
            QCOMPARE(g.op(grad).paramBytes, o.paramBytes);
            QCOMPARE(g.op(grad).machineType, o.machineType);
            QCOMPARE(g.findOp("update/" + o.name) != kNoOp, o.paramBytes > 0);
        }
    }

    // Every forward op precedes the loss, which precedes every gradient and update op. Catches a
    // gradient op that could run before the forward pass ends (a lost seed or reversed tensor).
    static void checkPrecedence(const Graph& f, const Graph& g) {
        const OpId loss = g.findOp("loss");
        const auto before = reachable(g, loss, false), after = reachable(g, loss, true);
        for (OpId v = 0; v < g.opCount(); ++v) {
            const bool forward = v < f.opCount();
            QVERIFY2(forward ? before[static_cast<size_t>(v)] : after[static_cast<size_t>(v)], g.op(v).name.c_str());
        }
    }

    // Each forward tensor keeps its size and is read by exactly its forward readers, the gradient
    // ops whose rule saves it, and the loss if it is a graph output. Catches a rule applied to the
    // wrong op (a consumer's instead of the producer's) or to zero-byte tensors.
    static void checkForwardTensors(const Graph& f, const Graph& g) {
        for (TensorId t = 0; t < f.tensorCount(); ++t) {
            QCOMPARE(g.tensor(t).bytes, f.tensor(t).bytes);
            const auto names = consumerNames(g, t);
            QCOMPARE(std::set<std::string>(names.begin(), names.end()), expectedReaders(f, t));
        }
    }

    // grad/v reads one gradient per (output, reader) pair, each as big as the output, and writes
    // one per input plus its parameter gradient. Catches gradients of the wrong size or count.
    static void checkGradientBytes(const Graph& f, const Graph& g) {
        for (OpId v = 0; v < f.opCount(); ++v) {
            const OpId grad = g.findOp("grad/" + f.op(v).name);
            double expectIn = 0, expectOut = f.op(v).paramBytes, in = 0;
            for (TensorId t : f.outputs(v)) {
                const auto& c = f.tensor(t).consumers;
                expectIn += f.tensor(t).bytes * static_cast<double>(std::max<size_t>(1, std::set<OpId>(c.begin(), c.end()).size()));
            }
            for (TensorId t : f.inputs(v)) expectOut += f.tensor(t).bytes;
            for (TensorId t : g.inputs(grad))
                if (t >= f.tensorCount() && g.tensor(t).producer >= f.opCount()) in += g.tensor(t).bytes;
            QCOMPARE(in, expectIn);
            QCOMPARE(g.outputBytes(grad), expectOut);
        }
    }

    // On random orders: each saved forward tensor is still live at the gradient op that saves it
    // and is freed after a forward op, the loss or a gradient op (never an update); the step
    // clock equals the interval definition. Catches saved tensors freed early.
    static void checkLifetimes(const Graph& f, const Graph& g, std::uint64_t seed) {
        const auto order = randomOrder(g, seed);
        std::vector<int> pos(static_cast<size_t>(g.opCount()));
        for (size_t i = 0; i < order.size(); ++i) pos[static_cast<size_t>(order[i])] = static_cast<int>(i);
        for (TensorId t = 0; t < f.tensorCount(); ++t) {
            int last = pos[static_cast<size_t>(g.tensor(t).producer)];
            for (OpId c : g.tensor(t).consumers) last = std::max(last, pos[static_cast<size_t>(c)]);
            const std::string& freer = g.op(order[static_cast<size_t>(last)]).name;
            QVERIFY2(freer.rfind("update/", 0) != 0, freer.c_str());
            for (const auto& reader : expectedReaders(f, t))
                QVERIFY(last >= pos[static_cast<size_t>(g.findOp(reader))]);
        }
        QCOMPARE(stepProfile(g, order), intervalProfile(g, order));
    }

    // Same order, Adam minus SGD: exactly 2P at each update/v step (m and v), 0 elsewhere.
    static void checkAdamAddsItsState(const Graph& f, const Graph& sgd, const Graph& adam, std::uint64_t seed) {
        QCOMPARE(adam.opCount(), sgd.opCount());
        QCOMPARE(adam.tensorCount(), sgd.tensorCount());
        const auto order = randomOrder(sgd, seed + 100);
        const auto a = stepProfile(adam, order), s = stepProfile(sgd, order);
        for (size_t i = 0; i < order.size(); ++i) {
            const std::string& name = sgd.op(order[i]).name;
            const bool update = name.rfind("update/", 0) == 0;
            const double state = update ? 2 * f.op(f.findOp(name.substr(7))).paramBytes : 0;
            QCOMPARE(a[i] - s[i], state);
        }
    }
};

SCHEDLAB_TEST_MAIN(traininggraph, TestTrainingGraph)
#include "tst_traininggraph.moc"
