// SPDX-License-Identifier: MIT
// Shared links (docs/time.md, "Shared links"): a hand-checked pair of transfers over one link,
// every method's result equal to the replay of its own placement and order, an independent replay
// written here from the rule, and the validator refusing contention-free times on shared links.
#include "common/testmain.h"
#include "common/reference.h"
#include "core/costmodel/chaintiming.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/memorytimeline.h"
#include "core/costmodel/sharedlinks.h"
#include "core/costmodel/validator.h"
#include "core/heuristics/evaluate.h"
#include "core/optimizer/optimizer.h"

#include <QTest>

#include <map>

using namespace sl;

namespace sharedlinkstest {

/// a0, a1 on device 0 (durations 1, 2), each sending 40 bytes to b0, b1 on device 1 (duration 1),
/// over one link each way: latency 3, bandwidth 10 bytes per unit (a transfer takes 3 + 4 = 7).
Problem twoSends(bool shared) {
    auto g = std::make_shared<Graph>();
    g->addOp({.name = "a0", .duration = 1});
    g->addOp({.name = "a1", .duration = 2});
    g->addOp({.name = "b0", .duration = 1});
    g->addOp({.name = "b1", .duration = 1});
    g->addConsumer(g->addTensor("x0", 0, 40), 2);
    g->addConsumer(g->addTensor("x1", 1, 40), 3);
    g->finalize();
    Platform platform = Platform::identical(2);
    Topology& t = platform.topology;
    t.links = {{"up", 3, 10}, {"down", 3, 10}};
    t.routes = {{}, {0}, {1}, {}};
    t.shared = shared;
    t.finalize(2);
    return Problem{g, platform, {}};
}

/// The placement a0, a1 -> device 0, b0, b1 -> device 1, in the order a0 a1 b0 b1.
Schedule placed() {
    Schedule s;
    s.ops = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {1, 0, 0}};
    s.order = {0, 1, 2, 3};
    return s;
}

/// The rule of docs/time.md written again from the fields: (start, end) per op and per
/// (tensor, destination) transfer.
struct Replayed {
    std::vector<ScheduledOp> ops;
    std::map<std::pair<TensorId, int>, std::pair<double, double>> transfers;
};

Replayed replayByRule(const Problem& p, const Schedule& s) {
    const Graph& g = p.g();
    const Platform& pf = p.platform;
    Replayed r;
    r.ops.resize(s.ops.size());
    std::vector<double> linkFree(pf.topology.links.size(), 0.0), deviceFree(static_cast<size_t>(pf.deviceCount()), 0.0);
    for (OpId v : s.order) {
        const int d = s.ops[static_cast<size_t>(v)].device;
        double start = deviceFree[static_cast<size_t>(d)];
        for (TensorId t : g.inputs(v)) {
            const ScheduledOp& prod = r.ops[static_cast<size_t>(g.tensor(t).producer)];
            if (prod.device == d) {
                start = std::max(start, prod.end);
                continue;
            }
            auto it = r.transfers.find({t, d});
            if (it == r.transfers.end()) {
                const auto& route = pf.topology.routes[static_cast<size_t>(prod.device * pf.deviceCount() + d)];
                double from = prod.end;
                for (int l : route) from = std::max(from, linkFree[static_cast<size_t>(l)]);
                const double to = from + reference::transferTime(pf, prod.device, d, g.tensor(t).bytes);
                for (int l : route) linkFree[static_cast<size_t>(l)] = to;
                it = r.transfers.emplace(std::pair{t, d}, std::pair{from, to}).first;
            }
            start = std::max(start, it->second.second);
        }
        r.ops[static_cast<size_t>(v)] = {d, start, start + g.durationOn(v, d)};
        deviceFree[static_cast<size_t>(d)] = start + g.durationOn(v, d);
    }
    return r;
}

/// Two transfers of `s` whose times overlap on a common link.
bool overlapOnALink(const Problem& p, const Schedule& s) {
    for (size_t i = 0; i < s.transfers.size(); ++i)
        for (size_t j = i + 1; j < s.transfers.size(); ++j) {
            const ScheduledTransfer &a = s.transfers[i], &b = s.transfers[j];
            if (!(a.start < b.end && b.start < a.end)) continue;
            for (int l : p.platform.topology.route(a.from, a.to))
                for (int m : p.platform.topology.route(b.from, b.to))
                    if (l == m) return true;
        }
    return false;
}

} // namespace sharedlinkstest

using namespace sharedlinkstest;

class TestSharedLinks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    // a0 runs 0-1, a1 1-3. Unshared: x0 arrives 1 + 7 = 8, x1 3 + 7 = 10; b0 8-9, b1 10-11.
    // Shared: x0 holds the link 1-8, x1 waits for it: 8-15; b0 8-9, b1 15-16.
    void twoTransfersByHand() {
        const Problem free = twoSends(false), shared = twoSends(true);
        QVERIFY(!linksShared(free.platform));
        QVERIFY(linksShared(shared.platform));
        const Schedule a = timeOnSharedLinks(free, placed());
        QCOMPARE(a.ops[2].start, 8.0);
        QCOMPARE(a.ops[3].start, 10.0);
        QCOMPARE(a.makespan, 11.0);
        const Schedule b = timeOnSharedLinks(shared, placed());
        QCOMPARE(b.ops[0].end, 1.0);
        QCOMPARE(b.ops[1].end, 3.0);
        QCOMPARE(b.ops[2].start, 8.0);
        QCOMPARE(b.ops[3].start, 15.0);
        QCOMPARE(b.makespan, 16.0);
        QCOMPARE(b.transfers.size(), size_t(2));
        QCOMPARE(b.transfers[1].start, 8.0);
        QCOMPARE(b.transfers[1].end, 15.0);
        QVERIFY(validateSchedule(shared, b).ok());
        // The replay keeps the transfers' steps: a0 x0 a1 x1 b0 b1.
        Schedule stepped = b;
        stepped.transfers[0].step = 1;
        stepped.transfers[1].step = 3;
        const Schedule again = timeOnSharedLinks(shared, stepped);
        QCOMPARE(again.transfers[0].step, 1);
        QCOMPARE(again.transfers[1].step, 3);
        QCOMPARE(again.ops[3].start, 15.0);
        // The contention-free times are refused on the shared links, naming the late input.
        const ValidationReport r = validateSchedule(shared, a);
        QVERIFY(!r.ok());
        QVERIFY2(r.errors.front().find("'x1'") != std::string::npos, r.errors.front().c_str());
    }

    void refusesResourceModels() {
        Problem p = twoSends(true);
        p.platform.devices[1].resourceCapacity = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, timeOnSharedLinks(p, placed()));
    }

    // Every method's result is the replay of its own placement and order, to the bit; valid; the
    // replay written here agrees; contention-free times are refused where two transfers overlap.
    void methodsReturnTheReplay() {
        auto& reg = OptimizerRegistry::instance();
        int shared = 0, refused = 0;
        for (std::uint64_t seed = 1; seed <= 300; ++seed) {
            reference::Case c = reference::randomCase(seed, 2, 16);
            Problem& p = c.problem;
            if (p.platform.topology.empty()) continue;
            p.platform.topology.shared = true;
            ++shared;
            for (const char* method : {"list-cp", "heft", "random-search", "tabu", "brkga-order"}) {
                if (std::string(method) == "heft" && !c.positiveDurations) continue;   // as tst_timing
                RunOptions o;
                o.seed = seed;
                o.budget = 60;
                o.values["samples"] = 5;
                const RunResult r = reg.create(method)->run(p, o, {}, {});
                const Schedule& s = r.schedule;
                const QString where = QString("%1 on case %2").arg(method).arg(seed);
                const ValidationReport v = validateSchedule(p, s);
                QVERIFY2(v.ok(), qPrintable(where + ": " + QString::fromStdString(v.errors.empty() ? "" : v.errors.front())));
                const Schedule replay = timeOnSharedLinks(p, s);
                QVERIFY2(replay.makespan == s.makespan, qPrintable(where));
                for (size_t i = 0; i < s.ops.size(); ++i)
                    QVERIFY2(replay.ops[i].start == s.ops[i].start && replay.ops[i].end == s.ops[i].end &&
                                 replay.ops[i].device == s.ops[i].device,
                             qPrintable(where));
                Schedule scored = replay;
                QVERIFY2(scoreSchedule(p, scored) == r.cost, qPrintable(where + ": cost"));
                // The memory view's curves and the time clock's sweep read the same booked ends.
                QVERIFY2(computeMemoryTimeline(p, scored).peaks == scored.timeMemory.devices, qPrintable(where + ": time memory"));
                const Replayed mine = replayByRule(p, s);
                for (size_t i = 0; i < s.ops.size(); ++i)
                    QVERIFY2(mine.ops[i].start == s.ops[i].start && mine.ops[i].end == s.ops[i].end, qPrintable(where + ": rule"));
                for (const ScheduledTransfer& x : s.transfers) {
                    const auto it = mine.transfers.find({x.tensor, x.to});
                    QVERIFY2(it != mine.transfers.end() && it->second.first == x.start && it->second.second == x.end,
                             qPrintable(where + ": transfer"));
                }
                // The same placement and order timed without sharing: refused when two transfers
                // overlap on a link (some op then starts before its booked arrival).
                const Schedule free = timeChains(p, deviceChains(s, p.platform.deviceCount()));
                if (overlapOnALink(p, free)) {
                    QVERIFY2(!validateSchedule(p, free).ok(), qPrintable(where + ": contention-free times accepted"));
                    ++refused;
                }
            }
        }
        QVERIFY(shared >= 30);
        QVERIFY(refused >= 5);
    }
};

SCHEDLAB_TEST_MAIN(sharedlinks, TestSharedLinks)
#include "tst_sharedlinks.moc"
