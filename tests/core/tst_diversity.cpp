// SPDX-License-Identifier: MIT
// Diversity metrics (Zhang et al. 2023, App. E.2, read as docs/diversity.md says) on hand-made
// schedules of 4 unit-length ops, values computed by hand.
#include "common/testmain.h"
#include "core/analysis/diversity.h"

#include <QTest>

#include <cmath>

using namespace sl;

namespace {

/// Unit-length ops; `chains[d]` runs back to back on device d from time 0.
Schedule fromChains(const DeviceChains& chains, int ops = 4) {
    Schedule s;
    s.ops.resize(static_cast<size_t>(ops));
    for (size_t d = 0; d < chains.size(); ++d)
        for (size_t i = 0; i < chains[d].size(); ++i)
            s.ops[static_cast<size_t>(chains[d][i])] = {static_cast<int>(d), double(i), double(i) + 1};
    for (OpId v = 0; v < ops; ++v) s.order.push_back(v);
    return s;
}

// x: edges 0->1, 2->3, starts (0, 1, 0, 1), devices (0, 0, 1, 1)
const Schedule kX = fromChains({{0, 1}, {2, 3}});
// y: edges 0->2, 1->3, starts (0, 0, 1, 1), devices (0, 1, 0, 1)
const Schedule kY = fromChains({{0, 2}, {1, 3}});
// z: x with the devices swapped; devices (1, 1, 0, 0)
const Schedule kZ = fromChains({{2, 3}, {0, 1}});
// w: one chain 0->1->2->3, starts (0, 1, 2, 3)
const Schedule kW = fromChains({{0, 1, 2, 3}});

bool near(double a, double b) { return std::abs(a - b) < 1e-12; }

} // namespace

class TestDiversity : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches: labelled chain edges (x vs z would be 100), a denominator of one schedule's edges
    // (x vs w would be 33.3 or 50), counting each differing edge once.
    void gedByHand() {
        QCOMPARE(chainGed(kX, kY), 100.0);   // {01, 23} vs {02, 13}: 4 differing / 4 edges
        QCOMPARE(chainGed(kX, kZ), 0.0);     // device labels do not count
        QCOMPARE(chainGed(kX, kW), 20.0);    // {01, 23} vs {01, 12, 23}: 1 / 5
        QCOMPARE(chainGed(kX, kW, GedDenominator::EdgeMean), 40.0);   // 1 / 2.5
        QCOMPARE(chainGed(kW, kX), 20.0);
        const Schedule alone = fromChains({{0}, {1}, {2}, {3}});
        QCOMPARE(chainGed(alone, alone), 0.0);   // no edges at all
        QCOMPARE(chainGed(alone, kW), 100.0);
    }

    // Catches: d_sen ignoring kappa or device labels, d_inv reading devices.
    void startTimeDistancesByHand() {
        QVERIFY(near(startTimeDistance(kX, kY), std::sqrt(2.0)));   // ops 1 and 2 differ by 1
        QCOMPARE(startTimeDistance(kX, kZ), 0.0);
        QVERIFY(near(placementSensitiveDistance(kX, kY), std::sqrt(2.0 + 2 * 2)));   // ops 1, 2 moved
        QVERIFY(near(placementSensitiveDistance(kX, kZ), std::sqrt(2.0 * 4)));       // all 4 moved
        QVERIFY(near(placementSensitiveDistance(kX, kZ, 2), std::sqrt(2.0 * 4 * 4)));
        QVERIFY(near(startTimeDistance(kX, kW), std::sqrt(0 + 0 + 4 + 4.0)));
    }

    // Pairs (x,y), (x,z), (y,z): GED 100, 0, 100; d_inv √2, 0, √2; d_sen √6, √8, √6 (y vs z:
    // ops 0 and 3 moved). Catches: n² or n(n-1) pairs, relabelled duplicates counted as exact.
    void meanOverPairsAndDistinctCounts() {
        const std::vector<Schedule> set = {kX, kY, kZ};
        const Diversity d = diversity(set);
        QVERIFY(near(d.ged, 200.0 / 3));
        QVERIFY(near(d.dInv, 2 * std::sqrt(2.0) / 3));
        QVERIFY(near(d.dSen, (2 * std::sqrt(6.0) + std::sqrt(8.0)) / 3));
        QCOMPARE(d.distinct, 3);
        QCOMPARE(d.distinctUpToRelabelling, 2);

        const Diversity twice = diversity(std::vector<Schedule>{kX, kX});
        QCOMPARE(twice.ged, 0.0);
        QCOMPARE(twice.distinct, 1);
        const Diversity one = diversity(std::vector<Schedule>{kY});
        QCOMPARE(one.ged, 0.0);
        QCOMPARE(one.dSen, 0.0);
        QCOMPARE(one.distinct, 1);
        QCOMPARE(diversity(std::vector<Schedule>{}).distinct, 0);
    }

    // An empty device 0 is a different labelled schedule, the same one up to relabelling.
    void emptyDevicesAndRelabelling() {
        const Schedule onFirst = fromChains({{0, 1, 2, 3}});
        const Schedule onSecond = fromChains({{}, {0, 1, 2, 3}});
        const Diversity d = diversity(std::vector<Schedule>{onFirst, onSecond});
        QCOMPARE(d.distinct, 2);
        QCOMPARE(d.distinctUpToRelabelling, 1);
        QCOMPARE(d.ged, 0.0);
        QVERIFY(near(d.dSen, std::sqrt(8.0)));
    }

    void differentGraphsAreRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, chainGed(kX, fromChains({{0, 1, 2}}, 3)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, diversity(std::vector<Schedule>{kX, fromChains({{0}}, 1)}));
    }
};

SCHEDLAB_TEST_MAIN(diversity, TestDiversity)
#include "tst_diversity.moc"
