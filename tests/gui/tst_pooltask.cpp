// SPDX-License-Identifier: MIT
// widgets/session/pooltask.h: work on a pool thread, its outcome on the GUI thread from the event loop,
// never for a context that is gone; exceptions become the outcome's error.
#include "common/testmain.h"
#include "widgets/session/pooltask.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <stdexcept>

using namespace sl::gui;

class TestPoolTask : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Catches a delivery made on the pool thread, or inside runOnPool itself.
    void deliversOnTheGuiThreadFromTheEventLoop() {
        QThreadPool pool;
        QObject context;
        QThread* worker = nullptr;
        QThread* deliveredOn = nullptr;
        int value = 0;
        auto state = runOnPool(
            pool, &context, [&worker] { worker = QThread::currentThread(); return 42; },
            [&](Outcome<int> o) { deliveredOn = QThread::currentThread(), value = o.value.value_or(-1); });
        state->wait();
        QVERIFY(!state->isRunning());
        QCOMPARE(value, 0);   // not yet: only the event loop delivers
        QTRY_COMPARE(value, 42);
        QCOMPARE(deliveredOn, QThread::currentThread());
        QVERIFY(worker != QThread::currentThread());
    }

    /// Catches an exception escaping the pool thread (std::terminate) or a lost message.
    void anExceptionBecomesTheError() {
        QThreadPool pool;
        QObject context;
        QString error;
        bool hasValue = true;
        runOnPool(pool, &context, []() -> int { throw std::runtime_error("no such file"); },
                  [&](Outcome<int> o) { error = o.error, hasValue = o.value.has_value(); });
        QTRY_COMPARE(error, QStringLiteral("no such file"));
        QVERIFY(!hasValue);
    }

    /// Catches a delivery to a deleted context (a use after free in the views).
    void noDeliveryOnceTheContextIsGone() {
        QThreadPool pool;
        auto* context = new QObject;
        std::atomic<bool> release{false};
        bool delivered = false;
        auto state = runOnPool(pool, context, [&] { while (!release) QThread::msleep(1); return 1; },
                               [&](Outcome<int>) { delivered = true; });
        delete context;
        release = true;
        state->wait();
        QCoreApplication::processEvents();
        QTest::qWait(20);
        QVERIFY(!delivered);
    }

    /// runDetached: the work runs, and wait() returns once it has.
    void detachedWorkCanBeAwaited() {
        QThreadPool pool;
        std::atomic<int> runs{0};
        auto a = runDetached(pool, [&] { QThread::msleep(20), ++runs; });
        auto b = runDetached(pool, [&] { ++runs; });
        a->wait();
        b->wait();
        QCOMPARE(runs.load(), 2);
    }
};

SCHEDLAB_TEST_MAIN(pooltask, TestPoolTask)
#include "tst_pooltask.moc"
