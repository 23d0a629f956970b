// SPDX-License-Identifier: MIT
// core/util/deadline.h: a stop token that fires at a deadline or with its outer token.
#include "common/testmain.h"
#include "core/util/deadline.h"

#include <QTest>

#include <chrono>
#include <thread>

using namespace sl;
using Clock = std::chrono::steady_clock;

class TestDeadline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Catches a timer that never fires, or fires at once.
    void firesAtTheDeadline() {
        const auto t0 = Clock::now();
        const DeadlineStop d({}, 0.05);
        QVERIFY(!d.token().stop_requested());
        QTRY_VERIFY_WITH_TIMEOUT(d.token().stop_requested(), 5000);
        QVERIFY(Clock::now() - t0 >= std::chrono::milliseconds(45));
    }

    /// Catches an outer stop not forwarded, and 0 s read as "now".
    void forwardsTheOuterStopAndZeroMeansNoDeadline() {
        std::stop_source outer;
        const DeadlineStop d(outer.get_token(), 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        QVERIFY(!d.token().stop_requested());
        outer.request_stop();
        QVERIFY(d.token().stop_requested());
    }

    /// A long deadline does not hold up the end of the work: the destructor wakes the timer.
    void destructorDoesNotWaitForTheDeadline() {
        const auto t0 = Clock::now();
        { const DeadlineStop d({}, 1000); }
        QVERIFY(Clock::now() - t0 < std::chrono::seconds(1));
    }
};

SCHEDLAB_TEST_MAIN(deadline, TestDeadline)
#include "tst_deadline.moc"
