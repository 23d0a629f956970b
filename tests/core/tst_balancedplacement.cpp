// SPDX-License-Identifier: MIT
// The REGAL decoder's placement that sees memory (core/brkga/balancedplacement.h): each weight by
// hand on a graph small enough to score on paper, and with no weight the papers' argmax.
#include "common/testmain.h"
#include "core/brkga/balancedplacement.h"
#include "core/brkga/regaldecoder.h"
#include "core/generators/generators.h"
#include "core/util/random.h"

#include <QtTest>

#include <array>
#include <cmath>

using namespace sl;

namespace balancedplacementtest {

Problem twoDevices(std::shared_ptr<Graph> g, double capacity0 = kInfinity, double capacity1 = kInfinity) {
    g->finalize();
    Problem p;
    p.graph = std::move(g);
    p.platform = Platform::identical(2);
    p.platform.devices[0].memoryCapacity = capacity0;
    p.platform.devices[1].memoryCapacity = capacity1;
    p.objective.kind = Objective::Memory;
    return p;
}

/// Keys with the given (affinity to device 0, affinity to device 1, priority) per op.
std::vector<double> keysOf(const RegalLayout& L, const std::vector<std::array<double, 3>>& perOp) {
    std::vector<double> k(L.size(), 0.5);
    for (OpId v = 0; v < static_cast<OpId>(perOp.size()); ++v) {
        k[L.affinity(v, 0)] = perOp[static_cast<size_t>(v)][0];
        k[L.affinity(v, 1)] = perOp[static_cast<size_t>(v)][1];
        k[L.priority(v)] = perOp[static_cast<size_t>(v)][2];
    }
    return k;
}

std::vector<int> placed(const Problem& p, const std::vector<double>& keys, PlacementRule rule) {
    BalancedPlacement placement(p, p.platform.devicesByType());
    std::vector<int> devices(static_cast<size_t>(p.g().opCount()), -1);
    placement.place(keys, RegalLayout::of(p), rule, kNoOp, devices);
    return devices;
}

/// Two sources of 8 bytes each, read by one sink: s1 (op 0), s2 (op 1), z (op 2).
std::shared_ptr<Graph> twoSources() {
    auto g = std::make_shared<Graph>();
    const OpId s1 = g->addOp({.name = "s1", .duration = 1});
    const OpId s2 = g->addOp({.name = "s2", .duration = 1});
    const OpId z = g->addOp({.name = "z", .duration = 1});
    g->addConsumer(g->addTensor("t1", s1, 8), z);
    g->addConsumer(g->addTensor("t2", s2, 8), z);
    return g;
}

}   // namespace balancedplacementtest

using namespace balancedplacementtest;

class TestBalancedPlacement : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // a -> 8 bytes -> b; b prefers device 1 by 0.6 to 0.4, its input is made on device 0. Scores
    // of b with locality L: device 0: 0.4; device 1: 0.6 - L (all its input bytes copied).
    // Catches a locality term left out, of the wrong sign, or not scaled by the copied share.
    void localityKeepsAnOpWithItsInput() {
        auto g = std::make_shared<Graph>();
        const OpId a = g->addOp({.name = "a", .duration = 1});
        const OpId b = g->addOp({.name = "b", .duration = 1});
        g->addConsumer(g->addTensor("t", a, 8), b);
        const Problem p = twoDevices(g);
        const auto keys = keysOf(RegalLayout::of(p), {{0.9, 0.1, 0.9}, {0.4, 0.6, 0.5}});
        QCOMPARE(placed(p, keys, {.balance = 0, .locality = 1.0}), (std::vector<int>{0, 0}));   // 0.4 > -0.4
        QCOMPARE(placed(p, keys, {.balance = 0, .locality = 0.1}), (std::vector<int>{0, 1}));   // 0.4 < 0.5
        QCOMPARE(placed(p, keys, {}), (std::vector<int>{0, 1}));
    }

    // s1 first (priority 0.9) onto device 0, where its 8 bytes stay live; then s2 prefers device 0
    // by 0.6 to 0.5. With balance B device 0 scores 0.6 - B x 8 / 8, device 1 0.5. Given s2 the
    // higher priority, s2 is placed first, on an empty machine, and s1 follows it to device 0.
    // Catches the balance term left out, shares not taken of the most loaded device, and a walk in
    // op-id order instead of the priorities'.
    void balanceSendsAnOpToTheEmptierDevice() {
        const Problem p = twoDevices(twoSources());
        const RegalLayout L = RegalLayout::of(p);
        const auto s1First = keysOf(L, {{0.9, 0.1, 0.9}, {0.6, 0.5, 0.8}, {0.5, 0.5, 0.1}});
        QCOMPARE(placed(p, s1First, {.balance = 0.3, .locality = 0})[1], 1);    // 0.3 < 0.5
        QCOMPARE(placed(p, s1First, {.balance = 0.05, .locality = 0})[1], 0);   // 0.55 > 0.5
        const auto s2First = keysOf(L, {{0.9, 0.1, 0.8}, {0.6, 0.5, 0.9}, {0.5, 0.5, 0.1}});
        // s2 on the empty machine, device 0; s1: 0.9 - 0.3 > 0.1; z, all 16 bytes on device 0: 0.2 < 0.5
        QCOMPARE(placed(p, s2First, {.balance = 0.3, .locality = 0}), (std::vector<int>{0, 0, 1}));
    }

    // Device 0 holds 10 bytes, device 1 100; both sources prefer device 0. s1's step holds 8 bytes
    // there (fits); s2's would hold 16 (does not): s2 goes to device 1 whatever its keys, and so
    // does z (on device 0 its step would hold t1 and a copy of t2, 16 bytes). With room for 16 on
    // device 0, everything stays there. Catches a capacity ignored, or the copies left out of a step's bytes.
    void aDeviceWithoutRoomIsSkipped() {
        const auto keys = [](const Problem& p) {
            return keysOf(RegalLayout::of(p), {{0.9, 0.1, 0.9}, {0.9, 0.1, 0.8}, {0.9, 0.1, 0.1}});
        };
        const Problem tight = twoDevices(twoSources(), 10, 100);
        QCOMPARE(placed(tight, keys(tight), {.balance = 0, .locality = 0}), (std::vector<int>{0, 1, 1}));
        const Problem roomy = twoDevices(twoSources(), 16, 100);
        QCOMPARE(placed(roomy, keys(roomy), {.balance = 0, .locality = 0}), (std::vector<int>{0, 0, 0}));
    }

    // With no weight and unlimited memory the walk places every op where the papers' decoder does
    // (the argmax affinity over the op's machine type, ties to the lower device), on random keys of
    // graphs with one and with several machine types. Catches another tie rule or machine type.
    void noWeightIsThePapersArgmax() {
        for (const char* family : {"layered", "erdos-renyi"}) {
            for (std::uint64_t seed = 1; seed <= 3; ++seed) {
                GeneratedInstance inst = generateInstance(family, 80, seed);
                Problem p;
                p.graph = inst.graph;
                p.platform = std::string(family) == "layered" ? Platform::identical(3) : inst.platform;
                for (Device& d : p.platform.devices) d.memoryCapacity = kInfinity;
                RegalDecoder papers(p, false);
                BalancedPlacement walk(p, p.platform.devicesByType());
                Rng rng(seed);
                std::vector<double> keys(papers.layout().size());
                for (int trial = 0; trial < 4; ++trial) {
                    for (double& k : keys)
                        k = trial == 3 ? std::floor(rng.uniform() * 3) / 3 : rng.uniform();   // trial 3: ties
                    papers.decode(keys);
                    std::vector<int> devices(static_cast<size_t>(p.g().opCount()), -1);
                    walk.place(keys, papers.layout(), {}, kNoOp, devices);
                    QVERIFY(std::equal(devices.begin(), devices.end(), papers.placement().begin(),
                                       papers.placement().end()));
                }
            }
        }
    }

    // The decoder with a rule gives the op symmetry breaking fixes device 0, whatever the rule.
    void theSymmetryOpStaysOnDeviceZero() {
        const Problem p = twoDevices(twoSources());
        RegalDecoder dec(p, true, {.balance = 0.3, .locality = 1.0});
        QVERIFY(dec.symmetryOp() != kNoOp);
        std::vector<double> keys(dec.layout().size(), 0.5);
        keys[dec.layout().affinity(dec.symmetryOp(), 1)] = 1.0;
        dec.decode(keys);
        QCOMPARE(dec.placement()[static_cast<size_t>(dec.symmetryOp())], 0);
    }

    void negativeWeightsAreRefused() {
        const Problem p = twoDevices(twoSources());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RegalDecoder(p, true, {.balance = -1, .locality = 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RegalDecoder(p, true, {.balance = 0, .locality = -0.5}));
    }
};

SCHEDLAB_TEST_MAIN(balancedplacement, TestBalancedPlacement)
#include "tst_balancedplacement.moc"
