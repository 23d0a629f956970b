// SPDX-License-Identifier: MIT
// Studies (core/study): the summary and the performance profile of a hand-built cost table, a
// study stopped mid-run and resumed against one never stopped (to the bit), and databases that are
// not studies refused with a message. Each test names the mutation it catches.
#include "common/bits.h"
#include "common/testmain.h"
#include "core/generators/generators.h"
#include "core/graph/fingerprint.h"
#include "core/io/graphio.h"
#include "core/profile/profile.h"
#include "core/study/studyrunner.h"
#include "core/study/studystats.h"
#include "core/study/studysummary.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <QFileInfo>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

using namespace sl;

namespace {

const double kNaN = std::nan("");


/// Three generated graphs in `dir`, and a study of them: list-cp, tabu and random-search, two seeds.
StudySpec smallStudy(const QString& dir) {
    StudySpec s;
    for (int i = 0; i < 3; ++i) {
        const GeneratedInstance inst = generateLayered(14 + 3 * i, static_cast<std::uint64_t>(i + 1));
        const std::string path = (dir + QStringLiteral("/g%1.json").arg(i)).toStdString();
        saveGraphJson(*inst.graph, nullptr, path);
        s.graphs.push_back(path);
    }
    s.devices = 2;
    s.seeds = {1, 2};
    s.methods = {{"list-cp", "list-cp", {}}, {"tabu", "tabu", {}}, {"random", "random-search", {}}};
    s.methods[1].options.budget = 300;
    s.methods[2].options.values["samples"] = 20;
    return s;
}

} // namespace

class TestStudy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { registerCoreOptimizers(); }

    // A hand-built table (best per graph: 10 by A and C, 20 by A and B, 15 by C; B failed on g3):
    // A's ratios 1, 1, 2 (geomean 2^(1/3)), two ties and a loss; B's 1.2 and 1 (geomean
    // sqrt(1.2)), a tie and two losses, one of them its failure; C's 1, 1.25, 1 (geomean
    // 1.25^(1/3)), a tie, a loss, a win. Profiles by hand. Mutations caught: a failed run left out
    // of the losses or counted within a factor, a tie counted as a win, an arithmetic mean.
    void summaryAndProfileOfAHandBuiltTable() {
        const StudySummary s = summarizeCosts({"A", "B", "C"}, {"g1", "g2", "g3"},
                                              {{"A", {10, 20, 30}}, {"B", {12, 20, kNaN}}, {"C", {10, 25, 15}}});
        const MethodSummary &a = s.rows[0], &b = s.rows[1], &c = s.rows[2];
        QVERIFY(std::abs(a.geomeanRatio - std::cbrt(2.0)) < 1e-12);
        QVERIFY(std::abs(b.geomeanRatio - std::sqrt(1.2)) < 1e-12);
        QVERIFY(std::abs(c.geomeanRatio - std::cbrt(1.25)) < 1e-12);
        QCOMPARE((std::array{a.wins, a.ties, a.losses, a.failed}), (std::array{0, 2, 1, 0}));
        QCOMPARE((std::array{b.wins, b.ties, b.losses, b.failed}), (std::array{0, 1, 2, 1}));
        QCOMPARE((std::array{c.wins, c.ties, c.losses, c.failed}), (std::array{1, 1, 1, 0}));
        QCOMPARE(performanceProfile(s, "A", 1), 2.0 / 3);
        QCOMPARE(performanceProfile(s, "A", 2), 1.0);
        QCOMPARE(performanceProfile(s, "B", 1.2), 2.0 / 3);
        QCOMPARE(performanceProfile(s, "B", 1e9), 2.0 / 3);   // its failure is never within
        QCOMPARE(performanceProfile(s, "C", 1.249), 2.0 / 3);
        QCOMPARE(performanceProfile(s, "C", 1.25), 1.0);
        // against bounds 8, 20 and none: A's cost / bound over g1 and g2, 10/8 and 1 (geomean sqrt(1.25))
        const StudySummary bounded = summarizeCosts({"A"}, {"g1", "g2", "g3"}, {{"A", {10, 20, 30}}}, {}, {8, 20, 0});
        QVERIFY(std::abs(bounded.rows[0].geomeanToBound - std::sqrt(1.25)) < 1e-12);
        const std::string tex = formatSummary(summarizeCosts({"a_b&c"}, {"g"}, {{"a_b&c", {1.0}}}), "latex");
        QVERIFY2(tex.find("a\\_b\\&c & 1.0000 & ") != std::string::npos && tex.find("\\bottomrule") != std::string::npos, tex.c_str());
    }

    // The worked example of Hollander and Wolfe (Nonparametric Statistical Methods, 1973, p. 29;
    // also R's ?wilcox.test): Hamilton depression scores before (x) and after (y) a drug in nine
    // patients. V = 40; the exact one-sided p is 10/512 = 0.01953 (R: "V = 40, p-value = 0.01953"
    // for alternative "greater"), so two-sided 0.0390625. Mutations caught: ranks of the signed
    // differences, a one-sided p, zeros kept.
    void wilcoxonMatchesHollanderAndWolfe() {
        const std::vector<double> x{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
        const std::vector<double> y{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
        const WilcoxonResult r = wilcoxonSignedRank(x, y);
        QVERIFY(r.exact);
        QCOMPARE(r.pairs, 9);
        QCOMPARE(r.plus, 40.0);
        QVERIFY(std::abs(r.pValue - 0.0390625) < 1e-12);
        // a zero difference is dropped: the same result with an equal pair added
        std::vector<double> x2 = x, y2 = y;
        x2.push_back(5);
        y2.push_back(5);
        QCOMPARE(wilcoxonSignedRank(x2, y2).pValue, r.pValue);
        // 30 positive differences 1..30: the normal approximation, V = 465, E = 232.5,
        // Var = 30 * 31 * 61 / 24 = 2363.75, z = (232.5 - 0.5) / sqrt(2363.75) = 4.7718
        std::vector<double> a(30), b(30, 0.0);
        for (int i = 0; i < 30; ++i) a[static_cast<size_t>(i)] = i + 1;
        const WilcoxonResult big = wilcoxonSignedRank(a, b);
        QVERIFY(!big.exact);
        QCOMPARE(big.plus, 465.0);
        QVERIFY(std::abs(big.pValue - std::erfc(232.0 / std::sqrt(2363.75) / std::sqrt(2.0))) < 1e-15);
        QVERIFY(big.pValue > 1.7e-6 && big.pValue < 1.9e-6);
        // the bootstrap interval brackets the geometric mean and is reproducible
        const std::vector<double> ratios{1.0, 1.1, 1.3, 1.0, 1.05, 1.2};
        const auto [lo, hi] = bootstrapGeomeanInterval(ratios, 2000, 7);
        double g = 0;
        for (double q : ratios) g += std::log(q);
        g = std::exp(g / 6);
        QVERIFY(lo <= g && g <= hi && lo >= 1.0 && hi <= 1.3);
        QCOMPARE(bootstrapGeomeanInterval(ratios, 2000, 7), std::make_pair(lo, hi));
    }

    // A study stopped after 5 of its 18 runs and resumed (from the file, as after a kill) stores
    // every run once, with the costs, evaluations and schedules of a study never stopped and run
    // on two workers, bit for bit. Mutations caught: a resume that runs stored runs again (18 rows, but the made count is
    // off), a run cut short by the stop stored as a result, seeds not passed.
    void aStoppedStudyResumesToTheSameResults() {
        QTemporaryDir dir;
        const StudySpec spec = smallStudy(dir.path());
        const std::string whole = (dir.path() + "/whole.db").toStdString(), split = (dir.path() + "/split.db").toStdString();
        {   // never stopped, and on two workers: the results do not depend on them
            StudyStore store = StudyStore::create(whole, spec);
            QCOMPARE(runStudy(store, {}, {}, 2), 18);
        }
        {
            StudyStore store = StudyStore::create(split, spec);
            std::stop_source stop;
            const int first = runStudy(store, [&](const StudyProgress& p) {
                if (p.last && p.done >= 5) stop.request_stop();
            }, stop.get_token());
            QCOMPARE(first, 5);
        }
        StudyStore resumed = StudyStore::open(split);
        QCOMPARE(runStudy(resumed), 13);
        QCOMPARE(runStudy(resumed), 0);
        const StudyStore reference = StudyStore::open(whole);
        const std::vector<StudyRun> a = reference.runs(), b = resumed.runs();
        QCOMPARE(b.size(), a.size());
        for (const StudyRun& r : a) {
            const auto it = std::find_if(b.begin(), b.end(), [&](const StudyRun& x) { return x.graph == r.graph && x.method == r.method && x.seed == r.seed; });
            QVERIFY(it != b.end());
            QVERIFY(it->ok && r.ok);
            QVERIFY(sameBits(it->cost, r.cost) && sameBits(it->makespan, r.makespan));
            QCOMPARE(it->evaluations, r.evaluations);
            QCOMPARE(resumed.schedule(r.graph, r.method, r.seed), reference.schedule(r.graph, r.method, r.seed));
        }
        // the summary reads the same from both
        QCOMPARE(formatSummary(summarize(spec, b), "csv").substr(0, 40), formatSummary(summarize(spec, a), "csv").substr(0, 40));
    }

    // A study sharded over three ranks (each its own database) and merged equals the study run
    // whole, run for run and bit for bit, each run once; merging a database of another study is
    // refused naming it. Mutations caught: shards that overlap or leave runs out, a merge that
    // duplicates runs or mixes studies.
    void shardsMergeToTheWholeStudy() {
        QTemporaryDir dir;
        const StudySpec spec = smallStudy(dir.path());
        const std::string whole = (dir.path() + "/whole.db").toStdString(), merged = (dir.path() + "/merged.db").toStdString();
        {
            StudyStore store = StudyStore::create(whole, spec);
            runStudy(store);
        }
        std::vector<std::string> shards;
        for (int rank = 0; rank < 3; ++rank) {
            shards.push_back((dir.path() + QStringLiteral("/rank%1.db").arg(rank)).toStdString());
            StudyStore store = StudyStore::create(shards.back(), spec);
            QCOMPARE(runStudy(store, {}, {}, 1, {3, rank}), 6);
        }
        QCOMPARE(StudyStore::merge(merged, shards), 18);
        QCOMPARE(StudyStore::merge(merged, shards), 0);   // nothing twice
        const StudyStore a = StudyStore::open(whole), b = StudyStore::open(merged);
        QCOMPARE(b.runs().size(), std::size_t{18});
        for (const StudyRun& r : a.runs())
            QCOMPARE(b.schedule(r.graph, r.method, r.seed), a.schedule(r.graph, r.method, r.seed));
        StudySpec other = spec;
        other.seeds = {7};
        const std::string foreign = (dir.path() + "/other.db").toStdString();
        StudyStore::create(foreign, other);
        try {
            StudyStore::merge(merged, {foreign});
            QFAIL("a database of another study was merged");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find("another study") != std::string::npos, e.what());
        }
    }

    // Relative graph paths are read from the study file's folder, whatever the working
    // directory, and runs keep the names as written; the base travels in the database. Mutation
    // caught: paths read from the working directory (the study's graphs would not load).
    void relativePathsAreTheStudyFilesOwn() {
        QTemporaryDir dir;
        QDir(dir.path()).mkpath("studies/graphs");
        saveGraphJson(*generateLayered(12, 3).graph, nullptr, (dir.path() + "/studies/graphs/a.json").toStdString());
        const std::string file = (dir.path() + "/studies/s.study.json").toStdString();
        std::ofstream(file) << R"({"graphs": ["graphs"], "methods": [{"name": "list-cp"}]})";
        const StudySpec spec = loadStudySpec(file);
        QCOMPARE(spec.graphFiles(), std::vector<std::string>{"graphs/a.json"});
        const std::string db = (dir.path() + "/s.db").toStdString();
        {
            StudyStore store = StudyStore::create(db, spec);
            QCOMPARE(runStudy(store), 1);
        }
        const StudyStore reopened = StudyStore::open(db);
        QCOMPARE(reopened.runs().front().graph, std::string("graphs/a.json"));
        QVERIFY2(reopened.runs().front().ok, reopened.runs().front().error.c_str());
        QCOMPARE(reopened.spec().resolve("graphs/a.json"), (dir.path() + "/studies/graphs/a.json").toStdString());
    }

    // "profiles" apply each profile to the graph it is of: AlexNet gets its schedlab profile's times
    // (op v: 100 + v µs, by the model's fingerprint), SqueezeNet its ONNX Runtime trace's (op v:
    // 10 + v µs, by op names), ResNet-50 keeps its estimates though both are listed for the whole
    // study. Mutations caught: profiles ignored, a profile applied to every graph (the others would
    // be refused), ORT traces refused in a study (the rule the CLI and the explorer follow).
    void profilesApplyToTheGraphTheyAreOf() {
        QTemporaryDir dir;
        const std::string data = SCHEDLAB_TEST_DATA;
        const std::string alexnet = data + "/onnx/light_bvlc_alexnet.onnx",
                          squeezenet = data + "/onnx/light_squeezenet.onnx";
        const Graph a = *loadGraph(alexnet).graph;
        Profile profile;
        profile.model = "light_bvlc_alexnet.onnx";
        profile.fingerprint = modelFingerprintText(modelFingerprint(a));
        profile.tool = "a test";
        for (OpId v = 0; v < a.opCount(); ++v) profile.ops.push_back({a.op(v).name, a.op(v).type, 100.0 + v, 1, 5});
        const std::string path = (dir.path() + "/alexnet.profile.json").toStdString();
        saveProfile(profile, path);
        const Graph s = *loadGraph(squeezenet).graph;
        const std::string trace = (dir.path() + "/squeezenet.ort.json").toStdString();
        {
            std::ofstream out(trace);
            // ONNX Runtime's trace: one run, a "<node>_kernel_time" event per op
            out << "[{\"cat\":\"Session\",\"pid\":1,\"tid\":7,\"dur\":9000,\"ts\":0,\"ph\":\"X\",\"name\":\"model_run\",\"args\":{}}";
            for (OpId v = 0; v < s.opCount(); ++v)
                out << ",{\"cat\":\"Node\",\"pid\":1,\"tid\":7,\"dur\":" << 10 + v << ",\"ts\":" << 10 + 40 * v
                    << ",\"ph\":\"X\",\"name\":\"" << s.op(v).name << "_kernel_time\",\"args\":{\"op_name\":\""
                    << s.op(v).type << "\",\"provider\":\"CPUExecutionProvider\"}}";
            out << "]";
        }
        const std::string resnet = data + "/onnx/light_resnet50.onnx";
        const StudySpec spec = parseStudySpec(R"({"graphs": [")" + alexnet + R"(", ")" + squeezenet + R"(", ")" +
                                                  resnet + R"("], "methods": [{"name": "list-cp"}], "profiles": [")" +
                                                  path + R"(", ")" + trace + R"("]})",
                                              "s.json");
        const Problem measured = spec.problemFor(alexnet);
        for (OpId v = 0; v < a.opCount(); ++v) {
            QCOMPARE(measured.g().op(v).duration, 100.0 + v);
            QVERIFY(measured.g().op(v).timeSource == TimeSource::Measured);
        }
        const Problem traced = spec.problemFor(squeezenet);
        for (OpId v = 0; v < s.opCount(); ++v) QCOMPARE(traced.g().op(v).duration, 10.0 + v);
        const Problem estimated = spec.problemFor(resnet);
        const Graph r = *loadGraph(resnet).graph;
        for (OpId v = 0; v < r.opCount(); ++v) QVERIFY(sameBits(estimated.g().op(v).duration, r.op(v).duration));
    }

    // Files that are not studies are refused with a message naming them: random bytes, another
    // program's SQLite database, a missing file; a spec with an unknown method names it. Mutation
    // caught: opening a foreign database as an empty study.
    void foreignAndCorruptDatabasesAreRefused() {
        QTemporaryDir dir;
        const std::string junk = (dir.path() + "/junk.db").toStdString(), foreign = (dir.path() + "/foreign.db").toStdString();
        std::ofstream(junk) << std::string(4096, 'x');
        sqlite3* db = nullptr;
        sqlite3_open(foreign.c_str(), &db);
        sqlite3_exec(db, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hello');", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        for (const std::string& path : {junk, foreign, (dir.path() + "/missing.db").toStdString()}) {
            try {
                StudyStore::open(path);
                QFAIL(path.c_str());
            } catch (const std::runtime_error& e) {
                const std::string m = e.what();
                QVERIFY2(m.find(path) != std::string::npos && (m.find("not a SchedLab study") != std::string::npos || m.find("no such study") != std::string::npos), e.what());
            }
        }
        try {
            parseStudySpec(R"({"graphs": ["a.json"], "methods": [{"name": "no-such-method"}]})", "s.json");
            QFAIL("an unknown method was accepted");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).find("no-such-method") != std::string::npos, e.what());
        }
    }

    // Every SQLite result but a row or done is an error naming the file (issue 48). Under another
    // connection's write lock, store() throws while reads still see every run (WAL); a read-only
    // open refuses a store; on a file truncated mid-page under an open store, has() throws
    // instead of calling a stored run missing (which would run it again and overwrite it) and
    // runs() throws instead of returning a short list; in every case the original keeps every
    // run. Mutations caught: step() reading any non-row as "done" (has() false, runs() short or
    // empty), a store whose failed insert goes unnoticed.
    void sqliteFailuresAreErrorsAndLoseNoRun() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/s.db").toStdString();
        std::size_t stored = 0;
        {
            StudyStore store = StudyStore::create(path, smallStudy(dir.path()));
            runStudy(store);
            stored = store.runs().size();
        }
        QCOMPARE(stored, std::size_t{18});
        const std::string g = StudyStore::open(path).spec().graphFiles().front();
        const StudyRun extra{.graph = g, .method = "tabu", .seed = 99};
        const auto expectError = [&](const char* what, const std::string& file, const std::function<void()>& call, const char* reason) {
            try {
                call();
                QFAIL(what);
            } catch (const std::runtime_error& e) {
                const std::string m = e.what();
                QVERIFY2(m.find(file) != std::string::npos && m.find(reason) != std::string::npos, e.what());
            }
        };
        {
            StudyStore store = StudyStore::open(path);
            store.setBusyTimeout(20);
            sqlite3* other = nullptr;
            QCOMPARE(sqlite3_open(path.c_str(), &other), SQLITE_OK);
            QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE;", nullptr, nullptr, nullptr), SQLITE_OK);
            expectError("store() under another's write lock", path, [&] { store.store(extra, ""); }, "locked");
            QVERIFY(store.has(g, "tabu", 1));
            QCOMPARE(store.runs().size(), stored);
            sqlite3_exec(other, "ROLLBACK;", nullptr, nullptr, nullptr);
            sqlite3_close(other);
        }
        {
            StudyStore readOnly = StudyStore::open(path, StudyStore::Access::ReadOnly);
            expectError("a store into a read-only database", path, [&] { readOnly.store(extra, ""); }, "readonly");
            QCOMPARE(readOnly.runs().size(), stored);
        }
        const std::string cut = (dir.path() + "/cut.db").toStdString();
        std::filesystem::copy_file(path, cut);
        const auto size = std::filesystem::file_size(cut);
        QVERIFY2(size > 3 * 4096, "the study is too small to cut mid-page");
        {
            StudyStore store = StudyStore::open(cut);
            std::filesystem::resize_file(cut, size / 2 + 1000);   // mid-page: SQLite's pages are 4096 bytes
            expectError("has() on a truncated file", cut, [&] { (void)store.has(g, "tabu", 1); }, "malformed");
            expectError("runs() on a truncated file", cut, [&] { (void)store.runs(); }, "malformed");
            expectError("store() on a truncated file", cut, [&] { store.store(extra, ""); }, "malformed");
        }
        expectError("opening a truncated file", cut, [&] { (void)StudyStore::open(cut); }, "malformed");
        QCOMPARE(StudyStore::open(path).runs().size(), stored);   // the original keeps every run
    }

    // The explorer and `study run` share openOrCreate (issue 48): a database made from another
    // study file is refused naming both, with the words both show; the same file resumes; a
    // stored spec is read without its methods registered. Mutation caught: an openOrCreate that
    // goes on into another study's database (the explorer did).
    void openOrCreateRefusesAnotherStudysDatabase() {
        QTemporaryDir dir;
        StudySpec spec = smallStudy(dir.path());
        const auto write = [&](const QString& name, const StudySpec& s) {
            const QString file = dir.path() + "/" + name;
            std::ofstream(file.toStdString()) << studySpecJson(s);
            return file.toStdString();
        };
        const std::string first = write("a.study.json", spec);
        spec.seeds = {1, 2, 3};
        const std::string second = write("b.study.json", spec);
        const std::string db = (dir.path() + "/a.db").toStdString();
        (void)StudyStore::openOrCreate(db, first);
        QCOMPARE(StudyStore::openOrCreate(db, first).spec().seeds.size(), std::size_t{2});
        try {
            (void)StudyStore::openOrCreate(db, second);
            QFAIL("another study's database was resumed");
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()), db + " holds another study than " + second + " (a new database for a new study)");
        }
        const StudySpec stored = parseStudySpec(R"({"graphs": ["a.json"], "methods": [{"name": "topoformer-not-loaded"}]})", "db",
                                                MethodCheck::AsStored);
        QCOMPARE(unregisteredMethods(stored), std::vector<std::string>{"topoformer-not-loaded"});
    }
};

SCHEDLAB_TEST_MAIN(study, TestStudy)
#include "tst_study.moc"
