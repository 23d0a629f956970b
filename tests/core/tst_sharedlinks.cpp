// SPDX-License-Identifier: MIT
// Shared links (docs/time.md, "Shared links"): a hand-checked pair of transfers over one link,
// every method's result equal to the replay of its own placement and order, an independent replay
// written here from the rule, and the validator refusing contention-free times on shared links.
#include "common/reference.h"
#include "common/testmain.h"
#include "core/brkga/chaindecoder.h"
#include "core/brkga/regaldecoder.h"
#include "core/costmodel/chaintiming.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/memorytimeline.h"
#include "core/costmodel/sharedlinks.h"
#include "core/costmodel/target.h"
#include "core/costmodel/validator.h"
#include "core/edit/scheduleeditor.h"
#include "core/heuristics/evaluate.h"
#include "core/heuristics/heft.h"
#include "core/io/graphio.h"
#include "core/localsearch/chainschedule.h"
#include "core/optimizer/optimizer.h"
#include "core/timing/catalog.h"
#include "core/timing/machine.h"
#include "core/util/random.h"

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

/// s0 (1) feeds p1 through x1 and p2 through x2 and w2 (each 30 bytes: 3 units over a link of
/// bandwidth 10, latency 0); p1 and p2 take 4. Two devices, one link each way.
Problem forkOfThree(bool shared) {
    auto g = std::make_shared<Graph>();
    g->addOp({.name = "s0", .duration = 1});
    g->addOp({.name = "p1", .duration = 4});
    g->addOp({.name = "p2", .duration = 4});
    g->addConsumer(g->addTensor("x1", 0, 30), 1);
    g->addConsumer(g->addTensor("x2", 0, 30), 2);
    g->addConsumer(g->addTensor("w2", 0, 30), 2);
    g->finalize();
    Platform platform = Platform::identical(2);
    Topology& t = platform.topology;
    t.links = {{"up", 0, 10}, {"down", 0, 10}};
    t.routes = {{}, {0}, {1}, {}};
    t.shared = shared;
    t.finalize(2);
    return Problem{g, platform, {}};
}

/// Same ops, devices, start and end times, makespan and transfers (as a set), to the bit.
QString differenceFromReplay(const Problem& p, const Schedule& s) {
    const Schedule r = timeOnSharedLinks(p, s);
    if (r.makespan != s.makespan)
        return QString("makespan %1, replay %2").arg(s.makespan, 0, 'g', 17).arg(r.makespan, 0, 'g', 17);
    for (size_t i = 0; i < s.ops.size(); ++i)
        if (r.ops[i].device != s.ops[i].device || r.ops[i].start != s.ops[i].start || r.ops[i].end != s.ops[i].end)
            return QString("op %1: %2-%3, replay %4-%5")
                .arg(i)
                .arg(s.ops[i].start)
                .arg(s.ops[i].end)
                .arg(r.ops[i].start)
                .arg(r.ops[i].end);
    if (r.transfers.size() != s.transfers.size())
        return QString("%1 transfers, replay %2").arg(s.transfers.size()).arg(r.transfers.size());
    for (const ScheduledTransfer& x : s.transfers) {
        bool found = false;
        for (const ScheduledTransfer& y : r.transfers)
            found = found ||
                (y.tensor == x.tensor && y.to == x.to && y.from == x.from && y.start == x.start && y.end == x.end);
        if (!found) return QString("transfer of tensor %1 to %2 not booked so").arg(x.tensor).arg(x.to);
    }
    return {};
}

/// Random cases with a topology, links shared, one op at a time per device.
std::vector<Problem> sharedCases(int count) {
    std::vector<Problem> out;
    for (std::uint64_t seed = 1; static_cast<int>(out.size()) < count && seed < 50000; ++seed) {
        reference::Case c = reference::randomCase(seed, 2, 16);
        Problem& p = c.problem;
        if (p.platform.topology.empty()) continue;
        p.platform.topology.shared = true;
        if (!linksShared(p.platform)) continue;
        bool unit = true;
        for (const Device& d : p.platform.devices) unit = unit && d.resourceCapacity == 1;
        for (const Op& o : p.g().ops()) unit = unit && o.resourceDemand == 1;
        if (unit) out.push_back(p);
    }
    return out;
}

/// True when some topological order of the graph runs each chain's ops in the chain's order
/// (Kahn's algorithm over data edges and consecutive chain ops): the replay accepts the chains.
bool chainsHaveAnOrder(const Graph& g, const DeviceChains& chains) {
    std::vector<std::vector<OpId>> next(static_cast<size_t>(g.opCount()));
    std::vector<int> waiting(static_cast<size_t>(g.opCount()), 0);
    for (OpId v = 0; v < g.opCount(); ++v)
        for (const OpId w : g.successors(v)) next[static_cast<size_t>(v)].push_back(w);
    for (const std::vector<OpId>& chain : chains)
        for (size_t i = 1; i < chain.size(); ++i) next[static_cast<size_t>(chain[i - 1])].push_back(chain[i]);
    for (const std::vector<OpId>& out : next)
        for (const OpId w : out) ++waiting[static_cast<size_t>(w)];
    std::vector<OpId> ready;
    for (OpId v = 0; v < g.opCount(); ++v)
        if (waiting[static_cast<size_t>(v)] == 0) ready.push_back(v);
    int done = 0;
    while (!ready.empty()) {
        const OpId v = ready.back();
        ready.pop_back();
        ++done;
        for (const OpId w : next[static_cast<size_t>(v)])
            if (--waiting[static_cast<size_t>(w)] == 0) ready.push_back(w);
    }
    return done == g.opCount();
}

std::vector<double> randomKeys(Rng& rng, size_t n) {
    std::vector<double> keys(n);
    for (double& k : keys) k = rng.uniform();
    return keys;
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

    // Each engine's own schedule, before any epilogue, is the replay of its placement and order:
    // what it optimised is what it is scored on. Random shared topologies, random keys.
    void enginesBookWhatTheyAreScoredOn() {
        const std::vector<Problem> cases = sharedCases(300);
        QCOMPARE(cases.size(), size_t(300));
        int waited = 0;
        for (size_t k = 0; k < cases.size(); ++k) {
            const Problem& p = cases[k];
            const int n = p.g().opCount();
            Rng rng(k + 1);
            const QString where = QString("case %1").arg(k);
            ListScheduler list(p);
            const Schedule listed = list.schedule(randomKeys(rng, static_cast<size_t>(n)));
            QString diff = differenceFromReplay(p, listed);
            QVERIFY2(diff.isEmpty(), qPrintable(where + " list: " + diff));
            std::vector<int> placement(static_cast<size_t>(n));
            const auto byType = p.platform.devicesByType();
            for (OpId v = 0; v < n; ++v) {
                const auto& allowed = byType[static_cast<size_t>(p.g().op(v).machineType)];
                placement[static_cast<size_t>(v)] =
                    allowed[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(allowed.size()) - 1))];
            }
            const Schedule fixed = list.schedule(randomKeys(rng, static_cast<size_t>(n)), placement);
            diff = differenceFromReplay(p, fixed);
            QVERIFY2(diff.isEmpty(), qPrintable(where + " list, placed: " + diff));
            for (const ScheduledTransfer& x : fixed.transfers)
                waited += x.start > fixed.ops[static_cast<size_t>(p.g().tensor(x.tensor).producer)].end;

            diff = differenceFromReplay(p, heftSchedule(p));
            QVERIFY2(diff.isEmpty(), qPrintable(where + " heft: " + diff));

            const DeviceChains chains = deviceChains(fixed, p.platform.deviceCount());
            const Schedule chained = timeChainsOnPlatform(p, chains);
            diff = differenceFromReplay(p, chained);
            QVERIFY2(diff.isEmpty(), qPrintable(where + " chains: " + diff));
            ChainSchedule search(p, chains);
            QVERIFY2(search.makespan() == chained.makespan, qPrintable(where + " chain search"));
            for (OpId v = 0; v < n; ++v)
                QVERIFY2(search.start(v) == chained.ops[static_cast<size_t>(v)].start,
                         qPrintable(where + " chain search start"));

            ChainDecoder chainDecoder(p);
            const std::vector<double> keys = randomKeys(rng, chainDecoder.size());
            const Schedule decoded = chainDecoder.schedule(keys);
            diff = differenceFromReplay(p, decoded);
            QVERIFY2(diff.isEmpty(), qPrintable(where + " chain decoder: " + diff));
            QVERIFY2(chainDecoder.decode(keys) == decoded.makespan, qPrintable(where + " chain decoder cost"));
            const Schedule again = chainDecoder.schedule(chainKeysOf(p, decoded));
            QVERIFY2(again.order == decoded.order && again.makespan == decoded.makespan,
                     qPrintable(where + " chain keys round trip"));

            RegalDecoder regal(p);
            const std::vector<double> regalKeys = randomKeys(rng, regal.layout().size());
            const Schedule regalSchedule = regal.schedule(regalKeys);
            diff = differenceFromReplay(p, regalSchedule);
            QVERIFY2(diff.isEmpty(), qPrintable(where + " regal: " + diff));
            QVERIFY2(regal.decode(regalKeys) == regalSchedule.makespan, qPrintable(where + " regal cost"));

            // The memory objective on the time clock reads the booked transfer ends.
            Problem memory = p;
            memory.objective.kind = Objective::Memory;
            memory.objective.memoryClock = MemoryClock::Time;
            PriorityEvaluator evaluator(memory);
            const std::vector<double> priority = randomKeys(rng, static_cast<size_t>(n));
            Schedule replayed = timeOnSharedLinks(memory, evaluator.schedule(priority));
            QVERIFY2(evaluator.cost(priority) == scoreSchedule(memory, replayed), qPrintable(where + " memory cost"));
        }
        QVERIFY2(waited >= 5, qPrintable(QString("only %1 transfers waited for a link").arg(waited)));
    }

    // The hand editor on shared links refuses an edit exactly when no order runs the edited
    // chains (no device capacities or pins here), and its preview is the replay of what it shows:
    // every op to every place on random shared cases. Catches a refusal from the booking clock
    // (e.g. a wait mistaken for a cycle) and a preview timed without bookings.
    void editorRefusesNothingTheReplayAccepts() {
        const std::vector<Problem> cases = sharedCases(60);
        int allowed = 0, refused = 0;
        for (size_t k = 0; k < cases.size(); ++k) {
            auto p = std::make_shared<const Problem>(cases[k]);
            Rng rng(k + 7);
            const Schedule start = ListScheduler(*p).schedule(randomKeys(rng, static_cast<size_t>(p->g().opCount())));
            const ScheduleEditor editor(p, start);
            const auto byType = p->platform.devicesByType();
            for (OpId v = 0; v < p->g().opCount(); ++v)
                for (const int d : byType[static_cast<size_t>(p->g().op(v).machineType)]) {
                    DeviceChains without = editor.chains();
                    auto& from = without[static_cast<size_t>(editor.placeOf(v).device)];
                    from.erase(std::find(from.begin(), from.end(), v));
                    for (int at = 0; at <= static_cast<int>(without[static_cast<size_t>(d)].size()); ++at) {
                        DeviceChains moved = without;
                        moved[static_cast<size_t>(d)].insert(moved[static_cast<size_t>(d)].begin() + at, v);
                        const EditOutcome o = editor.preview(v, {.device = d, .position = at});
                        const QString where = QString("case %1, op %2 to device %3 at %4").arg(k).arg(v).arg(d).arg(at);
                        QVERIFY2(o.allowed() == chainsHaveAnOrder(p->g(), moved),
                                 qPrintable(where + ": " + QString::fromStdString(o.refusal)));
                        if (!o.allowed()) {
                            ++refused;
                            continue;
                        }
                        ++allowed;
                        const QString diff = differenceFromReplay(*p, o.schedule);
                        QVERIFY2(diff.isEmpty(), qPrintable(where + ": " + diff));
                    }
                }
        }
        QVERIFY(allowed >= 1000);
        QVERIFY(refused >= 50);
    }

    // A real machine's links are shared unless asked not to be: a preset, a platform file without
    // "shared", and the file's value written back; an abstract platform has nothing to share.
    void realMachinesShareTheirLinksByDefault() {
        const DeviceCatalog& catalog = DeviceCatalog::instance();
        const Platform preset = presetPlatform(catalog.preset("4x-l4-pcie4"), catalog, TimeUnit::Microseconds);
        QVERIFY(preset.topology.shared);
        QVERIFY(linksShared(preset));
        QCOMPARE(linksDescription(preset).rfind("shared", 0), size_t(0));
        QVERIFY(linksDescription(Platform::identical(4)).empty());
        const std::string file =
            R"({"format": "schedlab-platform", "version": 1, "devices": [{"name": "a"}, {"name": "b"}],
            "topology": {"links": [{"name": "ab", "latency": 1, "bandwidth": 10}, {"name": "ba", "latency": 1, "bandwidth": 10}],
                         "routes": [[], [0], [1], []]}})";
        const Platform read = parsePlatform(file, "machine.json");
        QVERIFY(read.topology.shared);
        Platform freed = read;
        freed.topology.shared = false;
        QVERIFY(!parsePlatform(platformToJson(freed), "freed.json").topology.shared);
        QVERIFY(parsePlatform(platformToJson(read), "read.json").topology.shared);
        QCOMPARE(linksDescription(freed).rfind("free", 0), size_t(0));
    }

    // The GFlowNet's premise on a real machine: a schedule planned on free links judged on the
    // same machine with them shared. twoSends' placed order: 11 free, 16 shared; work 5.
    void sharedLinksTargetJudgesWhereTransfersQueue() {
        const Problem free = twoSends(false);
        const Schedule s = timeOnSharedLinks(free, placed());
        const Problem target = targetProblem(free, TargetModel::SharedLinks);
        QVERIFY(linksShared(target.platform));
        QCOMPARE(targetSpeedup(target, s), 5.0 / 16.0);
        QCOMPARE(speedup(free, s), 5.0 / 11.0);
        QVERIFY(targetModelFromString("shared-links") == TargetModel::SharedLinks);
        QCOMPARE(toString(TargetModel::SharedLinks), std::string("shared-links"));
        // without routes there is nothing to share: the machine's own interconnect
        const Problem abstract{free.graph, Platform::identical(2), {}};
        QCOMPARE(targetSpeedup(targetProblem(abstract, TargetModel::SharedLinks), s), speedup(abstract, s));
    }

    // s0 runs 0-1 on device 0. Free links: p1 takes device 0 (1-5) and p2 goes to device 1, its
    // two inputs arriving at 1 + 3 = 4 (4-8, makespan 8). Shared: w2 waits for x2 (arrives 7), so
    // device 0, free at 5, is sooner: p2 runs 5-9 after p1 and the chain stays on one device; the
    // free schedule on the shared links would end at 7 + 4 = 11.
    void contentionKeepsAChainOnOneDevice() {
        const Problem free = forkOfThree(false), shared = forkOfThree(true);
        const std::vector<double> priority = {3, 2, 1};
        const Schedule split = ListScheduler(free).schedule(priority);
        QCOMPARE(split.ops[2].device, 1);
        QCOMPARE(split.makespan, 8.0);
        QCOMPARE(timeOnSharedLinks(shared, split).makespan, 11.0);
        const Schedule kept = ListScheduler(shared).schedule(priority);
        QCOMPARE(kept.ops[1].device, 0);
        QCOMPARE(kept.ops[2].device, 0);
        QCOMPARE(kept.ops[2].start, 5.0);
        QCOMPARE(kept.makespan, 9.0);
        QVERIFY(kept.transfers.empty());
        QVERIFY(differenceFromReplay(shared, kept).isEmpty());
    }
};

SCHEDLAB_TEST_MAIN(sharedlinks, TestSharedLinks)
#include "tst_sharedlinks.moc"
