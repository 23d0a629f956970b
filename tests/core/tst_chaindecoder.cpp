// SPDX-License-Identifier: MIT
// The chain decoder of `brkga-chains` (docs/brkga.md): hand-checked chromosomes (priority
// order, the device-key slots, machine types), every GFlowNet terminal state of a small graph
// reached by some chromosome, the cost equal to sl::scoreSchedule to the bit on random graphs and
// platforms (with and without memory in the cost), and the optimizer reaching the brute-force
// optimum of a small instance.
#include "common/bits.h"
#include "common/testmain.h"
#include "core/brkga/brkgaoptimizer.h"
#include "core/brkga/chaindecoder.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/gflownet/environment.h"
#include "core/util/random.h"
#include "common/reference.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <functional>
#include <set>

using namespace sl;

namespace {


/// Ops with the given durations; `edges` are zero-byte (producer, consumer) pairs.
std::shared_ptr<Graph> graphOf(const std::vector<double>& durations, const std::vector<std::pair<int, int>>& edges) {
    auto g = std::make_shared<Graph>();
    for (size_t i = 0; i < durations.size(); ++i) g->addOp({.name = "o" + std::to_string(i), .duration = durations[i]});
    for (auto [from, to] : edges) g->addConsumer(g->addTensor("t" + std::to_string(from) + "_" + std::to_string(to), from, 0), to);
    g->finalize();
    return g;
}

Problem onDevices(std::shared_ptr<const Graph> g, int devices) {
    Problem p;
    p.graph = std::move(g);
    p.platform = Platform::identical(devices);
    return p;
}

/// The chains of a schedule: per device, its ops by start (ties: the order they were appended).
std::vector<std::vector<OpId>> chainsOf(const Schedule& s, int devices) {
    std::vector<std::vector<OpId>> chains(static_cast<size_t>(devices));
    for (OpId v : s.order) chains[static_cast<size_t>(s.ops[static_cast<size_t>(v)].device)].push_back(v);
    return chains;
}

/// Every terminal state of `env` (as its chains), by depth-first search over forward actions.
std::set<std::vector<std::vector<OpId>>> allTerminalChains(const gfn::ScheduleEnv& env) {
    std::set<std::vector<std::vector<OpId>>> out;
    gfn::PartialSchedule s(env);
    std::function<void()> visit = [&] {
        if (s.complete()) {
            std::vector<std::vector<OpId>> chains;
            for (int d = 0; d < env.devices(); ++d) chains.push_back(s.chain(d));
            out.insert(chains);
            return;
        }
        for (OpId v : s.readyOps())
            for (int d = 0; d < env.devices(); ++d) {
                if (!s.canAdd(v, d)) continue;
                s.add(v, d);
                visit();
                s.remove(v);
            }
    };
    visit();
    return out;
}

} // namespace

class TestChainDecoder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Independent a(2), b(1), c(3) and d(1) after b, on 2 devices: a and b on device 0, c and d on
    // device 1. Priority a > b: a [0, 2], b [2, 3], c [0, 3], d [3, 4]. Priority b > a: b [0, 1],
    // a [1, 3], d [3, 4] (after c). Catches a decoder that ignores or inverts the priorities.
    void priorityOrdersTheChainsByHand() {
        const Problem p = onDevices(graphOf({2, 1, 3, 1}, {{1, 3}}), 2);
        ChainDecoder dec(p);
        QCOMPARE(dec.size(), size_t{8});
        const std::vector<double> aFirst{0.9, 0.5, 0.8, 0.1, /*devices*/ 0.2, 0.3, 0.7, 0.9};
        Schedule s = dec.schedule(aFirst);
        const std::vector<std::pair<double, double>> expectA{{0, 2}, {2, 3}, {0, 3}, {3, 4}};
        for (OpId v = 0; v < 4; ++v) {
            QCOMPARE(s.ops[static_cast<size_t>(v)].start, expectA[static_cast<size_t>(v)].first);
            QCOMPARE(s.ops[static_cast<size_t>(v)].end, expectA[static_cast<size_t>(v)].second);
        }
        QCOMPARE(dec.decode(aFirst), 4.0);
        std::vector<double> bFirst = aFirst;
        bFirst[1] = 0.95;
        s = dec.schedule(bFirst);
        QCOMPARE(s.ops[1].start, 0.0);
        QCOMPARE(s.ops[0].start, 1.0);
        QCOMPARE(s.ops[3].start, 3.0);
        QCOMPARE(dec.decode(bFirst), 4.0);
    }

    // Device key g on m devices: floor(g m), so 0.2499 -> 0, 0.25 -> 1, 0.5 -> 2, 0.9999 -> 3 on
    // four; with machine types only the op's own devices count: slots over [gpu0, gpu1] or [cpu].
    // Catches an off-by-one slot, round() instead of floor(), or a slot over all devices.
    void deviceKeysPickSlots() {
        const Problem p = onDevices(graphOf({1, 1, 1, 1, 1}, {}), 4);
        ChainDecoder dec(p);
        const Schedule s = dec.schedule(std::vector<double>{0.5, 0.5, 0.5, 0.5, 0.5, 0.2499, 0.25, 0.5, 0.9999, 0.0});
        const std::vector<int> expected{0, 1, 2, 3, 0};
        for (OpId v = 0; v < 5; ++v) QCOMPARE(s.ops[static_cast<size_t>(v)].device, expected[static_cast<size_t>(v)]);

        auto g = std::make_shared<Graph>(*graphOf({1, 1, 1}, {}));
        g->mutableOp(1).machineType = 1;
        g->finalize();
        Problem typed;
        typed.graph = g;
        typed.platform.devices = {{"gpu0", 0}, {"cpu", 1}, {"gpu1", 0}};
        ChainDecoder typedDec(typed);
        const Schedule t = typedDec.schedule(std::vector<double>{0.3, 0.2, 0.1, 0.6, 0.9, 0.4});
        QCOMPARE(t.ops[0].device, 2);   // gpu slot 1 of 2
        QCOMPARE(t.ops[1].device, 1);   // the only cpu
        QCOMPARE(t.ops[2].device, 0);   // gpu slot 0 of 2
    }

    // The chromosome reaches every schedule of the GFlowNet's action space (Zhang et al. 2023,
    // §2.3; docs/brkga.md, "Choices where the papers are silent"). For each of the terminal states
    // of a 5-op graph on 2 devices, keys made from one trajectory that builds it (priorities
    // falling along the trajectory, device keys at slot centres) decode to exactly its chains. Catches placement by earliest start instead of by key, and a wrong slot map.
    void reachesEveryTerminalState() {
        const Problem p = onDevices(graphOf({1, 2, 1, 3, 1}, {{0, 2}, {1, 2}, {2, 4}}), 2);
        const gfn::ScheduleEnv env(p);
        const auto terminals = allTerminalChains(env);
        QVERIFY(terminals.size() > 100);
        ChainDecoder dec(p);
        for (const auto& chains : terminals) {
            gfn::PartialSchedule s(env);   // one trajectory to this state: replay the chains
            std::vector<double> keys(10, 0.0);
            std::vector<size_t> next(chains.size(), 0);
            for (int step = 0; !s.complete(); ++step)
                for (int d = 0; d < 2; ++d) {
                    const auto& c = chains[static_cast<size_t>(d)];
                    if (next[static_cast<size_t>(d)] == c.size() || !s.ready(c[next[static_cast<size_t>(d)]])) continue;
                    const OpId v = c[next[static_cast<size_t>(d)]++];
                    s.add(v, d);
                    keys[static_cast<size_t>(v)] = 1.0 - 0.05 * s.scheduledCount();
                    keys[static_cast<size_t>(5 + v)] = (d + 0.5) / 2;
                    break;
                }
            QCOMPARE(chainsOf(dec.schedule(keys), 2), chains);
        }
    }

    // The one cost model: decode() equals sl::scoreSchedule of schedule() to the bit, and the
    // schedule is valid, on random graphs with machine types, costly links and zero durations,
    // with a makespan cost (fast path) and with a memory cap the cost must read (full path).
    void costIsTheCostModelsToTheBit() {
        Rng rng(11);
        for (std::uint64_t seed = 1; seed <= 120; ++seed) {
            reference::Case c = reference::randomCase(seed * 29, 2, 20);
            if (seed % 3 == 0)
                for (Device& d : c.problem.platform.devices) d.memoryCapacity = 20;
            ChainDecoder dec(c.problem);
            std::vector<double> keys(dec.size());
            for (double& k : keys) k = rng.uniform();
            const double cost = dec.decode(keys);
            Schedule s = dec.schedule(keys);
            const ValidationReport v = validateSchedule(c.problem, s);
            QVERIFY2(v.ok(), v.errors.empty() ? "" : v.errors.front().c_str());
            QVERIFY(sameBits(cost, scoreSchedule(c.problem, s)));
        }
    }

    // brkga-chains on a 6-op instance on 2 devices reaches the minimum makespan over every
    // terminal state (brute force), and its candidates are its final population's best, sorted.
    // Catches a cost the engine maximises, or candidates out of order.
    void optimizerFindsTheBruteForceOptimum() {
        const Problem p = onDevices(graphOf({3, 1, 2, 2, 1, 4}, {{0, 2}, {1, 3}, {2, 4}, {3, 4}}), 2);
        const gfn::ScheduleEnv env(p);
        double optimum = kInfinity;
        for (const auto& chains : allTerminalChains(env)) {
            gfn::PartialSchedule s(env);
            for (bool progress = true; progress;) {
                progress = false;
                for (int d = 0; d < 2; ++d)
                    for (OpId v : chains[static_cast<size_t>(d)])
                        if (!s.scheduled(v)) {
                            if (s.ready(v)) s.add(v, d), progress = true;
                            break;
                        }
            }
            optimum = std::min(optimum, s.makespan());
        }
        QCOMPARE(optimum, 7.0);   // by hand: work 13 on 2 devices, chain 0 -> 2 -> 4 is 6; 7 is reachable
        RunOptions o;
        o.seed = 1;
        o.budget = 3000;
        o.candidates = 5;
        const RunResult r = brkga::makeOptimizer(brkga::Chromosomes::Chains)->run(p, o, {}, {});
        QCOMPARE(r.cost, optimum);
        QCOMPARE(r.schedule.method, std::string("brkga-chains"));
        QCOMPARE(static_cast<int>(r.candidates.size()), 5);
        std::vector<double> costs;
        for (Schedule c : r.candidates) costs.push_back(scoreSchedule(p, c));
        QCOMPARE(costs.front(), optimum);
        QVERIFY(std::is_sorted(costs.begin(), costs.end()));
    }
};

SCHEDLAB_TEST_MAIN(chaindecoder, TestChainDecoder)
#include "tst_chaindecoder.moc"
