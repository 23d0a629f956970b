// SPDX-License-Identifier: MIT
// Durations as the CLI's summary lines print them (core/graph/durationtext.h), by hand: each scale
// of a timed graph, a rounding that crosses into the next scale, abstract units, the exact read-out.
#include "common/testmain.h"
#include "core/graph/durationtext.h"

#include <QTest>

#include <limits>

using namespace sl;

class TestDurationText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Catches a missing scale, an exponent, trailing zeros, or seconds taken for microseconds.
    void scaledByMagnitude() {
        QCOMPARE(formatDuration(318, TimeUnit::Microseconds), std::string("318 µs"));
        QCOMPARE(formatDuration(2381.05997015, TimeUnit::Microseconds), std::string("2.381 ms"));
        QCOMPARE(formatDuration(1.25e6, TimeUnit::Microseconds), std::string("1.25 s"));
        QCOMPARE(formatDuration(1.25, TimeUnit::Seconds), std::string("1.25 s"));
        QCOMPARE(formatDuration(0.0005, TimeUnit::Seconds), std::string("500 µs"));
        QCOMPARE(formatDuration(0, TimeUnit::Microseconds), std::string("0 µs"));
        QCOMPARE(formatDuration(4.5, TimeUnit::Microseconds), std::string("4.5 µs"));
        QCOMPARE(formatDuration(7200, TimeUnit::Seconds), std::string("7200 s"));
    }

    /// 999.96 µs rounds to four digits as 1,000 µs: it reads 1 ms. Catches the scale chosen before rounding.
    void roundingCrossesIntoTheNextScale() {
        QCOMPARE(formatDuration(999.96, TimeUnit::Microseconds), std::string("1 ms"));
        QCOMPARE(formatDuration(999.94, TimeUnit::Microseconds), std::string("999.9 µs"));
    }

    /// Abstract units are never scaled and keep six significant digits.
    void abstractUnits() {
        QCOMPARE(formatDuration(1116.01, TimeUnit::Abstract), std::string("1116.01 units"));
        QCOMPARE(formatDuration(61, TimeUnit::Abstract), std::string("61 units"));
        QCOMPARE(formatDuration(12345678, TimeUnit::Abstract), std::string("12345678 units"));
        QCOMPARE(formatDuration(0.1234567, TimeUnit::Abstract), std::string("0.123457 units"));
    }

    /// The exact read-out keeps twelve digits in the graph's own unit, after the scaled one when
    /// that rounds; infinities and NaN are named.
    void exactBesideScaled() {
        QCOMPARE(formatDurationWithExact(2381.05997015, TimeUnit::Microseconds),
                 std::string("2.381 ms (2381.05997015 µs)"));
        QCOMPARE(formatDurationWithExact(318, TimeUnit::Microseconds), std::string("318 µs"));
        QCOMPARE(formatExactWithScaled(2381.05997015, TimeUnit::Microseconds),
                 std::string("2381.05997015 µs (2.381 ms)"));
        QCOMPARE(formatExactWithScaled(61, TimeUnit::Abstract), std::string("61 units"));
        QCOMPARE(formatDurationWithExact(1116.012345, TimeUnit::Abstract), std::string("1116.012345 units"));
        QCOMPARE(formatDurationExact(1e-7, TimeUnit::Abstract), std::string("0.0000001 units"));
        QCOMPARE(formatDuration(std::numeric_limits<double>::infinity(), TimeUnit::Microseconds), std::string("inf"));
    }
};

SCHEDLAB_TEST_MAIN(durationtext, TestDurationText)
#include "tst_durationtext.moc"
