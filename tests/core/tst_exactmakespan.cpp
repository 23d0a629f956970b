// SPDX-License-Identifier: MIT
// exact-makespan (core/exact/exactmakespan.h): the known optima of the job-shop and STG fixtures,
// brute-forced optima of small random problems, bounds that never pass an optimum, limits,
// cancellation, the cost model's word on every schedule, and the problems it must refuse.
// Each test names the code mutation it catches.
#include "common/testmain.h"
#include "core/analysis/bounds.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/exact/exactmakespan.h"
#include "core/heuristics/classicoptimizers.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"
#include "core/util/random.h"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

using namespace sl;

namespace {

const std::string kData = SCHEDLAB_TEST_DATA;

Problem jobShopFixture(const std::string& name) {
    const LoadedGraph lg = loadGraph(kData + "/jobshop/" + name + ".txt");
    return Problem{lg.graph, *lg.platform, {}};
}

Problem stgFixture(const std::string& name, int devices) {
    return Problem{loadGraph(kData + "/stg/" + name).graph, Platform::identical(devices), {}};
}

/// A random job-shop: every job visits every machine once, in a random order, durations 1..9.
Problem randomJobShop(int jobs, int machines, std::uint64_t seed, double latency = 0) {
    Rng rng(seed);
    std::ostringstream text;
    text << jobs << " " << machines << "\n";
    for (int j = 0; j < jobs; ++j) {
        std::vector<int> route(static_cast<size_t>(machines));
        for (int m = 0; m < machines; ++m) route[static_cast<size_t>(m)] = m;
        rng.shuffle(route);
        for (int m : route) text << m << " " << 1 + rng.bits() % 9 << " ";
        text << "\n";
    }
    const LoadedGraph lg = parseGraph(text.str(), GraphFormat::JobShop, "random");
    Problem p{lg.graph, *lg.platform, {}};
    p.platform.link.latency = latency;
    return p;
}

/// A random DAG of `n` ops (edge i -> j, i < j, with probability 0.3), durations from `minDuration`
/// to 9, on `devices` identical devices with free transfers.
Problem randomDag(int n, int devices, std::uint64_t seed, int minDuration = 1) {
    Rng rng(seed);
    auto g = std::make_shared<Graph>();
    for (int i = 0; i < n; ++i)
        g->addOp({.name = "op" + std::to_string(i),
                  .duration = static_cast<double>(minDuration + static_cast<int>(rng.bits() % static_cast<std::uint64_t>(10 - minDuration)))});
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (rng.uniform() < 0.3) g->addEdge(i, j, 1);
    g->finalize();
    return Problem{g, Platform::identical(devices), {}};
}

/// Makespan of device chains by the definition (each op starts once its device's previous op has
/// ended and its inputs have arrived, a transfer time after their producer's end when it ran on
/// another device), or infinity when chains and graph form a cycle.
double chainsMakespan(const Problem& p, const std::vector<std::vector<OpId>>& chains) {
    const Graph& g = p.g();
    const auto n = static_cast<size_t>(g.opCount());
    std::vector<int> device(n), position(n);
    for (size_t d = 0; d < chains.size(); ++d)
        for (size_t i = 0; i < chains[d].size(); ++i) {
            device[static_cast<size_t>(chains[d][i])] = static_cast<int>(d);
            position[static_cast<size_t>(chains[d][i])] = static_cast<int>(i);
        }
    std::vector<double> end(n, -1);
    double makespan = 0;
    for (size_t timed = 0; timed < n;) {
        const size_t before = timed;
        for (OpId v = 0; v < static_cast<OpId>(n); ++v) {
            if (end[static_cast<size_t>(v)] >= 0) continue;
            const auto& chain = chains[static_cast<size_t>(device[static_cast<size_t>(v)])];
            const int at = position[static_cast<size_t>(v)];
            double start = 0;
            bool ready = true;
            if (at > 0) {
                const double previous = end[static_cast<size_t>(chain[static_cast<size_t>(at - 1)])];
                ready = previous >= 0;
                start = previous;
            }
            for (TensorId t : g.inputs(v)) {
                const OpId u = g.tensor(t).producer;
                ready = ready && end[static_cast<size_t>(u)] >= 0;
                const double arrival = device[static_cast<size_t>(u)] == device[static_cast<size_t>(v)]
                                           ? 0.0
                                           : p.platform.link.transferTime(g.tensor(t).bytes);
                start = std::max(start, end[static_cast<size_t>(u)] + arrival);
            }
            if (!ready) continue;
            end[static_cast<size_t>(v)] = start + g.op(v).duration;
            makespan = std::max(makespan, end[static_cast<size_t>(v)]);
            ++timed;
        }
        if (timed == before) return kInfinity;
    }
    return makespan;
}

/// Minimum makespan over every assignment of ops to the devices of their machine type and every
/// order on each device.
double bruteForceOptimum(const Problem& p) {
    const Graph& g = p.g();
    const auto byType = p.platform.devicesByType();
    std::vector<std::vector<OpId>> chains(static_cast<size_t>(p.platform.deviceCount()));
    double best = kInfinity;
    std::function<void(size_t)> orderDevice = [&](size_t d) {
        if (d == chains.size()) {
            best = std::min(best, chainsMakespan(p, chains));
            return;
        }
        std::vector<OpId>& chain = chains[d];
        std::sort(chain.begin(), chain.end());
        do orderDevice(d + 1);
        while (std::next_permutation(chain.begin(), chain.end()));
    };
    std::function<void(OpId)> assign = [&](OpId v) {
        if (v == g.opCount()) {
            orderDevice(0);
            return;
        }
        for (int d : byType[static_cast<size_t>(g.op(v).machineType)]) {
            chains[static_cast<size_t>(d)].push_back(v);
            assign(v + 1);
            chains[static_cast<size_t>(d)].erase(std::find(chains[static_cast<size_t>(d)].begin(), chains[static_cast<size_t>(d)].end(), v));
        }
    };
    assign(0);
    return best;
}

/// The schedule is valid and its makespan is the cost model's, to the bit.
void checkScheduleIsTheCostModels(const Problem& p, const Schedule& schedule) {
    const ValidationReport report = validateSchedule(p, schedule);
    QVERIFY2(report.ok(), report.ok() ? "" : report.errors.front().c_str());
    Schedule rescored = schedule;
    QCOMPARE(scoreSchedule(p, rescored), schedule.makespan);
}

/// The STG fixtures whose optimum the reference table gives exactly, with it.
std::vector<std::pair<std::string, double>> stgOptima(int devices) {
    std::ifstream in(kData + "/stg/optimal_50_P" + std::to_string(devices) + ".csv");
    std::vector<std::pair<std::string, double>> out;
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::stringstream s(line);
        for (std::string f; std::getline(s, f, ',');) fields.push_back(f);
        if (fields.size() == 3) out.emplace_back(fields[0].substr(fields[0].find('/') + 1), std::stod(fields[2]));
    }
    return out;
}

} // namespace

class TestExactMakespan : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches: a branching or propagation that loses solutions (e.g. "not next" bounding the op by
    // the latest instead of the earliest end of the others: a worse "optimum"), or a search that
    // stops early and claims optimality. ft06 and la01-la05 take well under a second each.
    void provesJobShopOptima_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("optimum");
        QTest::addRow("ft06") << "ft06" << 55.0;
        QTest::addRow("la01") << "la01" << 666.0;
        QTest::addRow("la02") << "la02" << 655.0;
        QTest::addRow("la03") << "la03" << 597.0;
        QTest::addRow("la04") << "la04" << 590.0;
        QTest::addRow("la05") << "la05" << 593.0;
    }
    void provesJobShopOptima() {
        QFETCH(QString, name);
        QFETCH(double, optimum);
        const Problem p = jobShopFixture(name.toStdString());
        const ExactMakespanResult r = solveExactMakespan(p, {.timeLimit = 60});
        QVERIFY2(r.optimal, r.note.c_str());
        QCOMPARE(r.schedule.makespan, optimum);
        QCOMPARE(r.lowerBound, optimum);
        QVERIFY(r.note.rfind("optimal, proven", 0) == 0);
        checkScheduleIsTheCostModels(p, r.schedule);
    }

    // Catches the same faults on the hardest fixture (about 7 s in Release on one core; the rank
    // branching's choice of the most critical machine is what keeps it there).
    void provesFt10() {
        const Problem p = jobShopFixture("ft10");
        const ExactMakespanResult r = solveExactMakespan(p, {.timeLimit = 120});
        QVERIFY2(r.optimal, r.note.c_str());
        QCOMPARE(r.schedule.makespan, 930.0);
        QCOMPARE(r.lowerBound, 930.0);
        checkScheduleIsTheCostModels(p, r.schedule);
    }

    // Catches: a cumulative capacity off by one, a lost solution in the start-time branching, or
    // device chains that re-time longer than the model's schedule. All 40 take well under a second.
    void provesStgOptima_data() {
        QTest::addColumn<int>("devices");
        QTest::addRow("2 devices") << 2;
        QTest::addRow("4 devices") << 4;
    }
    void provesStgOptima() {
        QFETCH(int, devices);
        const auto optima = stgOptima(devices);
        QVERIFY(optima.size() >= 19);
        for (const auto& [file, optimum] : optima) {
            const Problem p = stgFixture(file, devices);
            const ExactMakespanResult r = solveExactMakespan(p, {.timeLimit = 30});
            QVERIFY2(r.optimal, (file + ": " + r.note).c_str());
            QCOMPARE(r.schedule.makespan, optimum);
            checkScheduleIsTheCostModels(p, r.schedule);
        }
    }

    // Catches: a rank constraint in the wrong direction or posted on the wrong ops, transfer lags
    // dropped (the "latency" rows), a unary propagator posted on the wrong pool.
    void matchesBruteForceOnJobShops_data() {
        QTest::addColumn<int>("jobs");
        QTest::addColumn<int>("machines");
        QTest::addColumn<double>("latency");
        QTest::addColumn<std::uint64_t>("seed");
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            QTest::addRow("3x3 seed %d", int(seed)) << 3 << 3 << 0.0 << seed;
            QTest::addRow("4x3 seed %d", int(seed)) << 4 << 3 << 0.0 << seed;
        }
        QTest::addRow("3x3 latency 2") << 3 << 3 << 2.0 << std::uint64_t{5};
        QTest::addRow("4x3 latency 3") << 4 << 3 << 3.0 << std::uint64_t{6};
    }
    void matchesBruteForceOnJobShops() {
        QFETCH(int, jobs);
        QFETCH(int, machines);
        QFETCH(double, latency);
        QFETCH(std::uint64_t, seed);
        const Problem p = randomJobShop(jobs, machines, seed, latency);
        const double optimum = bruteForceOptimum(p);
        const ExactMakespanResult r = solveExactMakespan(p, {});
        QVERIFY2(r.optimal, r.note.c_str());
        QCOMPARE(r.schedule.makespan, optimum);
        checkScheduleIsTheCostModels(p, r.schedule);
    }

    // Catches: identical devices modelled with a wrong capacity, or assigned to devices so that two
    // ops overlap on one (invalid schedule) or chains wait longer than the model said. The rows
    // are ones where the best classic heuristic is not optimal, so the search must find the optimum.
    void matchesBruteForceOnIdenticalDevices_data() {
        QTest::addColumn<int>("ops");
        QTest::addColumn<int>("devices");
        QTest::addColumn<std::uint64_t>("seed");
        for (std::uint64_t seed : {8, 10, 14}) QTest::addRow("8 ops, 2 devices, seed %d", int(seed)) << 8 << 2 << seed;
        for (std::uint64_t seed : {13, 30}) QTest::addRow("7 ops, 3 devices, seed %d", int(seed)) << 7 << 3 << seed;
        QTest::addRow("8 ops, 3 devices, seed 30") << 8 << 3 << std::uint64_t{30};
    }
    void matchesBruteForceOnIdenticalDevices() {
        QFETCH(int, ops);
        QFETCH(int, devices);
        QFETCH(std::uint64_t, seed);
        const Problem p = randomDag(ops, devices, seed);
        const double optimum = bruteForceOptimum(p);
        QVERIFY(bestClassicSchedule(p).makespan > optimum);
        const ExactMakespanResult r = solveExactMakespan(p, {});
        QVERIFY2(r.optimal, r.note.c_str());
        QCOMPARE(r.schedule.makespan, optimum);
        checkScheduleIsTheCostModels(p, r.schedule);
    }

    // Zero-length ops between others are the model's one relaxation (on several devices). Catches:
    // claiming optimality, or a bound, that the brute force contradicts there.
    void zeroLengthOpsKeepTheBoundValid() {
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            const Problem p = randomDag(7, 2, seed, 0);
            const double optimum = bruteForceOptimum(p);
            const ExactMakespanResult r = solveExactMakespan(p, {});
            QVERIFY(r.lowerBound <= optimum);
            QVERIFY(r.schedule.makespan >= optimum);
            if (r.optimal) QCOMPARE(r.schedule.makespan, optimum);
            checkScheduleIsTheCostModels(p, r.schedule);
        }
    }

    // Catches: a bound taken from the best solution of an interrupted search (it would pass the
    // optimum), or a bound below the analytic one (bounds.h) once search proves little.
    void boundNeverExceedsTheOptimum_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("optimum");
        QTest::addRow("ft06") << "ft06" << 55.0;
        QTest::addRow("ft10") << "ft10" << 930.0;
        QTest::addRow("la03") << "la03" << 597.0;
        QTest::addRow("la04") << "la04" << 590.0;
    }
    void boundNeverExceedsTheOptimum() {
        QFETCH(QString, name);
        QFETCH(double, optimum);
        const Problem p = jobShopFixture(name.toStdString());
        for (std::uint64_t fails : {1, 10, 100}) {
            const ExactMakespanResult r = solveExactMakespan(p, {.failLimit = fails});
            QVERIFY(r.lowerBound <= optimum);
            QVERIFY(r.lowerBound >= lowerBounds(p).makespan);
            QVERIFY(r.schedule.makespan >= optimum);
            QCOMPARE(r.optimal, r.schedule.makespan == r.lowerBound);
            checkScheduleIsTheCostModels(p, r.schedule);
        }
    }

    // Catches: bound probes that do not run, or give up at the first value propagation refutes.
    // Propagation alone takes ft10 from the analytic 808 to about 868; deterministic (a failure
    // limit, not the clock).
    void boundProbesRaiseTheAnalyticBound() {
        const Problem p = jobShopFixture("ft10");
        const ExactMakespanResult r = solveExactMakespan(p, {.failLimit = 1});
        QVERIFY(!r.optimal);
        QVERIFY2(r.lowerBound >= lowerBounds(p).makespan + 50, std::to_string(r.lowerBound).c_str());
        QVERIFY(r.lowerBound <= 930);
    }

    // Catches: a time limit that is not honoured, or a stopped run that says it proved its schedule.
    void tinyTimeLimitOnFt10() {
        const Problem p = jobShopFixture("ft10");
        const auto begin = std::chrono::steady_clock::now();
        const ExactMakespanResult r = solveExactMakespan(p, {.timeLimit = 0.05});
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        QVERIFY2(seconds < 1.0, std::to_string(seconds).c_str());
        QVERIFY(!r.optimal);
        QVERIFY(!r.cancelled);
        QVERIFY(r.lowerBound <= 930);
        QVERIFY(r.schedule.makespan > r.lowerBound);
        QVERIFY2(r.note.find("not proven optimal") != std::string::npos, r.note.c_str());
        checkScheduleIsTheCostModels(p, r.schedule);
    }

    // Catches: a stop object that ignores the stop_token (the run would go on to the proof, ~7 s).
    // The contract is 100 ms; the check allows 0.5 s for a loaded machine.
    void cancellationReturnsPromptly() {
        const Problem p = jobShopFixture("ft10");
        std::stop_source source;
        std::chrono::steady_clock::time_point requested;
        std::jthread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            requested = std::chrono::steady_clock::now();
            source.request_stop();
        });
        const ExactMakespanResult r = solveExactMakespan(p, {}, source.get_token());
        const auto returned = std::chrono::steady_clock::now();
        canceller.join();
        const double late = std::chrono::duration<double>(returned - requested).count();
        QVERIFY2(late < 0.5, std::to_string(late).c_str());
        QVERIFY(r.cancelled);
        QVERIFY(!r.optimal);
        QVERIFY(r.note.find("cancelled") != std::string::npos);
        checkScheduleIsTheCostModels(p, r.schedule);
    }

    // Through the registry, as `schedlab-cli optimize --method exact-makespan` runs it. Catches: a
    // result whose cost is not the cost model's (e.g. the model's makespan reported instead), a
    // lost lower bound or proof note, progress without the bound, a seed that changes a proof's
    // schedule between two runs.
    void registeredMethodReportsTheCostModelsMakespan() {
        registerCoreOptimizers();
        const OptimizerInfo* info = OptimizerRegistry::instance().find("exact-makespan");
        QVERIFY(info);
        QCOMPARE(info->family, std::string("exact"));
        for (const Problem& p : {jobShopFixture("ft06"), stgFixture("rand0013.stg", 2)}) {
            RunOptions o;
            o.seed = 3;
            std::vector<Progress> reports;
            const RunResult r = OptimizerRegistry::instance().create("exact-makespan")->run(
                p, o, [&](const Progress& pr) { reports.push_back(pr); }, {});
            Schedule rescored = r.schedule;
            QCOMPARE(scoreSchedule(p, rescored), r.cost);
            QCOMPARE(r.cost, r.schedule.makespan);
            QCOMPARE(r.lowerBound, r.cost);
            QVERIFY(r.note.rfind("optimal, proven", 0) == 0);
            QCOMPARE(r.schedule.method, std::string("exact-makespan"));
            QVERIFY(!reports.empty());
            QCOMPARE(reports.back().bound, r.lowerBound);
            QVERIFY(validateSchedule(p, r.schedule).ok());
            const RunResult again = OptimizerRegistry::instance().create("exact-makespan")->run(p, o, {}, {});
            QVERIFY(again.schedule.order == r.schedule.order);
        }
    }

    // Catches: a missing check, which would let the solver "prove" optima of a model that is not the
    // cost model's.
    void refusesWhatItCannotSolveExactly_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("reason");
        QTest::addRow("memory objective") << "memory" << "makespan alone";
        QTest::addRow("memory capacity") << "capacity" << "memory capacity";
        QTest::addRow("transfers between identical devices") << "latency" << "transfer";
        QTest::addRow("a device that runs two ops at once") << "resource" << "two ops at once";
        QTest::addRow("different durations on identical devices") << "durations" << "different times";
        QTest::addRow("durations that are not decimal") << "irrational" << "whole numbers";
    }
    void refusesWhatItCannotSolveExactly() {
        QFETCH(QString, change);
        QFETCH(QString, reason);
        Problem p = randomDag(6, 2, 5);
        auto g = std::make_shared<Graph>(p.g());
        if (change == "memory") p.objective.kind = Objective::Memory;
        if (change == "capacity") p.platform = Platform::identical(2, 1e6);
        if (change == "latency") p.platform.link.latency = 1;
        if (change == "resource") p.platform.devices[0].resourceCapacity = 2;
        if (change == "durations") g->mutableOp(0).deviceDurations = {1, 2};
        if (change == "irrational") g->mutableOp(0).duration = 1.0 / 3.0;
        g->finalize();
        p.graph = g;
        try {
            (void)solveExactMakespan(p, {});
            QFAIL("not refused");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find(reason.toStdString()) != std::string::npos, e.what());
        }
    }
};

SCHEDLAB_TEST_MAIN(exactmakespan, TestExactMakespan)
#include "tst_exactmakespan.moc"
