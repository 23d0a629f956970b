// SPDX-License-Identifier: MIT
// widgets/units: hand-checked strings for each unit and magnitude.
#include "common/testmain.h"
#include "widgets/session/units.h"

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

    /// A hand edit's read-out, exact: a 3-unit move on a 1,491-unit makespan (issue 48) must show
    /// both numbers and the 3 units. Catches: the old 3-significant-digit format ("1.49 k units" on
    /// both sides of the arrow), a change given only in per cent, a per cent rounded to "+0.0 %",
    /// "-" for "−", trailing zeros chopped from an integer ("1,234,57"), a change shown as two
    /// equal values instead of "(unchanged)".
    void exactChanges_data() {
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<int>("unit");
        QTest::addColumn<QString>("text");
        const int us = static_cast<int>(TimeUnit::Microseconds), s = static_cast<int>(TimeUnit::Seconds),
                  units = static_cast<int>(TimeUnit::Abstract);
        QTest::newRow("3 units on 1,491") << 1491.0 << 1494.0 << units << QStringLiteral("1,491 units → 1,494 units (+3 units, +0.2 %)");
        QTest::newRow("decrease") << 1494.0 << 1491.0 << units << QStringLiteral("1,494 units → 1,491 units (−3 units, −0.2 %)");
        QTest::newRow("zero change") << 1491.0 << 1491.0 << units << QStringLiteral("1,491 units (unchanged)");
        QTest::newRow("ms, to the µs") << 12345.6 << 12348.6 << us << QStringLiteral("12.346 ms → 12.349 ms (+3 µs, +0.024 %)");
        QTest::newRow("millions") << 1234567.0 << 1234570.0 << units
                                  << QStringLiteral("1,234,567 units → 1,234,570 units (+3 units, +0.00024 %)");
        QTest::newRow("seconds graph, ms") << 0.054023 << 0.054026 << s << QStringLiteral("54.023 ms → 54.026 ms (+3 µs, +0.0056 %)");
        QTest::newRow("ft06 edit") << 61.0 << 58.0 << units << QStringLiteral("61 units → 58 units (−3 units, −4.9 %)");
        QTest::newRow("from zero") << 0.0 << 3.0 << units << QStringLiteral("0 units → 3 units (+3 units)");
    }
    void exactChanges() {
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(int, unit);
        QFETCH(QString, text);
        QCOMPARE(formatDurationChange(from, to, static_cast<TimeUnit>(unit)), text);
    }

    /// To the unit or five significant digits, whichever is finer. Catches: abstract units scaled to
    /// "k units" / "M units", µs lost when read in s, min and h (no decimal fraction of a µs),
    /// padding zeros ("1,491.0 units").
    void exactDurations_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("unit");
        QTest::addColumn<QString>("text");
        const int us = static_cast<int>(TimeUnit::Microseconds), s = static_cast<int>(TimeUnit::Seconds),
                  units = static_cast<int>(TimeUnit::Abstract);
        QTest::newRow("Taillard") << 1491.0 << units << QStringLiteral("1,491 units");
        QTest::newRow("millions of units") << 1234567.0 << units << QStringLiteral("1,234,567 units");
        QTest::newRow("half unit") << 1491.5 << units << QStringLiteral("1,491.5 units");
        QTest::newRow("ms") << 12345.6 << us << QStringLiteral("12.346 ms");
        QTest::newRow("s, to the µs") << 1234567.0 << us << QStringLiteral("1.234567 s");
        QTest::newRow("minutes read in s") << 19.85e7 << us << QStringLiteral("198.5 s");
        QTest::newRow("hours read in s") << 7200.0 << s << QStringLiteral("7,200 s");
        QTest::newRow("zero") << 0.0 << units << QStringLiteral("0 units");
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << us << QStringLiteral("∞");
    }
    void exactDurations() {
        QFETCH(double, value);
        QFETCH(int, unit);
        QFETCH(QString, text);
        QCOMPARE(formatDurationExact(value, static_cast<TimeUnit>(unit)), text);
    }

    /// The step clock's read-out: bytes to the byte. Catches: the IEC one-decimal format ("1.0 MiB"
    /// on both sides), a missing byte difference.
    void exactBytes() {
        QCOMPARE(formatBytesExact(1234567), QStringLiteral("1,234,567 B"));
        QCOMPARE(formatBytesChange(1048576, 1048832), QStringLiteral("1,048,576 B → 1,048,832 B (+256 B, +0.024 %)"));
        QCOMPARE(formatBytesChange(1048576, 1048576), QStringLiteral("1,048,576 B (unchanged)"));
    }

    void counts() {
        QCOMPARE(formatCount(1234567), QStringLiteral("1,234,567"));
        QCOMPARE(formatCount(-42), QStringLiteral("-42"));
    }
};

SCHEDLAB_TEST_MAIN(units, TestUnits)
#include "tst_units.moc"
