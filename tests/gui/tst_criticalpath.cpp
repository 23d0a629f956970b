// SPDX-License-Identifier: MIT
// The critical path the Gantt chart highlights, on hand-checked schedules.
#include "common/testmain.h"
#include "widgets/session/criticalpath.h"

#include <QtTest>

using namespace sl;
using namespace sl::gui;

class TestCriticalPath : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void followsTheChainThatEndsLast() {
        // a(2) -> b(3) -> d(1), c(4) -> d; two devices: d waits for c (ends 4), so the chain is c, d
        auto g = std::make_shared<Graph>();
        const OpId a = g->addOp({.name = "a", .duration = 2});
        const OpId b = g->addOp({.name = "b", .duration = 1});
        const OpId c = g->addOp({.name = "c", .duration = 4});
        const OpId d = g->addOp({.name = "d", .duration = 1});
        g->addEdge(a, b);
        g->addEdge(b, d);
        g->addEdge(c, d);
        g->finalize();
        Problem p;
        p.graph = g;
        p.platform = Platform::identical(2);
        Schedule s;
        s.ops = {{0, 0, 2}, {0, 2, 3}, {1, 0, 4}, {0, 4, 5}};
        s.order = {a, c, b, d};
        s.makespan = 5;
        QCOMPARE(criticalPath(p, s), (std::vector<OpId>{c, d}));
        s.ops[static_cast<size_t>(c)] = {1, 0, 1};   // now c is short: b is late only through a
        s.ops[static_cast<size_t>(d)] = {0, 3, 4};
        s.makespan = 4;
        QCOMPARE(criticalPath(p, s), (std::vector<OpId>{a, b, d}));
    }

};

SCHEDLAB_TEST_MAIN(criticalpath, TestCriticalPath)
#include "tst_criticalpath.moc"
