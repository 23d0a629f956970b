// SPDX-License-Identifier: MIT
// core/dist: the distributed flags and torchrun's variables, rank seeds, item ownership, and the
// local communicator a world of one uses (no LibTorch).
#include "core/dist/communicator.h"
#include "core/dist/distoptions.h"

#include <QTest>

#include <cstdlib>
#include <set>

using namespace sl::dist;

namespace {

/// Sets (or unsets, for nullptr) an environment variable for one test.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : m_name(name) {
        if (const char* old = std::getenv(name)) m_old = old;
        if (value) ::setenv(name, value, 1);
        else ::unsetenv(name);
    }
    ~ScopedEnv() {
        if (m_old.empty()) ::unsetenv(m_name);
        else ::setenv(m_name, m_old.c_str(), 1);
    }

private:
    const char* m_name;
    std::string m_old;
};

bool refused(const DistFlags& f, const char* mentioning) {
    try {
        resolveDistOptions(f);
    } catch (const std::invalid_argument& e) {
        return std::string(e.what()).find(mentioning) != std::string::npos;
    }
    return false;
}

} // namespace

class TestDistOptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() {
        for (const char* v : {"WORLD_SIZE", "RANK", "MASTER_ADDR", "MASTER_PORT", "SCHEDLAB_DIST_TIMEOUT"}) ::unsetenv(v);
    }

    /// Catches defaults that make a plain run distributed.
    void defaultsAreOneProcess() {
        const DistOptions o = resolveDistOptions({});
        QCOMPARE(o.worldSize, 1);
        QCOMPARE(o.rank, 0);
        QVERIFY(!o.distributed());
        QCOMPARE(o.master(), std::string("127.0.0.1:29500"));
    }

    /// Catches torchrun's variables ignored, or flags that do not win over them.
    void flagsWinOverTorchrunsVariables() {
        const ScopedEnv w("WORLD_SIZE", "4"), r("RANK", "3"), a("MASTER_ADDR", "10.0.0.7"), p("MASTER_PORT", "4321");
        const DistOptions env = resolveDistOptions({});
        QCOMPARE(env.worldSize, 4);
        QCOMPARE(env.rank, 3);
        QCOMPARE(env.master(), std::string("10.0.0.7:4321"));
        DistFlags f;
        f.rank = "1";
        f.master = "host.example:777";
        const DistOptions flags = resolveDistOptions(f);
        QCOMPARE(flags.worldSize, 4);   // from the environment
        QCOMPARE(flags.rank, 1);
        QCOMPARE(flags.host, std::string("host.example"));
        QCOMPARE(flags.port, 777);
    }

    /// Catches a rank outside the world, a master without a port, a bad timeout, a bad variable.
    void badValuesNameTheirOrigin() {
        DistFlags f;
        f.worldSize = "2";
        f.rank = "2";
        QVERIFY(refused(f, "--rank"));
        f.rank = "0";
        f.master = "no-port";
        QVERIFY(refused(f, "HOST:PORT"));
        f.master = "h:70000";
        QVERIFY(refused(f, "port"));
        f.master.reset();
        f.timeout = "0";
        QVERIFY(refused(f, "--dist-timeout"));
        f.timeout = "nan";
        QVERIFY(refused(f, "--dist-timeout"));
        const ScopedEnv w("WORLD_SIZE", "two");
        QVERIFY(refused({}, "WORLD_SIZE"));
    }

    /// Catches rank 0 not reproducing a single process (its seed must be the run's seed) and ranks
    /// drawing the same data.
    void rankZeroKeepsTheSeedOthersGetTheirOwn() {
        QCOMPARE(rankSeed(42, 0), std::uint64_t(42));
        std::set<std::uint64_t> seen{rankSeed(42, 0)};
        for (int r = 1; r < 64; ++r) QVERIFY(seen.insert(rankSeed(42, r)).second);
    }

    /// Catches items owned twice or by nobody.
    void everyItemHasExactlyOneOwner() {
        for (int world : {1, 2, 3, 7})
            for (std::size_t item = 0; item < 50; ++item) {
                int owners = 0;
                for (int r = 0; r < world; ++r) owners += ownsItem(DistOptions{world, r}, item) ? 1 : 0;
                QCOMPARE(owners, 1);
            }
    }

    /// A world of one needs no module: connect() gives a local communicator that hands back what
    /// it is given.
    void aWorldOfOneIsLocal() {
        const auto comm = sl::dist::connect(DistOptions{});
        QCOMPARE(comm->worldSize(), 1);
        QCOMPARE(comm->allGather("abc"), std::vector<std::string>{"abc"});
        QVERIFY(comm->anyTrue(true));
        QVERIFY(!comm->anyTrue(false));
    }
};

QTEST_GUILESS_MAIN(TestDistOptions)
#include "tst_distoptions.moc"
