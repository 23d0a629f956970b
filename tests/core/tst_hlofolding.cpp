// SPDX-License-Identifier: MIT
// The HLO reader's buffer rules (docs/formats.md, "Buffers and folded ops"): each rule on a
// hand-built module whose minimum step-clock peak is computed by hand in the comments, checked
// against brute force over every order and against exact-memory; the same module with the rule
// not applicable (or its op written unfoldable) gives the unfolded peak, so a rule that stops
// folding, or folds where HLO's semantics forbid it, fails here.
#include "common/memorybrute.h"
#include "common/testmain.h"
#include "core/exact/exactmemory.h"
#include "core/graph/aliasreads.h"
#include "core/io/graphio.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>

using namespace sl;

namespace hlofoldingtest {

class TestHloFolding : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    LoadedGraph read(const std::string& name, const std::string& text) {
        const std::string path = m_dir.path().toStdString() + "/" + name + ".hlo";
        std::ofstream(path) << text;
        return loadGraph(path);
    }

    /// Brute force over every order and exact-memory agree on the module's minimum peak.
    double minimumPeak(const Graph& g) {
        const double brute = reference::bruteMinimum(g);
        const ExactMemoryResult exact = exactMinimumMemory(g, {});
        if (!exact.optimal || exact.peak != brute) QTest::qFail("exact-memory disagrees with brute force", __FILE__, __LINE__);
        return brute;
    }

    static bool folded(const Graph& g, const char* name) {
        const OpId v = g.findOp(name);
        return v != kNoOp && g.op(v).work.opClass == OpClass::Alias && g.op(v).duration == 0 && g.outputBytes(v) == 0;
    }

private Q_SLOTS:
    /// A tuple's elements are buffers of their own, live while a get-tuple-element's readers are
    /// pending. t = (f32[100], f32[10]): 440 bytes; c = negate(t{1}): 40; r = multiply(t{0}, c): 400.
    /// Every order: t (440), c (440 + 40 = 480, then t{1} is freed: 440), r (440 + 400 = 840).
    /// Read as one 440-byte tensor freed once both get-tuple-elements ran, r would cost 40 + 400.
    void tupleElementsLiveThroughGetTupleElement() {
        const LoadedGraph lg = read("gte", "HloModule gte\n\nENTRY %e () -> f32[100] {\n"
                                           "  %t = (f32[100]{0}, f32[10]{0}) custom-call(), custom_call_target=\"pair\"\n"
                                           "  %a = f32[100]{0} get-tuple-element((f32[100]{0}, f32[10]{0}) %t), index=0\n"
                                           "  %b = f32[10]{0} get-tuple-element((f32[100]{0}, f32[10]{0}) %t), index=1\n"
                                           "  %c = f32[10]{0} negate(f32[10]{0} %b)\n"
                                           "  ROOT %r = f32[100]{0} multiply(f32[100]{0} %a, f32[10]{0} %c)\n}\n");
        const Graph& g = *lg.graph;
        QVERIFY(folded(g, "a") && folded(g, "b"));
        QCOMPARE(g.outputBytes(g.findOp("t")), 440.0);
        QCOMPARE(minimumPeak(g), 840.0);
        // drawn, r reads t's element through a only: the second arrow t -> r goes, the ops stay
        const OpId t = g.findOp("t"), r = g.findOp("r");
        QVERIFY(std::find(g.predecessors(r).begin(), g.predecessors(r).end(), t) != g.predecessors(r).end());
        QVERIFY(hasAliasReads(g));
        const Graph drawn = withoutAliasReads(g);
        QCOMPARE(drawn.opCount(), g.opCount());
        QVERIFY(std::find(drawn.predecessors(r).begin(), drawn.predecessors(r).end(), t) == drawn.predecessors(r).end());
        QCOMPARE(drawn.predecessors(r).size(), size_t(2));   // a and c
        QVERIFY(!hasAliasReads(drawn));
    }

    /// A reshape between default layouts is a bitcast. x = f32[10,10]: 400 bytes; y = reshape(x);
    /// r = reduce(y, constant z) to f32[]: 4 out, 4 of weight. Folded: x (400), y (400), r (408).
    /// Written with x in the column-major layout {0,1}, the reshape is a copy: y's step holds x
    /// and y, 800 (then x is freed, and r holds 408).
    void reshapeBetweenDefaultLayoutsIsABitcast() {
        const auto module = [](const char* layout) {
            return std::string("HloModule rs\n\n%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
                               "  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n}\n\n"
                               "ENTRY %e () -> f32[] {\n  %x = f32[10,10]") + layout + " custom-call(), custom_call_target=\"x\"\n"
                   "  %y = f32[100]{0} reshape(f32[10,10]" + layout + " %x)\n  %z = f32[] constant(0)\n"
                   "  ROOT %r = f32[] reduce(f32[100]{0} %y, f32[] %z), dimensions={0}, to_apply=%add\n}\n";
        };
        const LoadedGraph bitcast = read("rs", module("{1,0}"));
        QVERIFY(folded(*bitcast.graph, "y"));
        QCOMPARE(minimumPeak(*bitcast.graph), 408.0);
        const LoadedGraph copy = read("rscopy", module("{0,1}"));
        QVERIFY(!folded(*copy.graph, "y"));
        QCOMPARE(minimumPeak(*copy.graph), 800.0);
    }

    /// A broadcast of one element into element-wise readers is fused into them: s = f32[]: 4;
    /// x = f32[1000]: 4,000; b = broadcast(s); r = multiply(x, b): 4,000. Folded, the best order
    /// peaks at r: s 4 + x 4,000 + r 4,000 = 8,004. Into a custom call (no loop fusion) the
    /// broadcast is materialised: s (4), b (4 + 4,000; s freed), x (8,000), r (12,000).
    void scalarBroadcastFusesIntoElementwiseReaders() {
        const auto module = [](const char* reader) {
            return std::string("HloModule bc\n\nENTRY %e () -> f32[1000] {\n"
                               "  %s = f32[] custom-call(), custom_call_target=\"s\"\n"
                               "  %x = f32[1000]{0} custom-call(), custom_call_target=\"x\"\n"
                               "  %b = f32[1000]{0} broadcast(f32[] %s), dimensions={}\n") +
                   "  ROOT %r = f32[1000]{0} " + reader + "(f32[1000]{0} %x, f32[1000]{0} %b)\n}\n";
        };
        const LoadedGraph fused = read("bc", module("multiply"));
        QVERIFY(folded(*fused.graph, "b"));
        QCOMPARE(minimumPeak(*fused.graph), 8004.0);
        const LoadedGraph materialised = read("bccall", module("custom-call"));
        QVERIFY(!folded(*materialised.graph, "b"));
        QCOMPARE(minimumPeak(*materialised.graph), 12000.0);
    }

    /// Updated weights that input_output_alias puts in their parameters' buffers cost nothing: two
    /// SGD updates u1 = w1 - g1, u2 = w2 - g2 of f32[100] (400 bytes each, every parameter counted
    /// at the steps that read it). Aliased: each step holds its two parameters, 800. Without the
    /// alias, u1 stays live until the ROOT tuple: u2's step holds u1 400 + u2 400 + 800 = 1,600.
    void updatedWeightsAliasTheirParameters() {
        const auto module = [](const char* alias) {
            return "HloModule sgd" + std::string(alias) +
                   "\n\nENTRY %e (w1: f32[100], g1: f32[100], w2: f32[100], g2: f32[100]) -> (f32[100], f32[100]) {\n"
                   "  %w1 = f32[100]{0} parameter(0)\n  %g1 = f32[100]{0} parameter(1)\n"
                   "  %w2 = f32[100]{0} parameter(2)\n  %g2 = f32[100]{0} parameter(3)\n"
                   "  %u1 = f32[100]{0} subtract(f32[100]{0} %w1, f32[100]{0} %g1)\n"
                   "  %u2 = f32[100]{0} subtract(f32[100]{0} %w2, f32[100]{0} %g2)\n"
                   "  ROOT %t = (f32[100]{0}, f32[100]{0}) tuple(f32[100]{0} %u1, f32[100]{0} %u2)\n}\n";
        };
        const LoadedGraph aliased = read("alias", module(", input_output_alias={ {0}: (0, {}, must-alias), {1}: (2, {}, may-alias) }"));
        QCOMPARE(aliased.graph->outputBytes(aliased.graph->findOp("u1")), 0.0);
        QCOMPARE(aliased.graph->op(aliased.graph->findOp("u1")).paramBytes, 800.0);
        QCOMPARE(minimumPeak(*aliased.graph), 800.0);
        const LoadedGraph plain = read("noalias", module(""));
        QCOMPARE(minimumPeak(*plain.graph), 1600.0);
    }

    /// A weight read through a folded op counts at the real reader's step, not at the alias's.
    void weightsReadThroughFoldedOpsCountAtTheirReaders() {
        const LoadedGraph lg = read("wr", "HloModule wr\n\nENTRY %e (p: f32[4,4]) -> f32[16] {\n"
                                          "  %p = f32[4,4]{1,0} parameter(0)\n  %v = f32[16]{0} reshape(f32[4,4]{1,0} %p)\n"
                                          "  ROOT %n = f32[16]{0} negate(f32[16]{0} %v)\n}\n");
        const Graph& g = *lg.graph;
        QVERIFY(folded(g, "v"));
        QCOMPARE(g.op(g.findOp("v")).paramBytes, 0.0);
        QCOMPARE(g.op(g.findOp("n")).paramBytes, 64.0);
        QCOMPARE(g.predecessors(g.findOp("n")).size(), size_t(1));   // the edge from v stays in the graph
    }

    /// A tensor beyond a terabyte (a 2 TiB attention score) is read, and the reader says it is huge.
    void hugeTensorsAreReadAndNamed() {
        const LoadedGraph lg = read("huge", "HloModule huge\n\nENTRY %e () -> bf16[1024,1024,1024,1024] {\n"
                                            "  ROOT %scores = bf16[1024,1024,1024,1024]{3,2,1,0} iota(), iota_dimension=0\n}\n");
        QCOMPARE(lg.graph->outputBytes(0), 2.0 * 1024 * 1024 * 1024 * 1024);
        QCOMPARE(lg.warnings.size(), size_t(1));
        QVERIFY(lg.warnings[0].find("'scores'") != std::string::npos && lg.warnings[0].find("huge") != std::string::npos);
    }
};

} // namespace hlofoldingtest

SCHEDLAB_TEST_MAIN(hlofolding, hlofoldingtest::TestHloFolding)
#include "tst_hlofolding.moc"
