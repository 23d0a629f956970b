// SPDX-License-Identifier: MIT
// Makespan lower bounds: the one-machine relaxation with heads and tails (Jackson's preemptive
// schedule) against hand-computed values, the published bound of ft10, the known optima of the
// job-shop fixtures and brute-forced optima of small random job-shops. The memory cut bound against
// a hand-checked graph and the peaks of random placements and orders.
#include "common/cutexample.h"
#include "common/testmain.h"
#include "core/analysis/bounds.h"
#include "core/costmodel/stepmemory.h"
#include "core/generators/generators.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"
#include "core/optimizer/resultbound.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <algorithm>
#include <array>
#include <fstream>
#include <random>
#include <sstream>

using namespace sl;

namespace {

/// Kahn's algorithm with a uniformly random ready op each step.
std::vector<OpId> randomTopologicalOrder(const Graph& g, std::mt19937& rng) {
    std::vector<int> waiting(static_cast<size_t>(g.opCount()));
    std::vector<OpId> ready, order;
    for (OpId v = 0; v < g.opCount(); ++v)
        if ((waiting[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size())) == 0) ready.push_back(v);
    while (!ready.empty()) {
        const auto pick = std::uniform_int_distribution<size_t>(0, ready.size() - 1)(rng);
        const OpId v = ready[pick];
        ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(pick));
        order.push_back(v);
        for (const OpId w : g.successors(v))
            if (--waiting[static_cast<size_t>(w)] == 0) ready.push_back(w);
    }
    return order;
}

const std::string kData = SCHEDLAB_TEST_DATA;

Problem problemOf(const LoadedGraph& lg) {
    Problem p;
    p.graph = lg.graph;
    p.platform = *lg.platform;
    return p;
}

/// A job-shop: job j's k-th operation runs on machine[j][k] for duration[j][k].
struct JobShop {
    int jobs = 0, machines = 0;
    std::vector<std::vector<int>> machine;
    std::vector<std::vector<int>> duration;

    std::string text() const {
        std::ostringstream s;
        s << jobs << " " << machines << "\n";
        for (int j = 0; j < jobs; ++j) {
            for (int k = 0; k < machines; ++k) s << machine[j][k] << " " << duration[j][k] << " ";
            s << "\n";
        }
        return s.str();
    }
};

JobShop randomJobShop(int jobs, int machines, std::mt19937& rng) {
    JobShop js{jobs, machines, {}, {}};
    std::uniform_int_distribution<int> d(1, 9);
    for (int j = 0; j < jobs; ++j) {
        std::vector<int> order(static_cast<size_t>(machines));
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng);
        js.machine.push_back(order);
        std::vector<int> times;
        for (int k = 0; k < machines; ++k) times.push_back(d(rng));
        js.duration.push_back(times);
    }
    return js;
}

/// The optimum over every sequence of every machine (semi-active schedules): (jobs!)^machines
/// candidates, each a longest path over job and machine arcs, skipped when cyclic.
int bruteForceOptimum(const JobShop& js) {
    const int n = js.jobs * js.machines;
    auto id = [&](int j, int k) { return j * js.machines + k; };
    std::vector<std::vector<int>> sequence(static_cast<size_t>(js.machines));   // jobs in order, per machine
    for (auto& s : sequence) {
        s.resize(static_cast<size_t>(js.jobs));
        std::iota(s.begin(), s.end(), 0);
    }
    int best = std::numeric_limits<int>::max();
    while (true) {
        std::vector<std::vector<int>> next(static_cast<size_t>(n));
        std::vector<int> indegree(static_cast<size_t>(n), 0);
        auto arc = [&](int a, int b) { next[size_t(a)].push_back(b), ++indegree[size_t(b)]; };
        for (int j = 0; j < js.jobs; ++j)
            for (int k = 0; k + 1 < js.machines; ++k) arc(id(j, k), id(j, k + 1));
        for (int m = 0; m < js.machines; ++m) {
            auto opOn = [&](int j) {
                const auto& ms = js.machine[size_t(j)];
                return id(j, int(std::find(ms.begin(), ms.end(), m) - ms.begin()));
            };
            for (int i = 0; i + 1 < js.jobs; ++i) arc(opOn(sequence[size_t(m)][size_t(i)]), opOn(sequence[size_t(m)][size_t(i + 1)]));
        }
        std::vector<int> start(static_cast<size_t>(n), 0), ready;
        for (int v = 0; v < n; ++v)
            if (indegree[size_t(v)] == 0) ready.push_back(v);
        int done = 0, makespan = 0;
        while (!ready.empty()) {
            const int v = ready.back();
            ready.pop_back();
            ++done;
            const int end = start[size_t(v)] + js.duration[size_t(v / js.machines)][size_t(v % js.machines)];
            makespan = std::max(makespan, end);
            for (const int w : next[size_t(v)]) {
                start[size_t(w)] = std::max(start[size_t(w)], end);
                if (--indegree[size_t(w)] == 0) ready.push_back(w);
            }
        }
        if (done == n) best = std::min(best, makespan);
        int m = 0;   // the next combination of sequences, like an odometer
        while (m < js.machines && !std::next_permutation(sequence[size_t(m)].begin(), sequence[size_t(m)].end())) ++m;
        if (m == js.machines) return best;
    }
}

} // namespace

class TestBounds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// The tightest bound a run's record shows (core/optimizer/resultbound.h), hand-checked: a
    /// proved memory bound counts only on the step clock of one device and only above the cut
    /// bound; it is the "proven optimum" when the run's peak meets it, else the "search bound"; a
    /// proved makespan bound counts above the analytic one. Catches a step-clock proof applied to
    /// the time clock or to several devices, and a search bound labelled as the optimum.
    void tightestBoundNamesWhatProvedIt() {
        LowerBounds analytic;
        analytic.makespan = 10;
        analytic.memory = 100;
        analytic.memorySource = "tensors live across an op";
        Problem memory{.platform = Platform::identical(1), .objective = {.kind = Objective::Memory}};
        RunResult r;
        r.schedule.memoryClock = MemoryClock::Step;
        r.schedule.stepMemory.peak = 120;
        r.lowerBound = 110;
        CostBound b = tightestBound(memory, r, analytic);
        QCOMPARE(b.value, 110.0);
        QCOMPARE(b.source, std::string("search bound"));
        QVERIFY(b.proven);
        r.lowerBound = 120;
        QCOMPARE(tightestBound(memory, r, analytic).source, std::string("proven optimum"));
        r.lowerBound = 90;   // below the cut bound: the cut bound is the tighter
        b = tightestBound(memory, r, analytic);
        QCOMPARE(b.value, 100.0);
        QCOMPARE(b.source, std::string("cut bound: tensors live across an op"));
        QVERIFY(!b.proven);
        r.lowerBound = 110;
        Problem timeClock = memory;
        timeClock.objective.memoryClock = MemoryClock::Time;
        QCOMPARE(tightestBound(timeClock, r, analytic).value, 100.0);
        Problem twoDevices = memory;
        twoDevices.platform = Platform::identical(2);
        QCOMPARE(tightestBound(twoDevices, r, analytic).value, 100.0);
        Problem makespan{.platform = Platform::identical(1), .objective = {.kind = Objective::Makespan}};
        r.lowerBound = 12;
        QCOMPARE(tightestBound(makespan, r, analytic).value, 12.0);
        QCOMPARE(tightestBound(makespan, r, analytic).source, std::string("proved by the run"));
        r.lowerBound = 0;
        QCOMPARE(tightestBound(makespan, r, analytic).value, 10.0);
        Problem weighted{.platform = Platform::identical(1), .objective = {.kind = Objective::Weighted}};
        QCOMPARE(tightestBound(weighted, r, analytic).value, 0.0);
    }

    /// Computed by hand: A runs 0-1, B (released at 1, longest tail) preempts it and ends at 2
    /// (2 + 6 = 8), A ends at 4, C at 6. The non-preemptive optimum is 8 too; the simple bound
    /// (min head + work + min tail) says 6. Catches a non-preemptive or shortest-tail-first rule.
    void jacksonPreemptiveHandChecked() {
        QCOMPARE(jacksonPreemptiveBound({{0, 3, 2}, {1, 1, 6}, {2, 2, 0}}), 8.0);
        QCOMPARE(jacksonPreemptiveBound({{2, 3, 4}}), 9.0);
        QCOMPARE(jacksonPreemptiveBound({}), 0.0);
        // idle until the first release, then back to back: 5 + 1 + 1, tails 0
        QCOMPARE(jacksonPreemptiveBound({{5, 1, 0}, {5, 1, 0}}), 7.0);
    }

    /// ft10's one-machine bound is 808 in the literature (Carlier & Pinson 1989 and after); every
    /// fixture's bound is at most its known optimum and at least the simple bounds.
    void jobShopFixtures() {
        std::ifstream in(kData + "/jobshop/bounds.json");
        const nlohmann::json known = nlohmann::json::parse(in);
        for (const auto& instance : known) {
            const std::string name = instance.at("instance").get<std::string>();
            const Problem p = problemOf(loadGraph(kData + "/jobshop/" + name + ".txt"));
            const LowerBounds b = lowerBounds(p);
            const double optimum = instance.at("upper_bound").get<double>();
            QVERIFY2(b.makespan <= optimum, name.c_str());
            QVERIFY(b.makespan >= std::max(b.criticalPath, b.workPerDevice));
            QCOMPARE(b.makespan, std::max({b.criticalPath, b.workPerDevice, b.machines}));
            if (name == "ft10") {
                QCOMPARE(b.machines, 808.0);
                QCOMPARE(std::string(b.makespanSource), std::string("machines"));
            }
            if (name == "la01") QCOMPARE(b.makespan, 666.0);   // the bound proves la01's optimum
        }
    }

    /// Never above the optimum (brute force over every machine sequence, 3 x 3: 216 each), and
    /// equal to it on some: catches tails that include the op itself, or heads that do.
    void neverAboveTheBruteForceOptimum() {
        std::mt19937 rng(15);
        int tight = 0;
        for (int i = 0; i < 40; ++i) {
            const JobShop js = randomJobShop(3, 3, rng);
            const Problem p = problemOf(parseGraph(js.text(), GraphFormat::JobShop, "random.txt"));
            const double bound = lowerBounds(p).makespan;
            const int optimum = bruteForceOptimum(js);
            QVERIFY2(bound <= optimum, qPrintable(QStringLiteral("case %1: bound %2 > optimum %3").arg(i).arg(bound).arg(optimum)));
            tight += bound == optimum;
        }
        QVERIFY(tight > 0);
    }

    /// Hand-checked: a, b, c make A, B, C (4 bytes each); m reads A (and waits for b and c) and
    /// makes M (1 byte); x, y, z read A, B, C with M. At m's step A, B, C and M are all resident:
    /// 13 bytes, so one device holds 13 and two hold at least 6.5. A is m's input and read after m:
    /// counting it twice would give 17 and 8.5; dropping the cut leaves the footprint, 5.
    void cutBoundHandChecked() {
        const Graph g = reference::cutExampleGraph();
        QCOMPARE(footprintBound(g), 5.0);
        QCOMPARE(cutMemoryBound(g, 1), 13.0);
        QCOMPARE(cutMemoryBound(g, 2), 6.5);
        QCOMPARE(cutMemoryBound(g, 2, /*maxOps=*/6), 5.0);   // too big for the cut: the footprint
        StepMemory mem(g, 1);
        const std::vector<OpId> order = {0, 1, 2, 3, 4, 5, 6};   // a, b, c, m, x, y, z
        QCOMPARE(mem.peak(order), 13.0);   // one device: the bound is the optimum
    }

    /// Never above the step-clock peak of any placement and order: random training steps of
    /// network-like graphs, random placements on 1-3 devices, random topological orders. Catches
    /// a cut that counts tensors not yet made or already dead (e.g. made by a descendant).
    void cutBoundNeverAbovePeaks() {
        std::mt19937 rng(11);
        int tight = 0;
        for (int i = 0; i < 60; ++i) {
            const GeneratedInstance inst = generateInstance("nn", 10 + i % 30, static_cast<std::uint64_t>(100 + i));
            const Graph train = makeTrainingGraph(*inst.graph);
            const int devices = 1 + i % 3;
            const double bound = cutMemoryBound(train, devices);
            QVERIFY(bound >= footprintBound(train));
            StepMemory mem(train, devices);
            for (int trial = 0; trial < 20; ++trial) {
                std::vector<int> placement(static_cast<size_t>(train.opCount()));
                for (int& d : placement) d = std::uniform_int_distribution<int>(0, devices - 1)(rng);
                const std::vector<OpId> order = randomTopologicalOrder(train, rng);
                const double peak = mem.peakOfOrder(placement, order);
                QVERIFY2(bound <= peak * (1 + 1e-12), qPrintable(QStringLiteral("graph %1: bound %2 > peak %3").arg(i).arg(bound).arg(peak)));
                tight += devices == 1 && bound > footprintBound(train) && bound >= peak * (1 - 1e-12);
            }
        }
        QVERIFY(tight > 0);   // on one device the loss's cut is often the peak itself
    }

    void gapToBound() {
        QCOMPARE(sl::gapToBound(60, 50), 0.2);
        QVERIFY(std::isnan(sl::gapToBound(60, 0)));
    }
};

SCHEDLAB_TEST_MAIN(bounds, TestBounds)
#include "tst_bounds.moc"
