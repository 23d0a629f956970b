// SPDX-License-Identifier: MIT
// widgets/units: hand-checked strings for each unit and magnitude.
#include "widgets/units.h"

#include <QTest>

#include <limits>

using namespace sl;
using namespace sl::gui;

class TestUnits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void durations_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("unit");
        QTest::addColumn<QString>("text");
        const int us = static_cast<int>(TimeUnit::Microseconds), s = static_cast<int>(TimeUnit::Seconds),
                  units = static_cast<int>(TimeUnit::Abstract);
        QTest::newRow("us small") << 12.345 << us << QStringLiteral("12.3 µs");
        QTest::newRow("us to ms") << 12345.0 << us << QStringLiteral("12.3 ms");
        QTest::newRow("us to s") << 4.5e6 << us << QStringLiteral("4.50 s");
        QTest::newRow("us to min") << 19.85e7 << us << QStringLiteral("3.31 min");
        QTest::newRow("us zero") << 0.0 << us << QStringLiteral("0 µs");
        QTest::newRow("s subsecond") << 0.054023 << s << QStringLiteral("54.0 ms");
        QTest::newRow("s") << 42.0 << s << QStringLiteral("42.0 s");
        QTest::newRow("s to h") << 7200.0 << s << QStringLiteral("2.00 h");
        QTest::newRow("s zero") << 0.0 << s << QStringLiteral("0 s");
        QTest::newRow("units") << 55.0 << units << QStringLiteral("55.0 units");
        QTest::newRow("units M") << 1.985e7 << units << QStringLiteral("19.9 M units");
        QTest::newRow("units k") << 1234.0 << units << QStringLiteral("1.23 k units");
        QTest::newRow("units tiny") << 0.0004 << units << QStringLiteral("<0.001 units");
        QTest::newRow("huge") << 4e18 << units << QStringLiteral("4,000,000 T units");
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << us << QStringLiteral("∞");
    }
    void durations() {
        QFETCH(double, value);
        QFETCH(int, unit);
        QFETCH(QString, text);
        QCOMPARE(formatDuration(value, static_cast<TimeUnit>(unit)), text);
    }

    /// One scale for a whole axis: ticks of a 0..20 ms axis read in ms, even 0 and 500 us.
    void axisScale() {
        const TimeScale ms = timeScaleFor(20000, TimeUnit::Microseconds);
        QCOMPARE(ms.suffix, QStringLiteral("ms"));
        QCOMPARE(formatScaled(500, ms), QStringLiteral("0.500 ms"));
        QCOMPARE(formatScaled(0, ms), QStringLiteral("0 ms"));
    }

    /// Tick labels share their axis' scale and carry only the decimals the step needs.
    void ticks_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("step");
        QTest::addColumn<double>("axisEnd");
        QTest::addColumn<QString>("text");
        QTest::newRow("5 ms steps") << 10000.0 << 5000.0 << 20400.0 << QStringLiteral("10 ms");
        QTest::newRow("zero tick") << 0.0 << 5000.0 << 20400.0 << QStringLiteral("0 ms");
        QTest::newRow("half ms steps") << 1500.0 << 500.0 << 2040.0 << QStringLiteral("1.5 ms");
        QTest::newRow("0.2 ms steps") << 400.0 << 200.0 << 2040.0 << QStringLiteral("0.4 ms");
        QTest::newRow("zoomed at 10 s") << 10000200.0 << 100.0 << 10001000.0 << QStringLiteral("10.0002 s");
        QTest::newRow("k units") << 200000.0 << 100000.0 << 547000.0 << QStringLiteral("200 k units");
    }
    void ticks() {
        QFETCH(double, value);
        QFETCH(double, step);
        QFETCH(double, axisEnd);
        QFETCH(QString, text);
        const TimeUnit unit = text.endsWith(QLatin1String("units")) ? TimeUnit::Abstract : TimeUnit::Microseconds;
        QCOMPARE(formatTick(value, timeScaleFor(axisEnd, unit), step), text);
    }

    void bytesAndPlainNumbers() {
        QCOMPARE(byteScaleFor(9.2e6).suffix, QStringLiteral("MiB"));   // the memory axis that read 9.2e+06
        QCOMPARE(formatTick(8 * 1024.0 * 1024, byteScaleFor(9.2e6), 2 * 1024.0 * 1024), QStringLiteral("8 MiB"));
        QCOMPARE(byteScaleFor(512).suffix, QStringLiteral("B"));
        QCOMPARE(formatPlain(0.734), QStringLiteral("0.734"));
        QCOMPARE(formatPlain(1234.5), QStringLiteral("1,235"));
        QCOMPARE(formatPlain(1.985e7), QStringLiteral("19.9 M"));
        QCOMPARE(tickDecimals(0.5, {1, {}}), 1);
        QCOMPARE(tickDecimals(0.05, {1, {}}), 2);
    }

    void exactValues() {
        QCOMPARE(formatExact(10625.2, TimeUnit::Microseconds), QStringLiteral("10,625.200 µs"));
        QCOMPARE(formatExact(55, TimeUnit::Abstract), QStringLiteral("55.000 units"));
        QCOMPARE(formatExact(0.5, TimeUnit::Seconds), QStringLiteral("0.500 s"));
    }

    void counts() {
        QCOMPARE(formatCount(1234567), QStringLiteral("1,234,567"));
        QCOMPARE(formatCount(-42), QStringLiteral("-42"));
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
