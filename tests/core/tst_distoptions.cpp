// SPDX-License-Identifier: MIT
// core/dist: the distributed flags and the launchers' variables (torchrun, Open MPI, PMI, Slurm),
// rank seeds, item ownership, and the local communicator a world of one uses (no LibTorch).
#include "common/testmain.h"
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

/// Every variable resolveDistOptions reads: none is set when a test starts or after it ends.
constexpr const char* kVariables[] = {"WORLD_SIZE", "RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK",
                                      "SLURM_NTASKS", "SLURM_PROCID", "MASTER_ADDR", "MASTER_PORT", "SCHEDLAB_DIST_TIMEOUT"};

void unsetAll() {
    for (const char* v : kVariables) ::unsetenv(v);
}

/// Sets each "NAME=VALUE" of a space-separated list (cleanup() unsets them).
void setAll(const QString& assignments) {
    for (const QString& a : assignments.split(' ', Qt::SkipEmptyParts)) {
        const qsizetype eq = a.indexOf('=');
        ::setenv(a.left(eq).toUtf8().constData(), a.mid(eq + 1).toUtf8().constData(), 1);
    }
}

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
    void init() { unsetAll(); }
    void cleanup() { unsetAll(); }

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

    void launchersVariables_data() {
        QTest::addColumn<QString>("env");        // "NAME=VALUE NAME=VALUE"
        QTest::addColumn<QString>("sizeFlag");   // empty: no --world-size
        QTest::addColumn<QString>("rankFlag");   // empty: no --rank
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("rank");
        QTest::addColumn<QString>("source");
        const auto row = [](const char* name, const char* env, const char* sizeFlag, const char* rankFlag, int size, int rank,
                            const char* source) {
            QTest::newRow(name) << QString(env) << QString(sizeFlag) << QString(rankFlag) << size << rank << QString(source);
        };
        // Each launcher alone: catches one not read, or its rank read from another launcher's variable.
        row("torchrun", "WORLD_SIZE=4 RANK=3", "", "", 4, 3, "torchrun (WORLD_SIZE, RANK)");
        row("Open MPI", "OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=2", "", "", 3, 2,
            "Open MPI (OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_RANK)");
        row("PMI", "PMI_SIZE=6 PMI_RANK=1", "", "", 6, 1, "PMI (PMI_SIZE, PMI_RANK)");
        row("Slurm", "SLURM_NTASKS=8 SLURM_PROCID=5", "", "", 8, 5, "Slurm (SLURM_NTASKS, SLURM_PROCID)");
        // Catches Slurm tried before torchrun (torchrun inside a Slurm job).
        row("torchrun in Slurm", "WORLD_SIZE=2 RANK=1 SLURM_NTASKS=8 SLURM_PROCID=0", "", "", 2, 1,
            "torchrun (WORLD_SIZE, RANK)");
        // Catches Slurm tried before Open MPI: the processes mpirun starts in a batch script inherit
        // its SLURM_PROCID=0, and would all be rank 0.
        row("mpirun in Slurm", "OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=3 SLURM_NTASKS=4 SLURM_PROCID=0", "", "", 4, 3,
            "Open MPI (OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_RANK)");
        // Catches mixing: a Slurm size with RANK, OMPI_COMM_WORLD_RANK or PMI_RANK as the rank.
        row("no SLURM_PROCID", "SLURM_NTASKS=4 OMPI_COMM_WORLD_RANK=2 PMI_RANK=1 RANK=3", "", "", 4, 0, "Slurm (SLURM_NTASKS)");
        // Catches a rank read without its launcher's size (refused: outside a world of 1).
        row("SLURM_PROCID alone", "SLURM_PROCID=3", "", "", 1, 0, "");
        // Catches RANK alone no longer read, as it was before the other launchers.
        row("RANK alone", "RANK=0", "", "", 1, 0, "torchrun (RANK)");
        // Catches flags losing to a launcher, or a source that hides which value came from where.
        row("flags in Slurm", "SLURM_NTASKS=8 SLURM_PROCID=5", "2", "1", 2, 1, "flags");
        row("--world-size in Slurm", "SLURM_NTASKS=8 SLURM_PROCID=5", "6", "", 6, 5, "flags and Slurm (SLURM_PROCID)");
        row("--rank in Open MPI", "OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=3", "", "2", 4, 2,
            "flags and Open MPI (OMPI_COMM_WORLD_SIZE)");
        // Catches a single process that claims a source.
        row("nothing", "", "", "", 1, 0, "");
    }

    /// The world size and rank come from one launcher, which describe() names (see each row).
    void launchersVariables() {
        QFETCH(QString, env);
        QFETCH(QString, sizeFlag);
        QFETCH(QString, rankFlag);
        QFETCH(int, size);
        QFETCH(int, rank);
        QFETCH(QString, source);
        setAll(env);
        DistFlags f;
        if (!sizeFlag.isEmpty()) f.worldSize = sizeFlag.toStdString();
        if (!rankFlag.isEmpty()) f.rank = rankFlag.toStdString();
        const DistOptions o = resolveDistOptions(f);
        QCOMPARE(o.worldSize, size);
        QCOMPARE(o.rank, rank);
        QCOMPARE(QString::fromStdString(o.source), source);
        // Catches describe() not saying which it used (the log line of a distributed run).
        if (source.isEmpty()) QVERIFY(o.describe().find(" from ") == std::string::npos);
        else QVERIFY(o.describe().ends_with(" from " + source.toStdString()));
    }

    void badLauncherValueNamesItsVariable_data() {
        QTest::addColumn<QString>("env");
        QTest::addColumn<QString>("variable");
        // Catches a bad value taken as rank 0, or blamed on another variable (RANK, the size's).
        QTest::newRow("SLURM_PROCID not a number") << "SLURM_NTASKS=4 SLURM_PROCID=x" << "SLURM_PROCID";
        QTest::newRow("SLURM_PROCID outside") << "SLURM_NTASKS=4 SLURM_PROCID=4" << "SLURM_PROCID";
        QTest::newRow("SLURM_NTASKS 0") << "SLURM_NTASKS=0 SLURM_PROCID=0" << "SLURM_NTASKS";
        QTest::newRow("OMPI_COMM_WORLD_RANK -1") << "OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=-1" << "OMPI_COMM_WORLD_RANK";
        QTest::newRow("PMI_SIZE two") << "PMI_SIZE=two" << "PMI_SIZE";
    }

    /// A bad launcher variable is refused, naming it (see each row).
    void badLauncherValueNamesItsVariable() {
        QFETCH(QString, env);
        QFETCH(QString, variable);
        setAll(env);
        QVERIFY(refused({}, variable.toStdString().c_str()));
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

SCHEDLAB_TEST_MAIN(distoptions, TestDistOptions)
#include "tst_distoptions.moc"
