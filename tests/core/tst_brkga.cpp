// SPDX-License-Identifier: MIT
// The BRKGA engine: stops, budget accounting, determinism across threads, cancel, elitism, warm
// start, and the registered optimizers end to end.
#include "common/testmain.h"
#include "core/brkga/beta.h"
#include "core/brkga/brkga.h"
#include "core/brkga/brkgaoptimizer.h"
#include "core/brkga/decoderbasics.h"
#include "core/brkga/orderdecoder.h"
#include "core/costmodel/validator.h"
#include "core/generators/generators.h"
#include "core/optimizer/optimizer.h"

#include <QtTest>

#include <boost/math/special_functions/beta.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

using namespace sl;
using namespace sl::brkga;

namespace {

/// Distance to a fixed point: smooth, with a known optimum 0.
double sphere(std::span<const double> keys) {
    double s = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
        const double d = keys[i] - (i % 2 ? 0.25 : 0.75);
        s += d * d;
    }
    return s;
}

/// Few distinct costs: many ties, so the ranking's tie order (cost, then slot) decides the run.
double quantizedSphere(std::span<const double> keys) { return std::floor(sphere(keys) * 4); }

/// Lamarckian: rewrites its keys to a grid; NaN and +inf for some chromosomes.
double gridSphere(std::span<double> keys) {
    for (double& x : keys) x = std::round(x * 8) / 8;
    if (keys[0] > 0.95) return std::nan("");
    if (keys[1] > 0.95) return std::numeric_limits<double>::infinity();
    return sphere(keys);
}

/// Order-sensitive hash of 64-bit words (best keys, history), to compare whole runs.
struct RunHash {
    std::uint64_t h = 0;
    void add(std::uint64_t v) { h = (h ^ v) * 0x100000001B3ULL + (h >> 29); }
    void add(double d) {
        std::uint64_t u;
        std::memcpy(&u, &d, sizeof u);
        add(u);
    }
};

// The Decoder concept: a cost from (keys, worker); read-only keys are fine, anything else is not.
static_assert(Decoder<double (*)(std::span<double>, int)>);
static_assert(Decoder<double (*)(std::span<const double>, int)>);
static_assert(!Decoder<double (*)(std::span<double>)>);             // no worker index
static_assert(!Decoder<std::string (*)(std::span<double>, int)>);   // no cost

Result runSphere(int threads, Params params, StopCriteria stop, std::uint64_t seed = 3) {
    Engine engine(40, [](std::span<double> k, int) { return sphere(k); }, params, threads);
    return engine.run(seed, stop);
}

Problem layeredProblem(int nodes, int devices, Objective kind, std::uint64_t seed = 1) {
    Problem p;
    p.graph = generateLayered(nodes, seed).graph;
    p.platform = Platform::identical(devices);
    p.objective.kind = kind;
    return p;
}

} // namespace

class TestBrkga : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void paramsAreChecked() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (Params{.population = 10, .elites = 10}).check());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (Params{.population = 10, .elites = 5, .mutants = 6}).check());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (Params{.rho = 1.5}).check());
        Params{}.check();
        Engine e(3, [](std::span<double>, int) { return 0.0; });
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, e.run(1, {}, std::vector<Chromosome>{{0.5}}));
    }

    void budgetIsExact_data() {
        QTest::addColumn<int>("budget");
        QTest::addColumn<int>("generations");
        QTest::newRow("1000 = 100 + 10 x 90") << 1000 << 10;
        QTest::newRow("4600 = 100 + 50 x 90") << 4600 << 50;
        QTest::newRow("5000 = 100 + 54 x 90 + 40") << 5000 << 55;
        QTest::newRow("50 < one population") << 50 << 0;
    }
    void budgetIsExact() {
        QFETCH(int, budget);
        QFETCH(int, generations);
        std::atomic<int> calls{0};
        Engine engine(10, [&](std::span<double> k, int) { ++calls; return sphere(k); }, {}, 2);
        const Result r = engine.run(1, {.budget = budget});
        QCOMPARE(r.evaluations, std::int64_t(budget));
        QCOMPARE(calls.load(), budget);
        QCOMPARE(r.generations, generations);
        QVERIFY(r.stop == StopReason::Budget);
    }

    void sameResultWhateverTheThreads_data() {
        QTest::addColumn<int>("populations");
        QTest::addColumn<int>("restart");
        QTest::newRow("plain") << 1 << 0;
        QTest::newRow("3 populations, exchange") << 3 << 0;
        QTest::newRow("restarts") << 1 << 3;
    }
    void sameResultWhateverTheThreads() {
        QFETCH(int, populations);
        QFETCH(int, restart);
        const Params params{.population = 30, .elites = 4, .mutants = 5, .populations = populations,
                            .exchangeInterval = 3, .exchangeCount = 2, .restartAfterStall = restart};
        const Result one = runSphere(1, params, {.budget = 3000});
        for (int threads : {2, 3}) {
            const Result r = runSphere(threads, params, {.budget = 3000});
            QCOMPARE(r.bestCost, one.bestCost);
            QCOMPARE(r.best, one.best);
            QCOMPARE(r.history.size(), one.history.size());
            for (size_t i = 0; i < r.history.size(); ++i) {
                QCOMPARE(r.history[i].best, one.history[i].best);
                QCOMPARE(r.history[i].mean, one.history[i].mean);
            }
        }
        const Result other = runSphere(1, params, {.budget = 3000}, 4);
        QVERIFY(other.best != one.best);   // the seed matters
    }

    // Runs recorded with the engine before its split into steps: the refactor and the speed work
    // must not change a single bit. Catches any change of the random streams, the crossover, the
    // ranking's tie order, elitism, budget accounting, restarts or exchanges.
    void resultsMatchRecordedRuns_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<double>("bestCost");
        QTest::addColumn<int>("generations");
        QTest::addColumn<int>("restarts");
        QTest::addColumn<quint64>("keysHash");
        QTest::addColumn<quint64>("historyHash");
        QTest::newRow("default, 5000 = 54 gens + 40") << "default" << 0x1.cb59c4fe1a2d3p-3 << 55 << 0
                                                      << quint64(0x0c39fd7660439103) << quint64(0x1321e74be80ae1e3);
        QTest::newRow("3 populations, ties") << "multi-ties" << 0x1p+1 << 38 << 0 << quint64(0x2e64328f2799078d)
                                             << quint64(0x327ac0056ad57024);
        QTest::newRow("restarts, ties") << "restarts" << 0x1.8p+1 << 149 << 34 << quint64(0xc8a2c520be9f8974)
                                        << quint64(0xcacd9ffe37d4b916);
        QTest::newRow("restarts, 2 populations") << "restarts-multi" << 0x1.8p+1 << 78 << 22
                                                 << quint64(0xeefeccbda76bb94b) << quint64(0xb71a1d6785c1bab6);
        QTest::newRow("warm start, 2 populations") << "warm" << 0x1.5f5ba1b445c25p-1 << 27 << 0
                                                   << quint64(0xdfa631920052d3c1) << quint64(0x4759c1a0008c7689);
        QTest::newRow("Lamarckian, NaN, inf") << "lamarck" << 0x1.cp-3 << 100 << 0 << quint64(0x41afdaa617c67a09)
                                              << quint64(0x9639be67b19e69e7);
    }
    void resultsMatchRecordedRuns() {
        QFETCH(QString, config);
        QFETCH(double, bestCost);
        QFETCH(int, generations);
        QFETCH(int, restarts);
        QFETCH(quint64, keysHash);
        QFETCH(quint64, historyHash);
        const Params multi{.population = 30, .elites = 4, .mutants = 5, .populations = 3, .exchangeInterval = 3,
                           .exchangeCount = 2};
        std::vector<Chromosome> warm;
        for (int w = 0; w < 5; ++w) {
            Chromosome c(40);
            for (size_t i = 0; i < c.size(); ++i) c[i] = (w + 1) * 0.3 - 0.2 + 0.01 * static_cast<double>(i);
            warm.push_back(c);
        }
        auto run = [&](int threads) {
            auto with = [&](auto decode, Params params, std::uint64_t seed, std::int64_t budget,
                            std::span<const Chromosome> warmStart = {}) {
                Engine engine(40, [decode](std::span<double> k, int) { return decode(k); }, params, threads);
                return engine.run(seed, {.budget = budget}, warmStart);
            };
            if (config == "default") return with(sphere, {}, 1, 5000);
            if (config == "multi-ties") return with(quantizedSphere, multi, 5, 3001);
            if (config == "restarts") {
                const Params restarts{.population = 30, .elites = 4, .mutants = 5, .restartAfterStall = 3};
                return with(quantizedSphere, restarts, 4, 4000);
            }
            if (config == "restarts-multi") {
                const Params restarts{.population = 20, .elites = 3, .mutants = 4, .populations = 2,
                                      .exchangeInterval = 2, .exchangeCount = 1, .restartAfterStall = 2};
                return with(quantizedSphere, restarts, 6, 2777);
            }
            if (config == "warm") {
                const Params small{.population = 25, .elites = 5, .mutants = 3, .populations = 2,
                                   .exchangeInterval = 4, .exchangeCount = 1};
                return with(sphere, small, 7, 1111, warm);
            }
            return with(gridSphere, {.population = 50, .elites = 7, .mutants = 9}, 15, 4321);
        };
        for (int threads : {1, 2}) {
            const Result r = run(threads);
            RunHash keys, history;
            for (double k : r.best) keys.add(k);
            for (const Status& s : r.history) {
                history.add(static_cast<std::uint64_t>(s.evaluations));
                history.add(static_cast<std::uint64_t>(s.generation));
                history.add(s.best);
                history.add(s.mean);
                history.add(s.diversity);
                history.add(static_cast<std::uint64_t>(s.restarts));
            }
            QVERIFY2(r.bestCost == bestCost, qPrintable(QString::asprintf("%a", r.bestCost)));   // exact, not fuzzy
            QCOMPARE(r.generations, generations);
            QCOMPARE(r.restarts, restarts);
            QCOMPARE(quint64(keys.h), keysHash);
            QCOMPARE(quint64(history.h), historyHash);
        }
    }

    // The step API is what run() is made of: the same steps give the same run.
    void stepsReproduceRun() {
        const Params params{.population = 30, .elites = 4, .mutants = 5, .populations = 2, .exchangeInterval = 3,
                            .exchangeCount = 1, .restartAfterStall = 4};
        Engine engine(40, [](std::span<double> k, int) { return quantizedSphere(k); }, params, 2);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, engine.evolve());   // no run started
        const Result whole = engine.run(9, {.budget = 2500});
        engine.initialize(9, {}, {.budget = 2500});
        QCOMPARE(engine.generation(), 0);
        QCOMPARE(engine.evaluations(), std::int64_t(2 * 30));
        while (!engine.limitReached()) {
            if (engine.stalledGenerations() >= params.restartAfterStall)
                engine.restart();
            else
                engine.evolve();
            if (engine.generation() % params.exchangeInterval == 0) engine.exchangeElite();
        }
        QCOMPARE(engine.evaluations(), whole.evaluations);
        QCOMPARE(engine.generation(), whole.generations);
        QCOMPARE(engine.restarts(), whole.restarts);
        QVERIFY(whole.restarts > 0);
        QVERIFY(engine.bestCost() == whole.bestCost);
        QCOMPARE(engine.best(), whole.best);
        QVERIFY(engine.status().mean == whole.history.back().mean);
    }

    void bestNeverGetsWorseAndEvolutionHelps() {
        const Result r = runSphere(2, {}, {.budget = 5000});
        QVERIFY(r.history.size() > 2);
        for (size_t i = 1; i < r.history.size(); ++i) QVERIFY(r.history[i].best <= r.history[i - 1].best);
        QVERIFY(r.history.back().best < r.history.front().best * 0.2);
        QVERIFY(r.history.back().diversity < r.history.front().diversity);
        QVERIFY(std::abs(r.history.front().diversity - 1.0 / 3) < 0.05);   // uniform keys vs a uniform best
        QCOMPARE(sphere(r.best), r.bestCost);                              // the best re-decodes to its cost
    }

    void stallStopsAndTargetStops() {
        Engine flat(5, [](std::span<double>, int) { return 1.0; });
        const Result r = flat.run(1, {.budget = 0, .stallGenerations = 5});
        QVERIFY(r.stop == StopReason::Stall);
        QCOMPARE(r.generations, 5);
        QCOMPARE(r.evaluations, std::int64_t(100 + 5 * 90));
        const Result t = runSphere(1, {}, {.budget = 0, .target = 0.5});
        QVERIFY(t.stop == StopReason::Target);
        QVERIFY(t.bestCost <= 0.5);
    }

    void timeLimitStops() {
        Engine slow(5, [](std::span<double> k, int) {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            return sphere(k);
        }, {}, 2);
        const Result r = slow.run(1, {.budget = 0, .timeLimit = 0.05});
        QVERIFY(r.stop == StopReason::TimeLimit);
        QVERIFY(r.seconds < 5);   // generous: the limit is checked before every decode
        QVERIFY(std::isfinite(r.bestCost));
    }

    void observerSeesEveryGenerationAndCanStop() {
        int calls = 0;
        Engine engine(8, [](std::span<double> k, int) { return sphere(k); });
        const Result r = engine.run(1, {.budget = 0}, {}, [&](const Status& s) {
            ++calls;
            return s.generation == 7;
        });
        QVERIFY(r.stop == StopReason::Observer);
        QCOMPARE(calls, 8);   // initial population + 7 generations
        QCOMPARE(r.history.size(), size_t(8));
    }

    void cancelReturnsBestSoFarQuickly() {
        std::stop_source source;
        Engine slow(5, [](std::span<double> k, int) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            return sphere(k);
        }, {}, 2);
        std::chrono::steady_clock::time_point requested;
        std::jthread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            requested = std::chrono::steady_clock::now();
            source.request_stop();
        });
        const Result r = slow.run(1, {.budget = 0}, {}, {}, source.get_token());
        const double late = std::chrono::duration<double>(std::chrono::steady_clock::now() - requested).count();
        QVERIFY(r.stop == StopReason::Cancelled);
        QVERIFY(std::isfinite(r.bestCost));
        QCOMPARE(sphere(r.best), r.bestCost);
        QVERIFY2(late < 1.0, "cancel should return within ~one decode (2 ms); 1 s is a generous bound");
    }

    void customDistributionsAndPerGeneRho() {
        Distributions d;
        d.mutant = [](std::span<double> k, Rng&) { std::fill(k.begin(), k.end(), 0.75); };
        d.initial = [](std::span<double> k, Rng& rng) { for (double& x : k) x = 0.5 + 0.5 * rng.uniform(); };
        d.rho = std::vector<double>(40, 1.0);   // children are copies of their elite parent
        Engine engine(40, [](std::span<double> k, int) {
            for (double x : k)
                if (x < 0.5) return 1e9;   // no key below 0.5 may ever appear
            return sphere(k);
        });
        engine.setDistributions(d);
        const Result r = engine.run(2, {.budget = 2000});
        QVERIFY(r.bestCost < 1e9);
        for (double x : r.best) QVERIFY(x >= 0.5);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, engine.setDistributions({.rho = {0.5}}));
    }

    void betaVariatesHaveTheRightMoments_data() {
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("beta");
        // The four Betas of REGAL's dequantization with k = 2 (Paliwal et al. 2020, A.2), plus
        // uniform and a peaked one.
        QTest::newRow("2/3, 4/3") << 2.0 / 3 << 4.0 / 3;
        QTest::newRow("1/6, 1/3") << 1.0 / 6 << 1.0 / 3;
        QTest::newRow("4/3, 2/3") << 4.0 / 3 << 2.0 / 3;
        QTest::newRow("1/3, 1/6") << 1.0 / 3 << 1.0 / 6;
        QTest::newRow("uniform") << 1.0 << 1.0;
        QTest::newRow("5, 2") << 5.0 << 2.0;
    }
    void betaVariatesHaveTheRightMoments() {
        QFETCH(double, alpha);
        QFETCH(double, beta);
        Rng rng(42);
        std::vector<double> x(40000);
        fillBeta(x, alpha, beta, rng);
        double mean = 0, var = 0;
        for (double v : x) {
            QVERIFY(v >= 0 && v <= 1);
            mean += v;
        }
        mean /= static_cast<double>(x.size());
        for (double v : x) var += (v - mean) * (v - mean);
        var /= static_cast<double>(x.size());
        const double m = alpha / (alpha + beta), s2 = m * (1 - m) / (alpha + beta + 1);
        QVERIFY2(std::abs(mean - m) < 0.01, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(var - s2) < 0.01, qPrintable(QString::number(var)));
    }

    void tabulatedBetaFollowsTheExactCdf() {
        // REGAL's smallest shapes (A.2 with k = 2: 1/6 and 1/3) and a skewed one: the empirical
        // CDF of table draws against Boost's regularised incomplete beta, and the knots are the
        // quantiles.
        const double shapes[][2] = {{1.0 / 6, 1.0 / 3}, {1.0 / 3, 1.0 / 6}, {4.0 / 3, 2.0 / 3}, {5, 1}};
        for (const auto& s : shapes) {
            const BetaQuantiles table(s[0], s[1]);
            QCOMPARE_LE(std::abs(table.quantile(0.25) - boost::math::ibeta_inv(s[0], s[1], 0.25)), 1e-12);
            Rng rng(11);
            std::vector<double> x(40000);
            for (double& v : x) v = table(rng);
            std::sort(x.begin(), x.end());
            double worst = 0;
            for (double at : {0.001, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999}) {
                const double empirical = static_cast<double>(std::lower_bound(x.begin(), x.end(), at) - x.begin()) / 40000.0;
                worst = std::max(worst, std::abs(empirical - boost::math::ibeta(s[0], s[1], at)));
            }
            QVERIFY2(worst < 0.01, qPrintable(QString("Beta(%1, %2): CDF off by %3").arg(s[0]).arg(s[1]).arg(worst)));
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BetaQuantiles(0, 1));
    }

    void perGeneBetaFollowsEachGene() {
        // Gene 0 ~ Beta(5, 1) (mean 5/6), gene 1 ~ Beta(1, 5) (mean 1/6), gene 2 uniform.
        auto sample = perGeneBeta({5, 1, 1}, {1, 5, 1});
        Rng rng(3);
        double sum[3] = {0, 0, 0};
        std::vector<double> k(3);
        for (int i = 0; i < 20000; ++i) {
            sample(k, rng);
            for (int g = 0; g < 3; ++g) sum[g] += k[static_cast<size_t>(g)];
        }
        QVERIFY(std::abs(sum[0] / 20000 - 5.0 / 6) < 0.01);
        QVERIFY(std::abs(sum[1] / 20000 - 1.0 / 6) < 0.01);
        QVERIFY(std::abs(sum[2] / 20000 - 0.5) < 0.01);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, perGeneBeta({1}, {1, 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, perGeneBeta({0}, {1}));
        // Plugged into the engine, the learned distribution steers the search.
        Engine engine(3, [](std::span<double> x, int) { return -x[0]; });
        engine.setDistributions({.mutant = perGeneBeta({5, 1, 1}, {1, 5, 1})});
        QVERIFY(engine.run(1, {.budget = 300}).bestCost < -0.97);
    }

    void warmStartNeverEndsWorse() {
        // A warm chromosome at the optimum of the sphere is kept to the end.
        Chromosome optimum(40);
        for (size_t i = 0; i < optimum.size(); ++i) optimum[i] = i % 2 ? 0.25 : 0.75;
        Engine engine(40, [](std::span<double> k, int) { return sphere(k); });
        const Result r = engine.run(5, {.budget = 500}, std::vector<Chromosome>{optimum});
        QCOMPARE(r.bestCost, 0.0);
        QCOMPARE(r.best, optimum);
    }

    void brkgaOrderWarmStartBeatsOrMatchesListCp() {
        GeneratedInstance inst = generateInstance("jobshop", 100, 4);
        Problem p;
        p.graph = inst.graph;
        p.platform = inst.platform;
        OrderDecoder dec(p);
        const double listCp = dec.decode(criticalPathKeys(*p.graph));
        auto opt = makeOptimizer(Chromosomes::Order);
        RunOptions o;
        o.budget = 600;
        const RunResult r = opt->run(p, o, {}, {});
        QVERIFY(r.cost <= listCp);
        QCOMPARE(r.schedule.makespan, r.cost);
        QVERIFY(validateSchedule(p, r.schedule).ok());
    }

    void registeredOptimizersRunEndToEnd_data() {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("objective");
        for (const QString& m : {QStringLiteral("brkga"), QStringLiteral("brkga-order")})
            for (int obj : {0, 1, 2}) QTest::addRow("%s obj=%d", qPrintable(m), obj) << m << obj;
    }
    void registeredOptimizersRunEndToEnd() {
        QFETCH(QString, method);
        QFETCH(int, objective);
        registerCoreOptimizers();
        const OptimizerInfo* info = OptimizerRegistry::instance().find(method.toStdString());
        QVERIFY(info);
        QVERIFY(info->usesBudget && info->usesSeed);
        QVERIFY(std::any_of(info->options.begin(), info->options.end(), [](const OptionSpec& s) { return s.key == "rho"; }));
        const Problem p = layeredProblem(120, 2, static_cast<Objective>(objective));
        auto opt = OptimizerRegistry::instance().create(method.toStdString());
        RunOptions o;
        o.budget = 700;
        o.seed = 11;
        o.values = {{"population", 40}, {"elites", 6}, {"mutants", 6}, {"rho", 0.65}};
        int reports = 0;
        const RunResult r = opt->run(p, o, [&](const Progress&) { ++reports; }, {});
        QCOMPARE(r.evaluations, std::int64_t(700));
        QVERIFY(reports >= 1);
        QVERIFY(!r.history.empty());
        QCOMPARE(r.history.back().best, r.cost);
        const ValidationReport v = validateSchedule(p, r.schedule);
        QVERIFY2(v.ok(), v.errors.empty() ? "" : v.errors.front().c_str());
        if (p.objective.kind == Objective::Memory) QCOMPARE(r.schedule.peakMemory(), r.cost);
        if (p.objective.kind == Objective::Makespan) QCOMPARE(r.schedule.makespan, r.cost);
        o.threads = 2;
        const RunResult r2 = opt->run(p, o, {}, {});
        QCOMPARE(r2.cost, r.cost);
    }

    void optimizerCancelReturnsAValidSchedule() {
        const Problem p = layeredProblem(2000, 2, Objective::Memory);
        auto opt = makeOptimizer(Chromosomes::Regal);
        RunOptions o;
        o.budget = 1'000'000;
        std::stop_source source;
        std::jthread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            source.request_stop();
        });
        const auto t0 = std::chrono::steady_clock::now();
        const RunResult r = opt->run(p, o, {}, source.get_token());
        QVERIFY(r.cancelled);
        QVERIFY(r.evaluations < 1'000'000);
        QVERIFY(validateSchedule(p, r.schedule).ok());
        QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30));
    }
};

SCHEDLAB_TEST_MAIN(brkga, TestBrkga)
#include "tst_brkga.moc"
