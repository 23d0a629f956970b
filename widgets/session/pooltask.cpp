// SPDX-License-Identifier: MIT
#include "widgets/session/pooltask.h"

#include <QCoreApplication>
#include <QRunnable>
#include <QThread>
#include <QThreadPool>

#include <utility>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

#if defined(__SANITIZE_THREAD__)
#define SCHEDLAB_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SCHEDLAB_TSAN 1
#endif
#endif

#ifdef SCHEDLAB_TSAN
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace sl::gui {

namespace {

// What this thread wrote before is visible to the thread that acquires `p` next.
void releaseTo(const void* p) {
#ifdef SCHEDLAB_TSAN
    __tsan_release(const_cast<void*>(p));
#else
    (void)p;
#endif
}
void acquireFrom(const void* p) {
#ifdef SCHEDLAB_TSAN
    __tsan_acquire(const_cast<void*>(p));
#else
    (void)p;
#endif
}

/// A finished task's delivery, made on the GUI thread before the work starts (so the pool thread
/// allocates and constructs nothing the GUI thread reads unannounced) and posted when it ends.
class Delivery : public QEvent {
public:
    static QEvent::Type type() {
        static const auto t = static_cast<QEvent::Type>(QEvent::registerEventType());
        return t;
    }
    explicit Delivery(std::function<void()> deliver) : QEvent(type()), m_deliver(std::move(deliver)) {}
    void run() {
        acquireFrom(this);
        m_deliver();
    }

private:
    std::function<void()> m_deliver;
};

/// Receives every Delivery on the GUI thread. Never deleted: a pool thread that finishes during
/// shutdown still posts to a live object (Qt drops the event with the thread's event queue).
class Dispatcher : public QObject {
public:
    static Dispatcher* instance() {
        static Dispatcher* d = new Dispatcher;
        return d;
    }
    bool event(QEvent* e) override {
        if (e->type() != Delivery::type()) return QObject::event(e);
        static_cast<Delivery*>(e)->run();
        return true;
    }
};

/// Pool threads (and the threads their work starts, which inherit it) run at nice 10, once per
/// thread: on two cores a sampler or a run would otherwise take the GUI thread's turn, and a zoom
/// step right after opening a graph waited 60-80 ms behind the Temperature dock's sampling. Alone
/// on the machine they run as fast as before.
void yieldToTheGuiThread() {
#ifdef __linux__
    thread_local const bool lowered = setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10) == 0;
    (void)lowered;
#endif
}

class PoolTask : public QRunnable {
public:
    PoolTask(std::function<void()> work, Delivery* delivery, std::shared_ptr<TaskState> state)
        : m_work(std::move(work)), m_delivery(delivery), m_state(std::move(state)) {}
    /// A task dropped unrun (a cleared pool) still frees its delivery and wakes whoever waits.
    ~PoolTask() override {
        delete m_delivery;
        m_state->markDone();
    }
    void run() override {
        acquireFrom(this);
        yieldToTheGuiThread();
        m_work();
        m_work = nullptr;   // its captures die here, before anyone is told the work is over
        if (m_delivery) {
            releaseTo(m_delivery);
            QCoreApplication::postEvent(Dispatcher::instance(), std::exchange(m_delivery, nullptr));
        }
        m_state->markDone();
    }

private:
    std::function<void()> m_work;
    Delivery* m_delivery;   // owned by the event queue once posted (then null here)
    std::shared_ptr<TaskState> m_state;
};

}   // namespace

bool TaskState::isRunning() const {
    std::lock_guard lock(m_mutex);
    return !m_done;
}

void TaskState::wait() const {
    std::unique_lock lock(m_mutex);
    m_doneChanged.wait(lock, [this] { return m_done; });
}

void TaskState::markDone() {
    {
        std::lock_guard lock(m_mutex);
        m_done = true;
    }
    m_doneChanged.notify_all();
}

namespace detail {

std::shared_ptr<TaskState> startTask(QThreadPool& pool, std::function<void()> work, std::function<void()> deliver) {
    if (deliver) {   // the dispatcher is made here, on the GUI thread, on first use
        [[maybe_unused]] const Dispatcher* dispatcher = Dispatcher::instance();
        Q_ASSERT(QThread::currentThread() == dispatcher->thread());
    }
    auto state = std::make_shared<TaskState>();
    auto* task = new PoolTask(std::move(work), deliver ? new Delivery(std::move(deliver)) : nullptr, state);
    task->setAutoDelete(true);
    releaseTo(task);
    pool.start(task);
    return state;
}

}   // namespace detail

std::shared_ptr<TaskState> runDetached(QThreadPool& pool, std::function<void()> work) {
    return detail::startTask(pool, std::move(work), {});
}

}   // namespace sl::gui
