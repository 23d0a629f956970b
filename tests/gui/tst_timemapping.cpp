// SPDX-License-Identifier: MIT
// The Gantt chart's time <-> pixel math and its axis ticks.
#include "common/testmain.h"
#include "widgets/session/timemapping.h"

#include <QtTest>

using namespace sl::gui;

class TestTimeMapping : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mapsAndZoomsAroundTheMouse_data() {
        QTest::addColumn<double>("t0");
        QTest::addColumn<double>("t1");
        QTest::addColumn<double>("width");
        QTest::addRow("unit range, 100 px") << 0.0 << 1.0 << 100.0;
        QTest::addRow("offset range, 800 px") << 50.0 << 250.0 << 800.0;
    }
    void mapsAndZoomsAroundTheMouse() {
        QFETCH(double, t0);
        QFETCH(double, t1);
        QFETCH(double, width);
        TimeMapping m{t0, t1, 10, width};
        QCOMPARE(m.toX(t0), 10.0);
        QCOMPARE(m.toX(t1), 10.0 + width);
        QCOMPARE(m.toTime(m.toX((t0 + t1) / 2)), (t0 + t1) / 2);
        const double anchorX = 10 + width / 3;
        const double before = m.toTime(anchorX);
        m.zoomAt(anchorX, 2.0);
        QVERIFY(std::abs(m.toTime(anchorX) - before) < 1e-9 * (t1 - t0));
        QCOMPARE(m.t1 - m.t0, (t1 - t0) / 2);
        const auto ticks = sl::gui::niceTicks(0, 57, 8);
        QVERIFY(!ticks.empty() && ticks.size() <= 9);
        QCOMPARE(ticks.front(), 0.0);
    }

    void niceTicksAreRoundAndInside_data() {
        QTest::addColumn<double>("t0");
        QTest::addColumn<double>("t1");
        QTest::addColumn<double>("step");
        QTest::addRow("ft06 makespan") << 0.0 << 57.0 << 10.0;
        QTest::addRow("large times") << 0.0 << 9297.0 << 2000.0;
        QTest::addRow("offset window") << 3.3 << 4.1 << 0.1;
    }
    void niceTicksAreRoundAndInside() {
        QFETCH(double, t0);
        QFETCH(double, t1);
        QFETCH(double, step);
        const auto ticks = sl::gui::niceTicks(t0, t1, 8);
        QVERIFY(ticks.size() >= 2);
        QVERIFY(std::abs((ticks[1] - ticks[0]) - step) < 1e-9 * step);
        QVERIFY(ticks.front() >= t0 - 1e-9 && ticks.back() <= t1 + 1e-9);
    }
};

SCHEDLAB_TEST_MAIN(timemapping, TestTimeMapping)
#include "tst_timemapping.moc"
