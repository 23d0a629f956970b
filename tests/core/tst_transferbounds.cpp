// SPDX-License-Identifier: MIT
// Makespan bounds that count transfers (core/analysis/transferbounds.h): hand-checked and tight on
// a pinned fork over one shared link, never above the optimum found by brute force over every
// placement and order on small random shared cases, never above any method's makespan on larger
// ones, and above the contention-free bounds where pins or machine types force transfers.
#include "common/reference.h"
#include "common/testmain.h"
#include "core/analysis/bounds.h"
#include "core/analysis/transferbounds.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/sharedlinks.h"
#include "core/optimizer/optimizer.h"
#include "core/util/random.h"

#include <QTest>

#include <algorithm>
#include <functional>

using namespace sl;

namespace {

/// s (duration 1, pinned to device 0) sends x and y (40 bytes each) to c and d (duration 1, pinned
/// to device 1) over one link: latency 3, 10 bytes per unit, so each transfer takes 7.
Problem pinnedFork(bool shared) {
    auto g = std::make_shared<Graph>();
    const OpId s = g->addOp({.name = "s", .duration = 1});
    const OpId c = g->addOp({.name = "c", .duration = 1});
    const OpId d = g->addOp({.name = "d", .duration = 1});
    g->addConsumer(g->addTensor("x", s, 40), c);
    g->addConsumer(g->addTensor("y", s, 40), d);
    g->finalize();
    Platform platform = Platform::identical(2);
    platform.topology.links = {{"up", 3, 10}, {"down", 3, 10}};
    platform.topology.routes = {{}, {0}, {1}, {}};
    platform.topology.shared = shared;
    platform.topology.finalize(2);
    Problem p{g, platform, {}};
    p.pins.pin(s, 0);
    p.pins.pin(c, 1);
    p.pins.pin(d, 1);
    return p;
}

/// a0 and a1 (type 0, duration 1) each send 100 bytes to c (type 1, duration 1); devices gpu0,
/// cpu, gpu1 (types 0, 1, 0), one link per ordered pair (latency 0, 10 bytes per unit), shared.
Problem twoGpusFeedTheCpu() {
    auto g = std::make_shared<Graph>();
    const OpId a0 = g->addOp({.name = "a0", .duration = 1});
    const OpId a1 = g->addOp({.name = "a1", .duration = 1});
    const OpId c = g->addOp({.name = "c", .duration = 1, .machineType = 1});
    g->addConsumer(g->addTensor("x0", a0, 100), c);
    g->addConsumer(g->addTensor("x1", a1, 100), c);
    g->finalize();
    Platform platform;
    platform.devices = {{"gpu0", 0}, {"cpu", 1}, {"gpu1", 0}};
    Topology& t = platform.topology;
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            if (a != b) t.links.push_back({std::to_string(a) + "-" + std::to_string(b), 0, 10});
            t.routes.push_back(a == b ? std::vector<int>{} : std::vector<int>{static_cast<int>(t.links.size()) - 1});
        }
    t.shared = true;
    t.finalize(3);
    return Problem{g, platform, {}};
}

/// Random cases with a topology and shared links, one op at a time per device; every other case
/// has a third of its ops pinned to a device of their type, so that transfers are forced.
std::vector<Problem> sharedCases(int count, int maxOps) {
    std::vector<Problem> out;
    for (std::uint64_t seed = 1; static_cast<int>(out.size()) < count && seed < 100000; ++seed) {
        reference::Case c = reference::randomCase(seed, 2, maxOps);
        Problem& p = c.problem;
        if (p.platform.topology.empty() || !c.positiveDurations) continue;
        p.platform.topology.shared = true;
        if (!linksShared(p.platform)) continue;
        bool unit = true;
        for (const Device& d : p.platform.devices) unit = unit && d.resourceCapacity == 1;
        for (const Op& o : p.g().ops()) unit = unit && o.resourceDemand == 1;
        if (!unit) continue;
        Rng rng(seed);
        if (out.size() % 2 == 1)
            for (OpId v = 0; v < p.g().opCount(); ++v)
                if (rng.uniform() < 0.34) {
                    const std::vector<int> allowed = allowedDevices(p, v);
                    p.pins.pin(
                        v, allowed[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(allowed.size()) - 1))]);
                }
        out.push_back(p);
    }
    return out;
}

/// The best makespan over every placement on allowed devices and every topological order, each
/// timed by the booking replay (the definition of a schedule's times on shared links).
double bruteForceOptimum(const Problem& p) {
    const Graph& g = p.g();
    const int n = g.opCount();
    std::vector<std::vector<int>> allowed(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) allowed[static_cast<size_t>(v)] = allowedDevices(p, v);
    std::vector<std::vector<OpId>> orders;
    std::vector<OpId> order;
    std::vector<int> waiting(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) waiting[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size());
    std::function<void()> extend = [&] {
        if (static_cast<int>(order.size()) == n) return orders.push_back(order);
        for (OpId v = 0; v < n; ++v) {
            if (waiting[static_cast<size_t>(v)] != 0) continue;
            waiting[static_cast<size_t>(v)] = -1;
            for (const OpId w : g.successors(v)) --waiting[static_cast<size_t>(w)];
            order.push_back(v);
            extend();
            order.pop_back();
            for (const OpId w : g.successors(v)) ++waiting[static_cast<size_t>(w)];
            waiting[static_cast<size_t>(v)] = 0;
        }
    };
    extend();
    double best = kInfinity;
    Schedule s;
    s.ops.resize(static_cast<size_t>(n));
    std::vector<size_t> choice(static_cast<size_t>(n), 0);
    for (;;) {
        for (OpId v = 0; v < n; ++v)
            s.ops[static_cast<size_t>(v)].device = allowed[static_cast<size_t>(v)][choice[static_cast<size_t>(v)]];
        for (const std::vector<OpId>& o : orders) {
            s.order = o;
            best = std::min(best, timeOnSharedLinks(p, s).makespan);
        }
        int v = 0;   // the next placement, as an odometer
        while (v < n && ++choice[static_cast<size_t>(v)] == allowed[static_cast<size_t>(v)].size())
            choice[static_cast<size_t>(v++)] = 0;
        if (v == n) return best;
    }
}

double contentionFreeBound(const LowerBounds& b) { return std::max({b.criticalPath, b.workPerDevice, b.machines}); }

}   // namespace

class TestTransferBounds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    /// By hand: s ends at 1; x crosses 1-8, y waits for the link, 8-15; c and d run 8-9 and 15-16.
    /// The link's bound is head 1 + 7 + 7 + tail 1 = 16, the optimum; the critical path with a
    /// transfer 1 + 7 + 1 = 9, the plain one 2. On free links both transfers arrive at 8: c 8-9,
    /// d 9-10, and the link bound is 0. Catches a link bound that counts one tensor, drops the
    /// head or the tail, or counts on free links.
    void pinnedForkHandChecked() {
        const Problem shared = pinnedFork(true), free = pinnedFork(false);
        const std::vector<double> priority = {3, 2, 1};
        const LowerBounds b = lowerBounds(shared);
        QCOMPARE(b.criticalPath, 2.0);
        QCOMPARE(b.transferPath, 9.0);
        QCOMPARE(b.busiestLink, 16.0);
        QCOMPARE(b.makespan, 16.0);
        QCOMPARE(std::string(b.makespanSource), std::string("busiest link"));
        QCOMPARE(ListScheduler(shared).schedule(priority).makespan, 16.0);   // tight
        const LowerBounds f = lowerBounds(free);
        QCOMPARE(f.busiestLink, 0.0);
        QCOMPARE(f.makespan, 9.0);
        QCOMPARE(std::string(f.makespanSource), std::string("critical path with transfers"));
        QCOMPARE(ListScheduler(free).schedule(priority).makespan, 10.0);
        Problem unpinned = shared;   // free to co-locate: no transfer is forced
        unpinned.pins = {};
        QCOMPARE(lowerBounds(unpinned).makespan, 2.0);
    }

    /// By hand: a0 on gpu0 and a1 on gpu1 send at once over their own links (1-11), c runs 11-12.
    /// No link is on every route from a type-0 device to the cpu, so no transfer is forced onto
    /// one: the bound is the critical path with a transfer, 1 + 10 + 1 = 12, the optimum. Catches
    /// a link bound that charges the first route's links (both transfers on one: 22).
    void linksARouteCanMissCarryNothing() {
        const Problem p = twoGpusFeedTheCpu();
        const LowerBounds b = lowerBounds(p);
        QCOMPARE(b.busiestLink, 0.0);
        QCOMPARE(b.transferPath, 12.0);
        QCOMPARE(b.makespan, 12.0);
        QCOMPARE(bruteForceOptimum(p), 12.0);
    }

    /// Never above the optimum over every placement and order (up to 5 ops, 3 devices), and above
    /// the contention-free bounds on some cases: catches a bound that counts an avoidable transfer
    /// (a producer that could share a device with its consumer) or a link a route can miss.
    void neverAboveTheBruteForceOptimum() {
        const std::vector<Problem> cases = sharedCases(120, 5);
        int rose = 0, tight = 0;
        for (size_t k = 0; k < cases.size(); ++k) {
            const LowerBounds b = lowerBounds(cases[k]);
            const double optimum = bruteForceOptimum(cases[k]);
            QVERIFY2(b.makespan <= optimum,
                     qPrintable(QString("case %1: bound %2 > optimum %3").arg(k).arg(b.makespan).arg(optimum)));
            rose += b.makespan > contentionFreeBound(b);
            tight += b.makespan > contentionFreeBound(b) && b.makespan == optimum;
        }
        QVERIFY2(rose >= 10, qPrintable(QString("the bound rose on %1 cases").arg(rose)));
        QVERIFY(tight >= 1);
    }

    /// Below every method's makespan on random shared cases of up to 16 ops (pins on half).
    void neverAboveAnyMethod() {
        auto& reg = OptimizerRegistry::instance();
        const std::vector<Problem> cases = sharedCases(160, 16);
        int rose = 0;
        for (size_t k = 0; k < cases.size(); ++k) {
            const Problem& p = cases[k];
            const double bound = lowerBounds(p).makespan;
            rose += bound > contentionFreeBound(lowerBounds(p));
            for (const char* method : {"list-cp", "tabu", "heft", "brkga-order"}) {
                if (!p.pins.empty() && !reg.find(method)->acceptsPins) continue;
                RunOptions o;
                o.seed = k + 1;
                o.budget = 60;
                const RunResult r = reg.create(method)->run(p, o, {}, {});
                QVERIFY2(r.schedule.makespan >= bound,
                         qPrintable(QString("%1 on case %2: %3 < bound %4")
                                        .arg(method)
                                        .arg(k)
                                        .arg(r.schedule.makespan)
                                        .arg(bound)));
            }
        }
        QVERIFY2(rose >= 10, qPrintable(QString("the bound rose on %1 cases").arg(rose)));
    }
};

SCHEDLAB_TEST_MAIN(transferbounds, TestTransferBounds)
#include "tst_transferbounds.moc"
