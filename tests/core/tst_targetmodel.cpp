// SPDX-License-Identifier: MIT
// Chain timing and the target models (Zhang et al. 2023, §2.2 and §5.1; docs/costmodel.md) on
// hand-checked cases, and re-timing a list schedule's own chains gives back its times (one clock,
// two paths).
#include "common/testmain.h"
#include "core/costmodel/chaintiming.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/target.h"
#include "common/reference.h"

#include "common/workedexample.h"

#include <QTest>

#include <cmath>

using namespace sl;

namespace {

Problem workedExample() { return reference::gflownetWorkedExample(); }

// The three schedules of the worked example (docs/costmodel.md, "Worked examples"), as chains of op ids.
const DeviceChains kA = {{0, 2}, {1, 3}};   // d1 = [1, 3], d2 = [2, 4]
const DeviceChains kB = {{1, 2}, {0, 3}};   // d1 = [2, 3], d2 = [1, 4]
const DeviceChains kC = {{0, 1, 3}, {2}};   // d1 = [1, 2, 4], d2 = [3]
const DeviceChains kOne = {{0, 1, 2, 3}, {}};

std::vector<double> starts(const Schedule& s) {
    std::vector<double> out;
    for (const ScheduledOp& o : s.ops) out.push_back(o.start);
    return out;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b)); }

} // namespace

class TestTargetModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches: a missing chain edge (C's op 2 would start at 0), a missing graph edge (B's op 3
    // at 1, C's op 3 at 0), a makespan other than the last end.
    void proxyReproducesTheSpecTable() {
        const Problem p = workedExample();
        const Schedule a = timeChains(p, kA), b = timeChains(p, kB), c = timeChains(p, kC);
        QCOMPARE(starts(a), (std::vector<double>{0, 0, 2, 1}));
        QCOMPARE(starts(b), (std::vector<double>{0, 0, 2, 2}));
        QCOMPARE(starts(c), (std::vector<double>{0, 2, 3, 3}));
        QCOMPARE(a.makespan, 5.0);
        QCOMPARE(c.makespan, 6.0);
        QCOMPARE(speedup(p, a), 1.4);
        QCOMPARE(speedup(p, b), 1.4);
        QCOMPARE(speedup(p, c), 7.0 / 6);
        QCOMPARE(c.ops[2].device, 1);
        QCOMPARE(c.order.size(), size_t(4));
        QCOMPARE(c.order.front(), 0);   // by start time
        QCOMPARE(c.order[1], 1);
    }

    // Bandwidth: a = 8 x 1.75 = 14 per 4-byte unit, b = 0.175; delays 10.675 (3 bytes), 3.675
    // (1 byte). Catches: a unit other than 2 x the mean size, a and b swapped, a delay on
    // same-device edges (A's op 3 reads op 1 locally), bytes ignored.
    void bandwidthTargetByHand() {
        const Problem p = workedExample();
        const Problem t = targetProblem(p, TargetModel::Bandwidth);
        QCOMPARE(memoryUnitBytes(p.g()), 4.0);
        QVERIFY(near(t.platform.link.latency, 0.175));
        QVERIFY(near(t.platform.link.bandwidth, 4.0 / 14));
        QVERIFY(near(chainMakespan(t, kA), 1 + 3.675 + 3));    // op 3 waits for op 2's byte
        QVERIFY(near(chainMakespan(t, kB), 2 + 10.675 + 3));   // op 3 waits for op 1's 3 bytes
        QVERIFY(near(chainMakespan(t, kC), 2 + 10.675 + 3));
        QVERIFY(near(chainMakespan(t, kOne), 7));
        const Schedule a = timeChains(p, kA);
        QVERIFY(near(targetSpeedup(t, a), 7 / 7.675));
    }

    // Latency: a = 0.175 per unit, b = 3.5; delays 3.63125 (3 bytes), 3.54375 (1 byte).
    void latencyTargetByHand() {
        const Problem t = targetProblem(workedExample(), TargetModel::Latency);
        QVERIFY(near(chainMakespan(t, kA), 1 + 3.54375 + 3));
        QVERIFY(near(chainMakespan(t, kB), 2 + 3.63125 + 3));
        QVERIFY(near(chainMakespan(t, kC), 3 + 3.54375 + 3));   // op 2's later end binds, not op 1's larger tensor
        QVERIFY(near(chainMakespan(t, kOne), 7));
    }

    // Every cross-device edge pays b, zero-byte (control) tensors too (docs/costmodel.md, "Target
    // models").
    // Without any positive bytes the bandwidth term vanishes. Catches: skipping zero-byte inputs.
    void zeroByteTensorsPayTheLatency() {
        auto g = std::make_shared<Graph>();
        g->addOp({.name = "a", .duration = 1});
        g->addOp({.name = "b", .duration = 1});
        g->addEdge(0, 1, 0);
        g->finalize();
        const Problem p{g, Platform::identical(2), {}};
        const Problem lat = targetProblem(p, TargetModel::Latency);
        QCOMPARE(memoryUnitBytes(*g), 0.0);
        QCOMPARE(lat.platform.link.bandwidth, kInfinity);
        QCOMPARE(chainMakespan(lat, {{0}, {1}}), 1 + 2.0 + 1);   // b = 2 x mean duration 1
        QCOMPARE(chainMakespan(lat, {{0, 1}, {}}), 2.0);
    }

    // The noise is one lognormal factor per op, fixed by the seed. Catches: fresh noise per call,
    // a seed that is ignored, a sigma other than 0.5, the proxy's durations in the speedup.
    void noisyTargetIsSeededLognormal() {
        auto g = std::make_shared<Graph>();
        const int n = 4000;
        for (int i = 0; i < n; ++i) g->addOp({.name = "n" + std::to_string(i), .duration = i == 0 ? 0.0 : 1.0});
        g->finalize();
        const auto x = noisyGraph(*g, 7), y = noisyGraph(*g, 7), z = noisyGraph(*g, 8);
        QCOMPARE(x->op(0).duration, 0.0);   // zero stays zero
        double sum = 0, squares = 0;
        bool differs = false;
        for (OpId v = 1; v < n; ++v) {
            QCOMPARE(x->op(v).duration, y->op(v).duration);
            differs = differs || x->op(v).duration != z->op(v).duration;
            const double e = std::log(x->op(v).duration);
            sum += e;
            squares += e * e;
        }
        QVERIFY(differs);
        const double mean = sum / (n - 1), sd = std::sqrt(squares / (n - 1) - mean * mean);
        QVERIFY2(std::abs(mean) < 0.03 && std::abs(sd - 0.5) < 0.03, qPrintable(QString("%1 %2").arg(mean).arg(sd)));

        const Problem p = workedExample();
        const Problem t = targetProblem(p, TargetModel::Noisy, 3);
        QVERIFY(t.platform.link.free());
        const Graph& tg = t.g();
        const Schedule a = timeChains(p, kA);
        // Target A by hand: op 3 after op 1 (chain) and op 2; op 4 after op 2.
        const double e3 = std::max(tg.op(0).duration, tg.op(1).duration) + tg.op(2).duration;
        const double e4 = tg.op(1).duration + tg.op(3).duration;
        QVERIFY(near(targetSpeedup(t, a), tg.totalWork() / std::max(e3, e4)));
        QVERIFY(tg.totalWork() != p.g().totalWork());
    }

    // The proxy re-times: a schedule's own times and the problem's interconnect do not count.
    void proxyIgnoresStoredTimesAndTheLink() {
        Problem p = workedExample();
        Schedule a = timeChains(p, kA);
        for (ScheduledOp& o : a.ops) {
            o.start += 10;
            o.end += 10;
        }
        p.platform.link = {.latency = 5, .bandwidth = 1};
        QCOMPARE(proxySpeedup(p, a), 1.4);
        QVERIFY(speedup(p, a) < 1.4);   // the costly link itself does slow it down
    }

    // 1 <= U <= m for every schedule on the proxy: the GFlowNet paper bounds U by the device count
    // (§5), and U >= 1 because a chain of ops covers [0, T] without gaps.
    void proxySpeedupIsBetweenOneAndTheDeviceCount() {
        for (std::uint64_t seed = 1; seed <= 200; ++seed) {
            reference::Case c = reference::randomCase(seed);
            if (!c.positiveDurations) continue;
            Problem& p = c.problem;
            Rng rng(seed);
            DeviceChains chains(static_cast<size_t>(p.platform.deviceCount()));
            const auto byType = p.platform.devicesByType();
            for (OpId v : p.g().topologicalOrder()) {
                const auto& devices = byType[static_cast<size_t>(p.g().op(v).machineType)];
                chains[static_cast<size_t>(devices[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(devices.size()) - 1))])].push_back(v);
            }
            const double u = speedup(proxyProblem(p), timeChains(proxyProblem(p), chains));
            QVERIFY2(u >= 1 - 1e-12 && u <= p.platform.deviceCount() + 1e-12, qPrintable(QString::number(u)));
        }
    }

    // One clock: the list scheduler's chains, re-timed, give its own times, bit for bit (free
    // transfers with any placement; a costly link with a fixed placement). Catches any drift of
    // the arrival rule or the durations between the two paths.
    void retimingAListScheduleGivesItsTimes() {
        for (std::uint64_t seed = 1; seed <= 300; ++seed) {
            reference::Case c = reference::randomCase(seed);
            const Problem& p = c.problem;
            Rng rng(seed + 1000);
            std::vector<double> prio(static_cast<size_t>(p.g().opCount()));
            for (double& x : prio) x = rng.uniform();
            std::vector<int> placement;
            if (!p.platform.link.free()) {
                const auto byType = p.platform.devicesByType();
                for (const Op& o : p.g().ops()) {
                    const auto& devices = byType[static_cast<size_t>(o.machineType)];
                    placement.push_back(devices[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(devices.size()) - 1))]);
                }
            }
            ListScheduler ls(p);
            const Schedule listed = ls.schedule(prio, placement);
            const Schedule timed = timeChains(p, deviceChains(listed, p.platform.deviceCount()));
            for (OpId v = 0; v < p.g().opCount(); ++v) {
                const auto sv = static_cast<size_t>(v);
                QVERIFY2(timed.ops[sv].start == listed.ops[sv].start && timed.ops[sv].end == listed.ops[sv].end &&
                             timed.ops[sv].device == listed.ops[sv].device,
                         qPrintable(QString("case %1, op %2").arg(seed).arg(v)));
            }
            QCOMPARE(timed.makespan, listed.makespan);
            QCOMPARE(timed.transfers.size(), listed.transfers.size());
        }
    }

    void badChainsAreRefused() {
        const Problem p = workedExample();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, timeChains(p, {{2, 0}, {1, 3}}));   // op 3 before op 1
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, timeChains(p, {{0, 2}, {1}}));      // op 4 missing
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, timeChains(p, {{0, 2, 3}, {1, 3}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, timeChains(p, {{0}, {1}, {2, 3}}));   // 3 devices of 2
        try {
            timeChains(p, {{2, 0}, {1, 3}});
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("precedence") != std::string::npos, e.what());
        }
        auto g = std::make_shared<Graph>();
        g->addOp({.name = "idle", .duration = 0});
        g->finalize();
        const Problem empty{g, Platform::identical(1), {}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, speedup(empty, timeChains(empty, {{0}})));
    }

    void modelNamesRoundTrip() {
        for (TargetModel m : {TargetModel::Proxy, TargetModel::Noisy, TargetModel::Bandwidth, TargetModel::Latency})
            QVERIFY(targetModelFromString(toString(m)) == m);
        QCOMPARE(toString(TargetModel::Bandwidth), std::string("bandwidth"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, targetModelFromString("fast"));
    }
};

SCHEDLAB_TEST_MAIN(targetmodel, TestTargetModel)
#include "tst_targetmodel.moc"
