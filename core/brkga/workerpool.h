// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A tiny fork-join pool for decoding one BRKGA generation in parallel.
///
/// run(count, fn) calls fn(item, worker) once for every item in [0, count) and returns when all are
/// done. The calling thread is worker 0; threads-1 std::jthreads are workers 1..threads-1. Items are
/// claimed one at a time from an atomic counter, so which worker decodes which item varies from
/// run to run: fn must make its result depend on `item` only (per-item random streams, one
/// workspace per worker). The first exception thrown by fn is rethrown by run() once every
/// worker has stopped (the remaining items are skipped). run() is not re-entrant.

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sl::brkga {

class WorkerPool {
public:
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int threads() const { return static_cast<int>(m_threads.size()) + 1; }
    void run(int count, const std::function<void(int item, int worker)>& fn);

private:
    void work(int worker);
    void loop(std::stop_token stop, int worker);

    std::vector<std::jthread> m_threads;
    std::mutex m_mutex;
    std::condition_variable_any m_wake;
    std::condition_variable m_done;
    const std::function<void(int, int)>* m_fn = nullptr;
    int m_count = 0;
    unsigned m_generation = 0;   ///< bumped per run(); workers wait for a new value
    int m_busy = 0;              ///< helper threads still inside the current run
    std::atomic<int> m_next{0};
    std::exception_ptr m_error;   ///< first failure of the current run
};

} // namespace sl::brkga
