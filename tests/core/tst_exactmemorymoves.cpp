// SPDX-License-Identifier: MIT
// The moves exact-memory leaves out and the segments it searches alone (docs/heuristics.md,
// "exact-memory"), each against brute force over every topological order or against the search
// of the whole graph with the rule turned off:
//  - delayed ops (core/exact/delayedops.h) run only just before a reader: which ops qualify, by
//    hand, and the optimum kept on random graphs full of them;
//  - forced chains: the optimum kept on random graphs full of single-reader chains;
//  - segments (core/exact/ordersegments.h): where every order splits, by hand, and the segment
//    search's optimum equal to the whole search's on random chains of blocks whose tensors skip
//    across blocks (the bytes live at a cut depend on what came before).
#include "common/memorybrute.h"
#include "common/testmain.h"
#include "core/analysis/bounds.h"
#include "core/analysis/ordercut.h"
#include "core/exact/delayedops.h"
#include "core/exact/exactmemory.h"
#include "core/exact/ordersegments.h"
#include "core/util/random.h"

#include <QTest>

#include <map>

using namespace sl;
using namespace sl::reference;

namespace exactmemorymovestest {

/// Random graphs where many ops are delayed (sources and readers of 0-byte tensors with bytes of
/// their own) and many ops have one reader: a quarter of the ops have no inputs, a third of the
/// tensors are 0 bytes, parameters on some ops.
std::shared_ptr<Graph> movesGraph(int n, std::uint64_t seed) {
    Rng rng(seed);
    auto g = std::make_shared<Graph>();
    for (int i = 0; i < n; ++i) {
        Op op{.name = "op" + std::to_string(i), .duration = 1};
        if (rng.uniform() < 0.25) op.paramBytes = static_cast<double>(rng.integer(1, 8));
        g->addOp(op);
    }
    for (int i = 0; i < n; ++i) {
        const double bytes = rng.uniform() < 0.33 ? 0 : static_cast<double>(rng.integer(1, 12));
        const TensorId t = g->addTensor("t" + std::to_string(i), i, bytes);
        const int readers = static_cast<int>(rng.integer(0, 2));   // 0 (a sink), 1 (a chain), 2
        for (int r = 0; r < readers && i + 1 < n; ++r) {
            const auto j = static_cast<OpId>(rng.integer(i + 1, std::min(n - 1, i + 4)));
            if (rng.uniform() < 0.75) g->addConsumer(t, j);
        }
    }
    g->finalize();
    return g;
}

/// Chains that allocate before they free, beside a large tensor that keeps the partial peak high:
/// a hub op whose output the sink reads (or the first chain's b: the chains are better run after
/// it is freed), and 2-3 chains a -> b -> c (a with parameters, so not delayed; b larger than a;
/// c small) into the sink, some b also read by another chain's c.
std::shared_ptr<Graph> chainsGraph(std::uint64_t seed) {
    Rng rng(seed);
    auto g = std::make_shared<Graph>();
    const OpId hub = g->addOp({.name = "hub", .duration = 1});
    const int chains = static_cast<int>(rng.integer(2, 3));
    std::vector<OpId> heads, middles, tails;
    for (int c = 0; c < chains; ++c) {
        const std::string k = std::to_string(c);
        heads.push_back(
            g->addOp({.name = "a" + k, .duration = 1, .paramBytes = static_cast<double>(rng.integer(1, 3))}));
        middles.push_back(g->addOp({.name = "b" + k, .duration = 1}));
        tails.push_back(g->addOp({.name = "c" + k, .duration = 1}));
    }
    const OpId sink = g->addOp({.name = "sink", .duration = 1});
    g->addConsumer(g->addTensor("big", hub, static_cast<double>(rng.integer(8, 20))),
                   rng.uniform() < 0.5 ? sink : middles[0]);
    for (int c = 0; c < chains; ++c) {
        const auto i = static_cast<size_t>(c);
        g->addConsumer(g->addTensor("a" + std::to_string(c), heads[i], static_cast<double>(rng.integer(1, 5))),
                       middles[i]);
        const TensorId mid = g->addTensor("b" + std::to_string(c), middles[i], static_cast<double>(rng.integer(3, 9)));
        g->addConsumer(mid, tails[i]);
        if (rng.uniform() < 0.3) g->addConsumer(mid, tails[(i + 1) % tails.size()]);
        g->addConsumer(g->addTensor("c" + std::to_string(c), tails[i], static_cast<double>(rng.integer(0, 2))), sink);
    }
    g->finalize();
    return g;
}

/// One attention block's training step by hand, every tensor 4 bytes: forward x -> ln -> q, k, v ->
/// scores -> softmax -> ctx -> proj -> residual (+ x) -> loss, backward from the loss reading what
/// the forward saved (x, q, k, v, the softmax, ctx).
Graph attentionBlockStep() {
    Graph g;
    std::map<std::string, OpId> op;
    for (const char* name :
         {"x",    "ln",    "q",    "k",        "v",  "scores",  "softmax", "ctx", "proj", "residual", "loss",
          "dres", "dproj", "dctx", "dsoftmax", "dv", "dscores", "dq",      "dk",  "dln",  "dx"})
        op[name] = g.addOp({.name = name, .duration = 1});
    const auto reads = [&](const std::string& producer, std::initializer_list<const char*> readers) {
        const TensorId t = g.addTensor(producer, op[producer], 4);
        for (const char* r : readers) g.addConsumer(t, op[r]);
    };
    reads("x", {"ln", "residual", "dx"});
    reads("ln", {"q", "k", "v"});
    reads("q", {"scores", "dk"});
    reads("k", {"scores", "dq"});
    reads("v", {"ctx", "dsoftmax"});
    reads("scores", {"softmax"});
    reads("softmax", {"ctx", "dv", "dscores"});
    reads("ctx", {"proj", "dproj"});
    reads("proj", {"residual"});
    reads("residual", {"loss"});
    g.addConsumer(g.addTensor("loss", op["loss"], 1), op["dres"]);
    reads("dres", {"dproj", "dx"});
    reads("dproj", {"dctx"});
    reads("dctx", {"dsoftmax", "dv"});
    reads("dsoftmax", {"dscores"});
    reads("dv", {"dln"});
    reads("dscores", {"dq", "dk"});
    reads("dq", {"dln"});
    reads("dk", {"dln"});
    reads("dln", {"dx"});
    g.finalize();
    return g;
}

/// A chain of `blocks` random blocks, each entered and left through one op (the cut ops), some
/// tensors read again one or two blocks later (saved activations).
std::shared_ptr<Graph> chainOfBlocks(int blocks, int width, std::uint64_t seed) {
    Rng rng(seed);
    auto g = std::make_shared<Graph>();
    const auto addOp = [&](const std::string& name) {
        Op op{.name = name, .duration = 1};
        if (rng.uniform() < 0.2) op.paramBytes = static_cast<double>(rng.integer(1, 6));
        return g->addOp(op);
    };
    const auto bytes = [&] { return static_cast<double>(rng.integer(0, 9)); };
    OpId entry = addOp("in");
    std::vector<TensorId> saved;
    for (int b = 0; b < blocks; ++b) {
        const TensorId in = g->addTensor("b" + std::to_string(b) + ".in", entry, bytes());
        std::vector<OpId> inner;
        std::vector<TensorId> made;
        for (int k = 0; k < width; ++k) {
            const OpId v = addOp("b" + std::to_string(b) + ".op" + std::to_string(k));
            g->addConsumer(in, v);
            for (size_t q = 0; q < made.size(); ++q)
                if (rng.uniform() < 0.3) g->addConsumer(made[q], v);
            if (!saved.empty() && rng.uniform() < 0.3)
                g->addConsumer(saved[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(saved.size()) - 1))],
                               v);
            inner.push_back(v);
            made.push_back(g->addTensor("b" + std::to_string(b) + ".t" + std::to_string(k), v, bytes()));
        }
        entry = addOp("b" + std::to_string(b) + ".out");
        for (const TensorId t : made) g->addConsumer(t, entry);
        saved.push_back(made[static_cast<size_t>(rng.integer(0, width - 1))]);
    }
    g->finalize();
    return g;
}

class TestExactMemoryMoves : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches a rule that delays an op whose step frees something (a positive input), one with
    // parameters or an unread output (its step is not bounded by its reader's), or a 0-byte op
    // (forced anyway).
    void delayedOpsByHand() {
        Graph g;
        const OpId source = g.addOp({.name = "source", .duration = 1});
        const OpId weighted = g.addOp({.name = "weighted", .duration = 1, .paramBytes = 4});
        const OpId folded = g.addOp({.name = "folded", .duration = 1});
        const OpId scale = g.addOp({.name = "scale", .duration = 1});
        const OpId reader = g.addOp({.name = "reader", .duration = 1});
        const OpId loose = g.addOp({.name = "loose", .duration = 1});
        const OpId sink = g.addOp({.name = "sink", .duration = 1});
        g.addConsumer(g.addTensor("s", source, 8), reader);
        g.addConsumer(g.addTensor("w", weighted, 8), reader);
        g.addConsumer(g.addTensor("f", folded, 0), scale);   // scale reads only 0 bytes
        g.addConsumer(g.addTensor("x", scale, 8), reader);
        g.addConsumer(g.addTensor("r", reader, 8), sink);   // sink reads 8 bytes
        g.addConsumer(g.addTensor("o", loose, 4), sink);
        g.addTensor("dead", loose, 4);   // loose has an unread output
        g.finalize();
        const DelayedOps delayed(g);
        QVERIFY(delayed.delayed(source));
        QVERIFY(!delayed.delayed(weighted));
        QVERIFY(!delayed.delayed(folded));
        QVERIFY(delayed.delayed(scale));
        QVERIFY(!delayed.delayed(reader));
        QVERIFY(!delayed.delayed(loose));
        QVERIFY(!delayed.delayed(sink));
        std::vector<std::uint64_t> set(1, 0);
        std::vector<OpId> ops;
        QVERIFY(!delayed.readyWith(reader, set.data(), ops));   // weighted and folded have not run
        set[0] = (std::uint64_t{1} << weighted) | (std::uint64_t{1} << folded);
        QVERIFY(delayed.readyWith(reader, set.data(), ops));
        QCOMPARE(ops, (std::vector<OpId>{source, scale, reader}));
    }

    // Catches a delayed op or a forced chain that loses the optimum (a chain accepted before the
    // live bytes are back; a delayed op whose step can pass its reader's) and an order rebuilt without the ops a move ran with: 300 random graphs of
    // 6-10 ops and 100 of chains beside a large tensor, the search alone (no approximate DP),
    // against brute force.
    void movesKeepTheOptimum() {
        std::int64_t chains = 0;
        int delayedGraphs = 0;
        for (std::uint64_t i = 0; i < 300; ++i) {
            const auto g = movesGraph(6 + static_cast<int>(i % 5), 9000 + i);
            delayedGraphs += DelayedOps(*g).count() > 0;
            const ExactMemoryResult r = exactMinimumMemory(*g, {.incumbentBeam = 0, .bySegments = false});
            QVERIFY(r.optimal);
            const double brute = bruteMinimum(*g);
            QCOMPARE(r.peak, brute);
            QCOMPARE(definitionPeak(*g, r.order), brute);
            chains += r.forcedChains;
        }
        for (std::uint64_t i = 0; i < 100; ++i) {
            const auto g = chainsGraph(4000 + i);
            const ExactMemoryResult r = exactMinimumMemory(*g, {.incumbentBeam = 0, .bySegments = false});
            QVERIFY(r.optimal);
            QCOMPARE(r.peak, bruteMinimum(*g));
            QCOMPARE(definitionPeak(*g, r.order), r.peak);
            chains += r.forcedChains;
        }
        qInfo("delayed ops in %d of 300 graphs, %lld forced chains in all 400", delayedGraphs,
              static_cast<long long>(chains));
        QVERIFY(delayedGraphs > 200);
        QVERIFY(chains > 0);
    }

    // Catches a bound that sees one op at a time: on an attention block's step the largest op
    // holds 16 bytes (dln: three inputs and its output), but in every order the step of dproj
    // holds the six tensors the forward saved (ctx among them, read there), dres (read again by
    // dx) and its output: 6 x 4 + 4 + 4 = 32 (by hand), and the search proves an optimum at or
    // above it.
    void boundRisesAboveTheLargestOpOnAnAttentionBlock() {
        const Graph g = attentionBlockStep();
        QCOMPARE(footprintBound(g), 16.0);
        QCOMPARE(orderCutBound(g), 32.0);
        const ExactMemoryResult r = exactMinimumMemory(g, {.incumbentBeam = 0});
        QVERIFY(r.optimal);
        QVERIFY(r.lowerBound >= 32.0);
        QCOMPARE(definitionPeak(g, r.order), r.peak);
    }

    // Catches a cut op missed or invented (an op with an incomparable op, the last op) and a
    // start off by one.
    void segmentsByHand() {
        // a -> {b, c} -> d -> e, and a -> e: a and d are cut ops; e is the last op
        Graph g;
        const OpId a = g.addOp({.name = "a", .duration = 1});
        const OpId b = g.addOp({.name = "b", .duration = 1});
        const OpId c = g.addOp({.name = "c", .duration = 1});
        const OpId d = g.addOp({.name = "d", .duration = 1});
        const OpId e = g.addOp({.name = "e", .duration = 1});
        g.addEdge(a, b, 1);
        g.addEdge(a, c, 1);
        g.addEdge(b, d, 1);
        g.addEdge(c, d, 1);
        g.addEdge(d, e, 1);
        g.addEdge(a, e, 5);
        g.finalize();
        QCOMPARE(orderSegmentStarts(g, opReachability(g, true), opReachability(g, false)), (std::vector<int>{0, 1, 4}));
        // by hand: a's step holds its outputs, 1 + 1 + 5 = 7, all still live before b or c,
        // whichever runs first, so that step holds 8; the order a b c d e never holds more
        const ExactMemoryResult parts = exactMinimumMemory(g, {.incumbentBeam = 0});
        QVERIFY(parts.optimal);
        QCOMPARE(parts.peak, 8.0);
        QCOMPARE(bruteMinimum(g), 8.0);
    }

    // Catches a segment searched from the wrong live bytes (a saved tensor forgotten), a segment
    // skipped whose incumbent is above what is proved, a proof taken from an open segment, and an
    // order put together out of place: random chains of 3-6 blocks of 4-6 ops (16-43 ops), the
    // segment search against the whole search (itself checked against brute force: exactmemoryproof).
    void segmentsEqualTheWholeSearch() {
        int searched = 0;
        for (std::uint64_t i = 0; i < 60; ++i) {
            const auto g = chainOfBlocks(3 + static_cast<int>(i % 4), 4 + static_cast<int>(i % 3), 500 + i);
            QVERIFY(orderSegmentStarts(*g, opReachability(*g, true), opReachability(*g, false)).size() > 2);
            const ExactMemoryResult whole = exactMinimumMemory(*g, {.incumbentBeam = 0, .bySegments = false});
            const ExactMemoryResult parts = exactMinimumMemory(*g, {.incumbentBeam = 0});
            QVERIFY(whole.optimal && parts.optimal);
            QCOMPARE(parts.peak, whole.peak);
            QCOMPARE(parts.lowerBound, whole.peak);
            QCOMPARE(definitionPeak(*g, parts.order), whole.peak);
            searched += parts.states > 0;
        }
        qInfo("segments searched on %d of 60 chains", searched);
        QVERIFY(searched > 10);   // not all proven by the incumbent meeting the floor
    }
};

}   // namespace exactmemorymovestest

SCHEDLAB_TEST_MAIN(exactmemorymoves, exactmemorymovestest::TestExactMemoryMoves)
#include "tst_exactmemorymoves.moc"
