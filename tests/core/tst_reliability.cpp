// SPDX-License-Identifier: MIT
// Hostile inputs and outputs (docs/reliability.md): the limits in one place, the DOT pre-scan,
// cgraph's recursion on a huge fan-out, the atomic writer on links, devices and folders, and
// OutputSet's all-or-nothing commit.
#include "common/testmain.h"
#include "core/graph/graph.h"
#include "core/heuristics/heft.h"
#include "core/io/graphio.h"
#include "core/util/atomicfile.h"
#include "core/util/limits.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

#include <pthread.h>

using namespace sl;

namespace {

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

bool contains(const std::string& text, const char* needle) {
    return text.find(needle) != std::string::npos;
}

/// Runs `f` on a thread with a small stack: deep recursion crashes there, as it would on a big
/// graph with the default stack.
void onSmallStack(std::function<void()> f) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 512 * 1024);
    pthread_t thread;
    auto* job = new std::function<void()>(std::move(f));
    pthread_create(&thread, &attr, [](void* p) -> void* {
        auto* fn = static_cast<std::function<void()>*>(p);
        (*fn)();
        delete fn;
        return nullptr;
    }, job);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

class TestReliability : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return QDir(m_dir.path()).filePath(QString::fromLatin1(name)).toStdString(); }

private Q_SLOTS:
    void cleanup() { setLimits(Limits{}); }

    void limitsParseAndDescribe() {
        const Limits l = parseLimits("ops=100, duration=2.5e3,devices=8", Limits{});
        QCOMPARE(l.ops, std::int64_t(100));
        QCOMPARE(l.duration, 2500.0);
        QCOMPARE(l.devices, std::int64_t(8));
        QCOMPARE(l.edges, Limits{}.edges);   // untouched
        QVERIFY(contains(errorOf([] { parseLimits("opz=1", Limits{}); }), "unknown limit 'opz'"));
        QVERIFY(contains(errorOf([] { parseLimits("ops=1.5", Limits{}); }), "whole number"));
        QVERIFY(contains(errorOf([] { parseLimits("ops=-3", Limits{}); }), "positive"));
        QVERIFY(contains(errorOf([] { parseLimits("ops", Limits{}); }), "KEY=VALUE"));
        const auto lines = describeLimits(Limits{});
        QCOMPARE(lines.front(), std::string("ops = 5000000  (ops in one graph)"));
    }

    /// 1e308 durations once crashed heft (its best device stayed -1); now finalize() refuses them
    /// naming the op and the knob, and the sum of durations is bounded too.
    void durationsAboveTheLimit() {
        const std::string huge = errorOf([] {
            Graph g;
            g.addOp({.name = "a", .duration = 1e308});
            g.finalize();
        });
        QVERIFY2(contains(huge, "op 'a'") && contains(huge, "--limit duration="), huge.c_str());
        const std::string total = errorOf([] {
            Graph g;
            for (int i = 0; i < 2000; ++i) g.addOp({.name = "n" + std::to_string(i), .duration = 9e14});
            g.finalize();
        });
        QVERIFY2(contains(total, "durations total") && contains(total, "total-duration"), total.c_str());
        setLimits(parseLimits("duration=1e300,total-duration=1e300", Limits{}));   // the knob works
        Graph g;
        g.addOp({.name = "a", .duration = 1e299});
        g.finalize();
    }

    /// Native JSON once accepted tensors of 1e20 bytes while ONNX and HLO refused more than 1 TiB.
    void tensorBytesAboveTheLimit() {
        const std::string e = errorOf([] {
            parseGraph(R"({"ops": [{"name": "a", "duration": 1}, {"name": "b", "duration": 1}],
                          "tensors": [{"name": "t", "producer": "a", "consumers": ["b"], "bytes": 1e20}]})",
                       GraphFormat::Json, "big.json");
        });
        QVERIFY2(contains(e, "big.json") && contains(e, "tensor 't'") && contains(e, "tensor-bytes"), e.c_str());
    }

    void machineTypeBeyondTheDeviceLimit() {
        const std::string e = errorOf([] {
            parseGraph(R"({"ops": [{"name": "a", "duration": 1, "machine_type": 100000}]})", GraphFormat::Json, "typed.json");
        });
        QVERIFY2(contains(e, "machine type 100000") && contains(e, "devices"), e.c_str());
    }

    /// A job-shop file of 1 job x 100,000 machines once made 100,000 devices.
    void jobShopMachinesCapped() {
        std::string text = "1 100000\n";
        for (int m = 0; m < 100000; ++m) text += std::to_string(m) + " 1 ";
        const std::string e = errorOf([&] { parseGraph(text, GraphFormat::JobShop, "wide.jss"); });
        QVERIFY2(contains(e, "wide.jss") && contains(e, "100000 machines"), e.c_str());
    }

    /// cgraph's agnedges recursed once per out-edge of one node: 1M edges overflowed the stack.
    /// 60,000 out-edges on a 512 KiB stack fail the same way; the reader counts while it walks.
    void dotHugeFanOutDoesNotRecurse() {
        std::string text = "digraph G {\n";
        for (int i = 0; i < 60000; ++i) text += "a -> b" + std::to_string(i) + ";\n";
        text += "}\n";
        int ops = 0;
        onSmallStack([&] { ops = parseGraph(text, GraphFormat::Dot, "fan.dot").graph->opCount(); });
        QCOMPARE(ops, 60001);
    }

    /// A long a -> b -> ... chain and a long quoted string are refused before cgraph sees them
    /// (it took 23 s and 2.6 GB, or minutes, before), with the line and the limit named.
    void dotPrescanRefusesFast() {
        std::string chain = "digraph G {\n n0";
        for (int i = 1; i <= 200000; ++i) chain += " -> n" + std::to_string(i);
        chain += "\n}\n";
        QElapsedTimer clock;
        clock.start();
        const std::string e = errorOf([&] { parseGraph(chain, GraphFormat::Dot, "chain.dot"); });
        QVERIFY2(contains(e, "chain.dot:2:") && contains(e, "edge-chain"), e.c_str());
        const std::string text = "digraph G {\n a [label=\"" + std::string(20'000'000, 'x') + "\"];\n a -> b;\n}\n";
        const std::string s = errorOf([&] { parseGraph(text, GraphFormat::Dot, "long.dot"); });
        QVERIFY2(contains(s, "long.dot:2:") && contains(s, "token-bytes"), s.c_str());
        QVERIFY2(clock.elapsed() < 5000, "the pre-scan is linear: both refusals take milliseconds");
        // chains through ports, attribute lists and comments of ordinary files still read
        const auto ok = parseGraph("digraph G { a:s -> b:n -> c [bytes=4]; /* x -> y -> z */ d -> e }", GraphFormat::Dot, "ok.dot");
        QCOMPARE(ok.graph->opCount(), 5);
    }

    void heftWithHugeButAllowedDurations() {
        Graph g;
        const OpId a = g.addOp({.name = "a", .duration = 1e15});
        const OpId b = g.addOp({.name = "b", .duration = 1e15});
        g.addEdge(a, b, 8);
        g.finalize();
        Problem p;
        p.graph = std::make_shared<Graph>(g);
        p.platform = Platform::identical(2);
        p.platform.link.bandwidth = 1e-300;   // any transfer takes forever: both ops stay together
        const Schedule s = heftSchedule(p);
        QCOMPARE(s.makespan, 2e15);
    }

    void writerFollowsLinksAndStreams() {
        namespace fs = std::filesystem;
        const std::string real = path("real.json"), link = path("link.json");
        writeFileAtomically(real, "old");
        fs::create_symlink(real, link);
        writeFileAtomically(link, "new");
        QVERIFY(fs::is_symlink(link));   // the link stays, the file behind it changes
        QCOMPARE(slurp(real), std::string("new"));
        const std::string dangling = path("dangling.json"), behind = path("behind.json");
        fs::create_symlink(behind, dangling);
        writeFileAtomically(dangling, "made");
        QVERIFY(fs::is_symlink(dangling));
        QCOMPARE(slurp(behind), std::string("made"));
        writeFileAtomically("/dev/null", "into the void");   // a device is written in place
        QVERIFY(fs::is_character_file("/dev/null"));
        QVERIFY(contains(errorOf([] { writeFileAtomically("/dev/full", "x"); }), "No space left"));
        QVERIFY(contains(errorOf([&] { writeFileAtomically(m_dir.path().toStdString(), "x"); }), "is a folder"));
    }

    /// --out written, then --trace failing, once left a new --out behind.
    void outputSetIsAllOrNothing() {
        const std::string a = path("a.json"), b = path("b.csv");
        writeFileAtomically(a, "previous");
        OutputSet failing;
        failing.add(a, "replacement");
        failing.add(path("no-such-folder/b.csv"), "x");
        QVERIFY(contains(errorOf([&] { failing.commit(); }), "no-such-folder"));
        QCOMPARE(slurp(a), std::string("previous"));
        OutputSet full;
        full.add(a, "replacement");
        full.add("/dev/full", "x");
        QVERIFY(contains(errorOf([&] { full.commit(); }), "/dev/full"));
        QCOMPARE(slurp(a), std::string("previous"));
        for (const auto& entry : std::filesystem::directory_iterator(m_dir.path().toStdString()))
            QVERIFY2(entry.path().string().find(".tmp") == std::string::npos, "a temporary was left behind");
        OutputSet good;
        good.add(a, "one");
        good.add(b, "two");
        good.commit();
        QCOMPARE(slurp(a), std::string("one"));
        QCOMPARE(slurp(b), std::string("two"));
    }
};

SCHEDLAB_TEST_MAIN(reliability, TestReliability)
#include "tst_reliability.moc"
