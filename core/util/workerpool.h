// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A tiny fork-join pool: decode a BRKGA generation, score a batch of samples.
///
/// run(count, fn) calls fn(item, worker) once for every item in [0, count) and returns when all are
/// done. The calling thread is worker 0; threads-1 std::jthreads are workers 1..threads-1. Items are
/// claimed one at a time from an atomic counter, so which worker handles which item varies from
/// run to run: fn must make its result depend on `item` only (per-item random streams, one
/// workspace per worker). The first exception thrown by fn is rethrown by run() once every
/// worker has stopped (the remaining items are skipped). run() is not re-entrant. It does not
/// allocate: fn is referenced, not copied, so it only has to live until run() returns.

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace sl {

class WorkerPool {
public:
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int threads() const { return static_cast<int>(m_threads.size()) + 1; }

    /// `fn` is any callable as `void(int item, int worker)`.
    template <typename Fn>
    void run(int count, Fn&& fn) {
        using F = std::remove_reference_t<Fn>;
        runTask({const_cast<void*>(static_cast<const void*>(std::addressof(fn))),
                 [](void* f, int item, int worker) { (*static_cast<F*>(f))(item, worker); }},
                count);
    }

private:
    /// A borrowed callable without std::function's copy (and heap allocation) per run().
    struct Task {
        void* fn = nullptr;
        void (*call)(void* fn, int item, int worker) = nullptr;
        void operator()(int item, int worker) const { call(fn, item, worker); }
    };
    void runTask(Task task, int count);
    void work(int worker);
    void loop(std::stop_token stop, int worker);

    std::vector<std::jthread> m_threads;
    std::mutex m_mutex;
    std::condition_variable_any m_wake;
    std::condition_variable m_done;
    Task m_task;
    int m_count = 0;
    unsigned m_generation = 0;   ///< bumped per run(); workers wait for a new value
    int m_busy = 0;              ///< helper threads still inside the current run
    std::atomic<int> m_next{0};
    std::exception_ptr m_error;   ///< first failure of the current run
};

} // namespace sl
