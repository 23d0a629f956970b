// SPDX-License-Identifier: MIT
// The GFlowNet environment (core/gflownet): the worked example of docs/costmodel.md ("Worked
// examples": all three rows, by hand), the forward masks and backward removability of Zhang et al.
// 2023 (§2.3, App. E.1), remove-then-re-add identity, at most m parents per state, and on random
// graphs and platforms: every sampled terminal is a valid schedule whose cost-model makespan and
// start times equal the incremental ones to the bit, and which equal an independent replay of Eq. 2
// and the list scheduler's own times.
#include "common/bits.h"
#include "common/testmain.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/validator.h"
#include "core/gflownet/environment.h"
#include "core/gflownet/subgraph.h"
#include "core/util/random.h"
#include "common/reference.h"

#include "common/workedexample.h"

#include <QTest>

#include <bit>

using namespace sl;
using namespace sl::gfn;

namespace {


/// The worked example (tests/common/workedexample.h): rho = (2, 1, 3, 1), m = 2.
Problem workedExample() { return reference::gflownetWorkedExample(); }

/// Appends chains (device d gets chains[d], ops 1-based as in docs/costmodel.md) in a valid interleaving:
/// repeatedly the first chain whose head is ready.
PartialSchedule build(const ScheduleEnv& env, std::vector<std::vector<int>> chains) {
    PartialSchedule s(env);
    for (bool progress = true; progress;) {
        progress = false;
        for (size_t d = 0; d < chains.size(); ++d)
            if (!chains[d].empty() && s.ready(chains[d].front() - 1)) {
                s.add(chains[d].front() - 1, static_cast<int>(d));
                chains[d].erase(chains[d].begin());
                progress = true;
            }
    }
    return s;
}

/// Eq. 2 by brute force: relax tau over the edges of P and D (and transfers) until nothing changes.
std::vector<double> replayEquation2(const Problem& p, const PartialSchedule& s) {
    const Graph& g = p.g();
    const int n = g.opCount();
    std::vector<double> tau(static_cast<size_t>(n), 0.0);
    for (int pass = 0; pass <= n; ++pass)
        for (OpId v = 0; v < n; ++v) {
            double t = 0;
            const auto& chain = s.chain(s.device(v));
            const auto at = std::find(chain.begin(), chain.end(), v);
            if (at != chain.begin()) t = tau[static_cast<size_t>(*(at - 1))] + g.durationOn(*(at - 1), s.device(v));
            for (TensorId x : g.inputs(v)) {
                const OpId k = g.tensor(x).producer;
                const double link = s.device(k) == s.device(v) ? 0.0 : reference::transferTime(p.platform, s.device(k), s.device(v), g.tensor(x).bytes);
                t = std::max(t, tau[static_cast<size_t>(k)] + g.durationOn(k, s.device(k)) + link);
            }
            tau[static_cast<size_t>(v)] = t;
        }
    return tau;
}

/// A uniformly random complete trajectory.
PartialSchedule randomTerminal(const ScheduleEnv& env, Rng& rng) {
    PartialSchedule s(env);
    while (!s.complete()) {
        std::vector<std::pair<OpId, int>> actions;
        for (OpId v : s.readyOps())
            for (int d = 0; d < env.devices(); ++d)
                if (s.canAdd(v, d)) actions.push_back({v, d});
        const auto& a = actions[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(actions.size()) - 1))];
        s.add(a.first, a.second);
    }
    return s;
}

} // namespace

class TestGflowNetEnv : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches: a start ignoring the device tail or a predecessor; makespan or U off by a term.
    void workedExampleRows() {
        const Problem p = workedExample();
        const ScheduleEnv env(p);
        QCOMPARE(env.work(), 7.0);
        struct Row {
            std::vector<std::vector<int>> chains;
            std::vector<double> tau;
            double makespan, speedup;
        };
        const Row rows[] = {{{{1, 3}, {2, 4}}, {0, 0, 2, 1}, 5, 1.4},
                            {{{2, 3}, {1, 4}}, {0, 0, 2, 2}, 5, 1.4},
                            {{{1, 2, 4}, {3}}, {0, 2, 3, 3}, 6, 7.0 / 6.0}};
        for (const Row& r : rows) {
            const PartialSchedule s = build(env, r.chains);
            QVERIFY(s.complete());
            for (OpId v = 0; v < 4; ++v) QCOMPARE(s.start(v), r.tau[static_cast<size_t>(v)]);
            QCOMPARE(s.makespan(), r.makespan);
            QCOMPARE(env.speedup(s.makespan()), r.speedup);
            QCOMPARE(env.logReward(s.makespan(), 0.5), (r.speedup - 2) / 0.5);
        }
    }

    // Row 3 by hand: op 3 waits on the free d2 for op 2 (ends 3). Catches a start that only looks
    // at the device tail, or only at the inputs.
    void startIfReadsInputsAndTail() {
        const Problem p = workedExample();
        const ScheduleEnv env(p);
        PartialSchedule s(env);
        s.add(0, 0);
        s.add(1, 0);
        QCOMPARE(s.startIf(2, 1), 3.0);
        QCOMPARE(s.startIf(2, 0), 3.0);
        QCOMPARE(s.startIf(3, 1), 3.0);   // after op 2 (ends 3), on a free device
    }

    // Masks at s0 and removability in {d1 = [1, 3], d2 = [2]} (a forward action needs every
    // predecessor scheduled, §2.3; a backward one removes a chain tail whose successors are not
    // scheduled). Catches a mask that allows an op with an unscheduled predecessor, or removes a
    // tail whose successor is scheduled.
    void masksAndRemovability() {
        const Problem p = workedExample();
        const ScheduleEnv env(p);
        PartialSchedule s(env);
        QCOMPARE(s.readyOps(), (std::vector<OpId>{0, 1}));
        int actions = 0;
        for (OpId v = 0; v < 4; ++v)
            for (int d = 0; d < 2; ++d) actions += s.canAdd(v, d) ? 1 : 0;
        QCOMPARE(actions, 4);
        QVERIFY(s.removableOps().empty());
        s.add(0, 0);
        s.add(1, 1);
        s.add(2, 0);
        QVERIFY(s.removable(2));
        QVERIFY(!s.removable(1));   // a chain tail, but its child 3 is scheduled
        QVERIFY(!s.removable(0));   // not a tail
        QCOMPARE(s.removableOps(), (std::vector<OpId>{2}));
        QVERIFY(s.ready(3));
        QVERIFY(!s.canAdd(2, 1));   // already scheduled
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.remove(1));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.add(2, 1));
    }

    // Catches bookkeeping that a removal does not undo (counts, tail, times): every parent reached by
    // a removal gives back the same state when the op is re-added, and a state has at most m parents.
    void removeThenReAddIsTheIdentity() {
        Rng rng(11);
        for (int trial = 0; trial < 60; ++trial) {
            reference::Case c = reference::randomCase(500 + static_cast<std::uint64_t>(trial), 2, 14);
            const ScheduleEnv env(c.problem);
            PartialSchedule s(env);
            while (!s.complete()) {
                const std::vector<OpId> removable = s.removableOps();
                QVERIFY(static_cast<int>(removable.size()) <= env.devices());
                for (OpId v : removable) {
                    PartialSchedule parent = s;
                    const int d = parent.device(v);
                    parent.remove(v);
                    QVERIFY(parent.canAdd(v, d));
                    parent.add(v, d);
                    QVERIFY(parent == s);
                    for (OpId u = 0; u < env.ops(); ++u) {
                        QVERIFY(sameBits(parent.start(u), s.start(u)));
                        QCOMPARE(parent.ready(u), s.ready(u));
                        QCOMPARE(parent.removable(u), s.removable(u));
                    }
                }
                std::vector<std::pair<OpId, int>> actions;
                for (OpId v : s.readyOps())
                    for (int d = 0; d < env.devices(); ++d)
                        if (s.canAdd(v, d)) actions.push_back({v, d});
                QVERIFY(!actions.empty());
                const auto& a = actions[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(actions.size()) - 1))];
                s.add(a.first, a.second);
            }
        }
    }

    // Catches: an order that is not topological, transfers missing, a start the cost model or
    // validator reads differently, an incremental time that differs from Eq. 2 in any bit.
    void terminalsAreValidAndTheCostModelAgreesToTheBit() {
        Rng rng(3);
        int checked = 0;
        for (std::uint64_t seed = 1; seed <= 150; ++seed) {
            reference::Case c = reference::randomCase(seed * 31, 2, 18);
            const ScheduleEnv env(c.problem);
            const PartialSchedule s = randomTerminal(env, rng);
            Schedule x = s.toSchedule();
            const ValidationReport v = validateSchedule(c.problem, x);
            QVERIFY2(v.ok(), v.errors.empty() ? "" : v.errors.front().c_str());
            scoreSchedule(c.problem, x);
            QVERIFY(sameBits(x.makespan, s.makespan()));
            const std::vector<double> tau = replayEquation2(c.problem, s);
            for (OpId u = 0; u < env.ops(); ++u) {
                QVERIFY(sameBits(x.ops[static_cast<size_t>(u)].start, s.start(u)));
                QVERIFY(sameBits(tau[static_cast<size_t>(u)], s.start(u)));
            }
            ++checked;
        }
        QCOMPARE(checked, 150);
    }

    // The proxy is the list scheduler's time clock with free transfers: replaying a list schedule's
    // chains (identical devices) gives its start times to the bit. Catches a start rule that is
    // not "max(inputs, device tail)".
    void listSchedulesReplayExactly() {
        Rng rng(5);
        for (std::uint64_t seed = 1; seed <= 80; ++seed) {
            reference::Case c = reference::randomCase(seed * 17 + 3, 2, 20);
            c.problem.platform = Platform::identical(static_cast<int>(rng.integer(1, 4)));
            c.problem.platform.link = {};
            auto g = std::make_shared<Graph>(c.problem.g());
            for (OpId v = 0; v < g->opCount(); ++v) {   // one machine type, positive durations (no zero-length overlap)
                g->mutableOp(v).machineType = 0;
                if (g->op(v).duration == 0) g->mutableOp(v).duration = 1;
            }
            g->finalize();
            c.problem.graph = g;
            ListScheduler ls(c.problem);
            std::vector<double> priority(static_cast<size_t>(g->opCount()));
            for (double& x : priority) x = rng.uniform();
            const Schedule ref = ls.schedule(priority);
            const ScheduleEnv env(c.problem);
            PartialSchedule s(env);
            for (OpId v : ref.order) s.add(v, ref.ops[static_cast<size_t>(v)].device);   // start order: chains in order
            for (OpId v = 0; v < g->opCount(); ++v) QVERIFY(sameBits(s.start(v), ref.ops[static_cast<size_t>(v)].start));
            QVERIFY(sameBits(s.makespan(), ref.makespan));
        }
    }

    // Catches a window that is not contiguous in a topological order or an induced graph that
    // drops or invents an edge.
    void subGraphsAreInducedWindows() {
        Rng rng(8);
        reference::Case c = reference::randomCase(77, 14, 14);
        const Graph& g = c.problem.g();
        for (int trial = 0; trial < 20; ++trial) {
            const std::vector<OpId> window = randomWindow(g, 6, rng);
            QCOMPARE(window.size(), size_t{6});
            const Problem sub = inducedSubProblem(c.problem, window);
            QCOMPARE(sub.g().opCount(), 6);
            for (int a = 0; a < 6; ++a)
                for (int b = 0; b < 6; ++b) {
                    const auto succ = g.successors(window[static_cast<size_t>(a)]);
                    const bool edge = std::find(succ.begin(), succ.end(), window[static_cast<size_t>(b)]) != succ.end();
                    const auto subSucc = sub.g().successors(a);
                    QCOMPARE(std::find(subSucc.begin(), subSucc.end(), b) != subSucc.end(), edge);
                    if (edge) QVERIFY(a < b);   // the window is in topological order
                }
        }
    }
};

SCHEDLAB_TEST_MAIN(gflownetenv, TestGflowNetEnv)
#include "tst_gflownetenv.moc"
