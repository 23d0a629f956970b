// SPDX-License-Identifier: MIT
// The critical-path local search (core/localsearch): neighbourhood moves keep schedules valid and
// timed as the cost model times them, descent never worsens, the N5 rule on a hand-made path, the
// `tabu` method's known optima on the job-shop fixtures, reproducibility, the one cost model, never
// worse than the heuristics, stop and time limit. Each test names the code mutation it catches.
#include "common/bits.h"
#include "common/testmain.h"
#include "core/costmodel/chaintiming.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/generators/generators.h"
#include "core/io/graphio.h"
#include "core/io/scheduleio.h"
#include "core/localsearch/criticalpath.h"
#include "core/localsearch/descent.h"
#include "core/localsearch/moves.h"
#include "core/heuristics/classicoptimizers.h"
#include "core/localsearch/tabusearch.h"
#include "core/optimizer/optimizer.h"
#include "common/reference.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <thread>

using namespace sl;

namespace {

Problem jobShopFixture(const char* name) {
    const LoadedGraph lg = loadGraph(std::string(SCHEDLAB_TEST_DATA) + "/jobshop/" + name + ".txt");
    return Problem{lg.graph, *lg.platform, {}};
}

/// Random job-shops and random DAGs (typed machines, several identical devices, costly links,
/// zero durations), one per seed.
Problem randomProblem(std::uint64_t seed) {
    if (seed % 3 == 0) {
        const GeneratedInstance j = generateJobShop(2 + static_cast<int>(seed % 5), 2 + static_cast<int>(seed % 4), seed);
        return Problem{j.graph, j.platform, {}};
    }
    return reference::randomCase(seed, 4, 24).problem;
}

ChainSchedule listCpChains(const Problem& p) {
    const std::vector<NamedSchedule> starts = classicSchedules(p);
    return ChainSchedule(p, deviceChains(starts.front().schedule, p.platform.deviceCount()));
}


/// The schedule the chains give, checked: valid, and timed here exactly as by sl::timeChains.
QString checkTimedLikeTheCostModel(const ChainSchedule& s) {
    const Problem& p = s.problem();
    const Schedule timed = timeChains(p, s.chains());
    const ValidationReport v = validateSchedule(p, timed);
    if (!v.ok()) return QString::fromStdString(v.errors.front());
    if (!sameBits(timed.makespan, s.makespan())) return QString("makespan %1, timeChains %2").arg(s.makespan()).arg(timed.makespan);
    for (OpId v = 0; v < s.opCount(); ++v)
        if (!sameBits(timed.ops[static_cast<size_t>(v)].start, s.start(v)) || !sameBits(timed.ops[static_cast<size_t>(v)].end, s.end(v)))
            return QString("op %1 timed differently").arg(v);
    return {};
}

RunResult runTabu(const Problem& p, std::int64_t budget, std::uint64_t seed = 1, int threads = 1) {
    RunOptions o;
    o.seed = seed;
    o.budget = budget;
    o.threads = threads;
    return OptimizerRegistry::instance().create("tabu")->run(p, o, {}, {});
}

} // namespace

class TestTabu : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    // Every move of every neighbourhood along a random walk: applied, it gives a valid schedule
    // timed to the bit as timeChains times it, or a cycle that timeChains refuses too; undone,
    // the chains are as before. Mutations caught: a swap or relocation that drops or duplicates
    // an op or mis-indexes positions, a relocation to a device of another machine type, retime()
    // ignoring transfers or the chain predecessor, a missed cycle, an undo that does not restore.
    void everyNeighbourMoveKeepsTheScheduleValid() {
        int moves = 0, relocations = 0, cycles = 0;
        for (std::uint64_t seed = 1; seed <= 120; ++seed) {
            const Problem p = randomProblem(seed);
            ChainSchedule s = listCpChains(p);
            Rng rng(seed);
            CriticalPath path;
            std::vector<Move> neighbours;
            for (int step = 0; step < 12; ++step) {
                criticalPath(s, path);
                criticalMoves(s, path, neighbours);
                if (neighbours.empty()) break;
                const DeviceChains before = s.chains();
                std::vector<Move> feasible;
                for (const Move& m : neighbours) {
                    const QString where = QString("case %1, step %2, op %3: ").arg(seed).arg(step).arg(m.op);
                    if (m.kind == Move::Kind::Relocate) {
                        ++relocations;
                        QVERIFY2(std::ranges::count(s.devicesFor(m.op), m.device) == 1, qPrintable(where + "incompatible device"));
                    }
                    const MoveUndo undo = applyMove(s, m);
                    ++moves;
                    if (s.retime() == kInfinity) {
                        ++cycles;
                        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, timeChains(p, s.chains()));
                    } else {
                        const QString fault = checkTimedLikeTheCostModel(s);
                        QVERIFY2(fault.isEmpty(), qPrintable(where + fault));
                        feasible.push_back(m);
                    }
                    undoMove(s, undo);
                    QVERIFY2(s.chains() == before, qPrintable(where + "undo did not restore the chains"));
                }
                s.retime();
                if (feasible.empty()) break;
                applyMove(s, feasible[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(feasible.size()) - 1))]);
                s.retime();
            }
        }
        QVERIFY(moves > 2000);
        QVERIFY(relocations > 300);   // the multi-device cases were exercised
        qInfo("%d moves, %d relocations, %d closed a cycle", moves, relocations, cycles);
    }

    // The path is tight from time 0 to the makespan and its blocks are runs of one device.
    // Mutations caught: following a predecessor that is not tight, a block split at a graph edge.
    void criticalPathIsTight() {
        for (std::uint64_t seed = 1; seed <= 120; ++seed) {
            const Problem p = randomProblem(seed);
            const ChainSchedule s = listCpChains(p);
            CriticalPath path;
            criticalPath(s, path);
            QVERIFY(!path.ops.empty());
            QCOMPARE(s.start(path.ops.front()), 0.0);
            QCOMPARE(s.end(path.ops.back()), s.makespan());
            for (size_t i = 1; i < path.ops.size(); ++i) {
                const OpId a = path.ops[i - 1], b = path.ops[i];
                const bool chained = s.next(a) == b && s.end(a) == s.start(b);
                bool edge = false;
                for (const ChainSchedule::Input& in : s.inputs(b))
                    edge |= in.producer == a &&
                            s.end(a) + (s.device(a) == s.device(b) ? 0.0 : reference::transferTime(s.problem().platform, s.device(a), s.device(b), in.bytes)) == s.start(b);
                QVERIFY2(chained || edge, qPrintable(QString("case %1: ops %2 -> %3 not tight").arg(seed).arg(a).arg(b)));
            }
            for (const CriticalPath::Block& block : path.blocks)
                for (int i = block.first; i < block.last; ++i)
                    QCOMPARE(s.next(path.ops[static_cast<size_t>(i)]), path.ops[static_cast<size_t>(i) + 1]);
        }
    }

    // A hand-made path of three blocks, a b | c d e | f g on three machines (b -> c and e -> f are
    // graph edges): N5 swaps a-b (last pair of the first block), c-d and d-e, f-g (first pair of
    // the last block), nothing else. Mutations caught: swapping the first pair of the first block
    // or the last pair of the last block, skipping inner blocks, moves on a one-block path.
    void n5SwapsTheEndsOfTheBlocks() {
        auto g = std::make_shared<Graph>();
        const char* names = "abcdefg";
        const double duration[] = {2, 3, 1, 4, 2, 3, 1};
        const int machine[] = {0, 0, 1, 1, 1, 2, 2};
        for (int i = 0; i < 7; ++i)
            g->addOp({.name = std::string(1, names[i]), .duration = duration[i], .machineType = machine[i]});
        g->addEdge(1, 2);
        g->addEdge(4, 5);
        g->finalize();
        Problem p{g, {}, {}};
        for (int m = 0; m < 3; ++m) p.platform.devices.push_back({.name = "M" + std::to_string(m), .machineType = m});
        ChainSchedule s(p, {{0, 1}, {2, 3, 4}, {5, 6}});
        QCOMPARE(s.makespan(), 16.0);
        CriticalPath path;
        criticalPath(s, path);
        QCOMPARE(path.ops, (std::vector<OpId>{0, 1, 2, 3, 4, 5, 6}));
        QCOMPARE(path.blocks.size(), size_t(3));
        std::vector<Move> moves;
        criticalMoves(s, path, moves);
        std::vector<OpId> swapped;
        for (const Move& m : moves) {
            QVERIFY(m.kind == Move::Kind::Swap);
            swapped.push_back(m.op);
        }
        QCOMPARE(swapped, (std::vector<OpId>{0, 2, 3, 5}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ChainSchedule(p, {{0, 1}, {2, 3, 4}, {}}));   // f, g missing
        // One block from time 0 (one machine's work): no move, and the search says so.
        auto one = std::make_shared<Graph>();
        one->addOp({.name = "x", .duration = 4});
        one->addOp({.name = "y", .duration = 5});
        one->finalize();
        const Problem lone{one, Platform::identical(1), {}};
        TabuSearch search(ChainSchedule(lone, {{0, 1}}), {}, 1);
        QVERIFY(search.step([] { return false; }) == TabuSearch::Step::NoMoves);
    }

    // Two independent ops on one of two identical devices: each may go to the empty device, at
    // position 0; descent takes one such move and halves the makespan. Then positions by hand:
    // device 0 runs p [0,2] q [2,6] r [6,7], device 1 u [0,3] v [3,13] with u -> v; v's input
    // is ready on device 0 at 3, while q runs: v goes before q (1) or after it (2); u at 0.
    // Mutations caught: no relocations, a relocation to the op's own device or to the end of the
    // chain only, descent accepting a non-improving move.
    void relocationSpreadsOpsOverDevices() {
        auto g = std::make_shared<Graph>();
        g->addOp({.name = "x", .duration = 4});
        g->addOp({.name = "y", .duration = 4});
        g->finalize();
        const Problem p{g, Platform::identical(2), {}};
        ChainSchedule s(p, {{0, 1}, {}});
        CriticalPath path;
        criticalPath(s, path);
        std::vector<Move> moves;
        criticalMoves(s, path, moves);
        QCOMPARE(moves.size(), size_t(2));
        for (const Move& m : moves) {
            QVERIFY(m.kind == Move::Kind::Relocate);
            QCOMPARE(m.device, 1);
            QCOMPARE(m.position, 0);
        }
        const DescentResult r = descend(s);
        QCOMPARE(r.cost, 4.0);
        QCOMPARE(r.moves, std::int64_t(1));
        QVERIFY(r.localOptimum);
        QCOMPARE(s.makespan(), 4.0);

        auto h = std::make_shared<Graph>();
        for (auto [name, duration] : {std::pair{"p", 2.0}, {"q", 4.0}, {"r", 1.0}, {"u", 3.0}, {"v", 10.0}})
            h->addOp({.name = name, .duration = duration});
        h->addEdge(3, 4);
        h->finalize();
        const Problem two{h, Platform::identical(2), {}};
        ChainSchedule t(two, {{0, 1, 2}, {3, 4}});
        QCOMPARE(t.makespan(), 13.0);
        criticalPath(t, path);
        QCOMPARE(path.ops, (std::vector<OpId>{3, 4}));
        criticalMoves(t, path, moves);
        std::vector<std::pair<OpId, int>> where;
        for (const Move& m : moves) {
            QVERIFY(m.kind == Move::Kind::Relocate && m.device == 0);
            where.emplace_back(m.op, m.position);
        }
        QCOMPARE(where, (std::vector<std::pair<OpId, int>>{{3, 0}, {4, 1}, {4, 2}}));
    }

    // Improvement mode: every move descent makes lowers the cost and leaves a valid schedule; the
    // tabu search's best never rises and is the makespan of its best chains. Mutations caught:
    // descent accepting an equal or worse move, the tabu search storing a worse schedule as its
    // best or a best cost that is not its chains' makespan.
    void improvementModeNeverWorsens() {
        int improved = 0;
        for (std::uint64_t seed = 1; seed <= 90; ++seed) {
            const Problem p = randomProblem(seed);
            ChainSchedule s = listCpChains(p);
            const double start = s.makespan();
            double last = start;
            bool ok = true;
            QString fault;
            const DescentResult r = descend(s, makespanCost, {}, [&](const ChainSchedule& now, double cost) {
                ok = ok && cost < last && sameBits(cost, now.makespan());
                if (fault.isEmpty()) fault = checkTimedLikeTheCostModel(now);
                last = cost;
            });
            QVERIFY2(ok, qPrintable(QString("case %1: a descent move did not improve").arg(seed)));
            QVERIFY2(fault.isEmpty(), qPrintable(QString("case %1: ").arg(seed) + fault));
            QVERIFY(r.localOptimum);
            QVERIFY(r.cost <= start);
            improved += r.cost < start;

            TabuSearch search(listCpChains(p), {.restartStall = 40}, seed);
            double best = search.bestCost();
            for (int i = 0; i < 200; ++i) {
                const TabuSearch::Step step = search.step([] { return false; });
                QVERIFY(search.bestCost() <= best);
                best = search.bestCost();
                if (step == TabuSearch::Step::NoMoves) break;
            }
            QVERIFY(sameBits(timeChains(p, search.best()).makespan, best));
        }
        qInfo("descent improved %d of 90 list-cp schedules", improved);
        QVERIFY(improved >= 10);   // the checks above were not vacuous
    }

    // A tabu move is taken when it beats the best: each iteration that admits one ends with a new
    // best. Mutations caught: no aspiration (never counted), aspiration against the current
    // cost or with <= (an iteration that admits one without a new best).
    void aspirationTakesTabuMovesThatBeatTheBest() {
        const Problem p = jobShopFixture("ft10");
        TabuSearch search(listCpChains(p), {}, 3);
        for (int i = 0; i < 20000; ++i) {
            const double best = search.bestCost();
            const std::int64_t aspirations = search.aspirations();
            search.step([] { return false; });
            if (search.aspirations() > aspirations) QVERIFY2(search.bestCost() < best, qPrintable(QString("iteration %1").arg(i)));
        }
        QVERIFY(search.aspirations() > 0);
        qInfo("%lld aspirations in 20000 iterations", static_cast<long long>(search.aspirations()));
    }

    void reachesTheKnownOptima_data() {
        QTest::addColumn<QString>("instance");
        QTest::addColumn<double>("optimum");
        QTest::addColumn<double>("allowed");   // share above the optimum
        QTest::addColumn<qint64>("budget");
        // Budgets in evaluations (deterministic); about a million a second in Release.
        QTest::addRow("ft06") << "ft06" << 55.0 << 0.0 << qint64(200000);
        QTest::addRow("la01") << "la01" << 666.0 << 0.02 << qint64(300000);
        QTest::addRow("la02") << "la02" << 655.0 << 0.02 << qint64(300000);
        QTest::addRow("la03") << "la03" << 597.0 << 0.02 << qint64(300000);
        QTest::addRow("la04") << "la04" << 590.0 << 0.02 << qint64(300000);
        QTest::addRow("la05") << "la05" << 593.0 << 0.02 << qint64(300000);
        QTest::addRow("ft10") << "ft10" << 930.0 << 0.03 << qint64(500000);
    }

    // Mutations caught (each tried): the tabu list never consulted (la01-la03 and ft10 end 4-9 %
    // above), no restarts or no oldest-tabu fallback when all moves are tabu (la03 ends 5-7 %
    // above), the chosen move not made (only the restarts move: all but la05 fail).
    void reachesTheKnownOptima() {
        QFETCH(QString, instance);
        QFETCH(double, optimum);
        QFETCH(double, allowed);
        QFETCH(qint64, budget);
        const Problem p = jobShopFixture(qPrintable(instance));
        const RunResult r = runTabu(p, budget);
        QVERIFY2(r.cost <= optimum * (1 + allowed), qPrintable(QString("%1: %2").arg(r.cost).arg(QString::fromStdString(r.note))));
        QVERIFY(r.cost >= optimum);
        QVERIFY(validateSchedule(p, r.schedule).ok());
        qInfo("%s: %g (optimum %g), %s", qPrintable(instance), r.cost, optimum, r.note.c_str());
    }

    // Mutations caught: a generator seeded from the clock or the thread count, the seed ignored.
    void sameSeedSameSchedule() {
        const Problem p = jobShopFixture("ft10");
        const RunResult a = runTabu(p, 30000, 7, 1);
        const RunResult b = runTabu(p, 30000, 7, 4);
        QCOMPARE(a.schedule.order, b.schedule.order);
        for (size_t v = 0; v < a.schedule.ops.size(); ++v) {
            QCOMPARE(a.schedule.ops[v].device, b.schedule.ops[v].device);
            QVERIFY(sameBits(a.schedule.ops[v].start, b.schedule.ops[v].start));
        }
        QCOMPARE(a.note, b.note);
        std::vector<double> costs;
        for (std::uint64_t seed = 1; seed <= 4; ++seed) costs.push_back(runTabu(p, 30000, seed).cost);
        std::ranges::sort(costs);
        QVERIFY2(costs.front() != costs.back() || runTabu(p, 30000, 1).note != runTabu(p, 30000, 2).note, "the seed changes nothing");
    }

    // The reported cost is what `evaluate` computes from the schedule file, to the bit, and the
    // last progress report says the same; also with a memory cap, where the search scores every
    // neighbour by the full cost model. Mutations caught: reporting the search's own number from
    // another clock (transfers dropped), a final schedule not scored, a progress report better
    // than the result, the memory penalty ignored by the search's cost.
    void returnedCostIsTheCostModels() {
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            Problem p = seed <= 2 ? jobShopFixture(seed == 1 ? "ft06" : "la01") : randomProblem(seed);
            if (seed % 4 == 0)
                for (Device& d : p.platform.devices) d.memoryCapacity = 12;
            const RunResult r = runTabu(p, 3000, seed);
            Schedule read = parseScheduleJson(p, scheduleToJson(p, r.schedule), "result.json");
            QVERIFY(validateSchedule(p, read).ok());
            const double evaluated = scoreSchedule(p, read);
            QVERIFY2(sameBits(evaluated, r.cost), qPrintable(QString("case %1: reported %2, evaluate %3").arg(seed).arg(r.cost, 0, 'g', 17).arg(evaluated, 0, 'g', 17)));
            if (!CostFunction(p).needsMemory()) QVERIFY(sameBits(r.schedule.makespan, r.cost));
            QVERIFY(!r.history.empty());
            QVERIFY(sameBits(r.history.back().best, r.cost));
            for (const Progress& h : r.history) QVERIFY(h.best >= r.cost);
            QCOMPARE(r.schedule.method, std::string("tabu"));
        }
    }

    // Never worse than list-cp, list-mopnr, list-spt and heft; on a device that runs two ops at
    // once the heuristic's overlapping schedule is kept (chains would run them one after the
    // other). Mutations caught: returning the search's best without comparing it with the
    // heuristics, starting from the worst heuristic and returning it.
    void neverWorseThanTheHeuristics() {
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const GeneratedInstance typed = generateInstance("layered-typed", 30, seed);   // a device of capacity 4
            const Problem cases[] = {randomProblem(seed), Problem{typed.graph, typed.platform, {}}};
            for (const Problem& p : cases) {
                double best = kInfinity;
                for (const NamedSchedule& s : classicSchedules(p)) best = std::min(best, s.cost);
                const RunResult r = runTabu(p, 2000, seed);
                QVERIFY2(r.cost <= best, qPrintable(QString("case %1: %2 > %3").arg(seed).arg(r.cost).arg(best)));
            }
        }
        auto g = std::make_shared<Graph>();
        g->addOp({.name = "x", .duration = 3});
        g->addOp({.name = "y", .duration = 3});
        g->finalize();
        Problem wide{g, Platform::identical(1), {}};
        wide.platform.devices[0].resourceCapacity = 2;
        const RunResult r = runTabu(wide, 100);
        QCOMPARE(r.cost, 3.0);
        QVERIFY(validateSchedule(wide, r.schedule).ok());
    }

    // Mutations caught: the stop token not checked (the run takes its whole budget, ~10 s), a
    // cancelled run without a valid schedule, progress that gets worse; a time limit ignored
    // without --budget makes the timed run endless (CTest's timeout fails it).
    void honoursStopAndTimeLimit() {
        const GeneratedInstance big = generateJobShop(30, 15, 5);
        const Problem p{big.graph, big.platform, {}};
        RunOptions o;
        o.budget = 2'000'000;
        std::stop_source source;
        std::jthread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            source.request_stop();
        });
        const RunResult cancelled = OptimizerRegistry::instance().create("tabu")->run(p, o, {}, source.get_token());
        canceller.join();
        QVERIFY(cancelled.cancelled);
        QVERIFY(cancelled.seconds < 5);   // generous: one evaluation is microseconds
        QVERIFY(validateSchedule(p, cancelled.schedule).ok());

        RunOptions timed;
        timed.timeLimit = 0.2;
        std::vector<Progress> seen;
        const RunResult r = OptimizerRegistry::instance().create("tabu")->run(p, timed, [&](const Progress& x) { seen.push_back(x); }, {});
        QVERIFY(!r.cancelled);
        QVERIFY(r.seconds >= 0.2 && r.seconds < 5);
        QVERIFY(r.evaluations > 4);
        QVERIFY(!seen.empty());
        for (size_t i = 1; i < seen.size(); ++i) {
            QVERIFY(seen[i].best <= seen[i - 1].best);
            QVERIFY(seen[i].evaluations >= seen[i - 1].evaluations);
        }
    }

    // Mutations caught: the method missing from the registry or declaring no options, option
    // values ignored (a bad tenure range accepted).
    void registeredWithItsOptions() {
        const OptimizerInfo* info = OptimizerRegistry::instance().find("tabu");
        QVERIFY(info);
        QCOMPARE(info->family, std::string("search"));
        QVERIFY(info->usesBudget && info->usesSeed);
        QVERIFY(info->objectives == std::vector<Objective>{Objective::Makespan});
        std::vector<std::string> keys;
        for (const OptionSpec& o : info->options) keys.push_back(o.key);
        QCOMPARE(keys, (std::vector<std::string>{"tenure-min", "tenure-max", "restart-stall", "perturbation"}));
        const Problem p = jobShopFixture("ft06");
        RunOptions bad;
        bad.values = {{"tenure-min", 9}, {"tenure-max", 3}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, OptimizerRegistry::instance().create("tabu")->run(p, bad, {}, {}));
    }
};

SCHEDLAB_TEST_MAIN(tabu, TestTabu)
#include "tst_tabu.moc"
