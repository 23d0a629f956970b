// SPDX-License-Identifier: MIT
#include "core/util/workerpool.h"

#include <algorithm>
#include <utility>

namespace sl {

WorkerPool::WorkerPool(int threads) {
    const int helpers = std::max(threads, 1) - 1;
    m_threads.reserve(static_cast<size_t>(helpers));
    for (int w = 1; w <= helpers; ++w)
        m_threads.emplace_back([this, w](std::stop_token stop) { loop(stop, w); });
}

WorkerPool::~WorkerPool() {
    for (auto& t : m_threads) t.request_stop();
    m_wake.notify_all();
    // jthreads join here
}

void WorkerPool::work(int worker) {
    for (int i = m_next.fetch_add(1, std::memory_order_relaxed); i < m_count;
         i = m_next.fetch_add(1, std::memory_order_relaxed)) {
        try {
            m_task(i, worker);
        } catch (...) {
            std::lock_guard lock(m_mutex);
            if (!m_error) m_error = std::current_exception();
            m_next.store(m_count, std::memory_order_relaxed);   // skip the rest
        }
    }
}

void WorkerPool::loop(std::stop_token stop, int worker) {
    unsigned seen = 0;
    while (true) {
        {
            std::unique_lock lock(m_mutex);
            if (!m_wake.wait(lock, stop, [&] { return m_generation != seen; })) return;
            seen = m_generation;
        }
        work(worker);
        std::lock_guard lock(m_mutex);
        if (--m_busy == 0) m_done.notify_one();
    }
}

void WorkerPool::runTask(Task task, int count) {
    if (count <= 0) return;
    if (m_threads.empty() || count == 1) {
        for (int i = 0; i < count; ++i) task(i, 0);
        return;
    }
    m_error = nullptr;
    {
        std::lock_guard lock(m_mutex);
        m_task = task;
        m_count = count;
        m_next.store(0, std::memory_order_relaxed);
        m_busy = static_cast<int>(m_threads.size());
        ++m_generation;
    }
    m_wake.notify_all();
    work(0);
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [&] { return m_busy == 0; });
    m_task = {};
    if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
}

} // namespace sl
