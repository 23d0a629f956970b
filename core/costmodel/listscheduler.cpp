// SPDX-License-Identifier: MIT
#include "core/costmodel/listscheduler.h"

#include "core/costmodel/memorytimeline.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

namespace {

struct ByKey {
    template <typename E>
    bool operator()(const E& a, const E& b) const {   // max-heap: higher key, then smaller id, on top
        return a.key < b.key || (a.key == b.key && a.op > b.op);
    }
};

struct ByTime {
    template <typename E>
    bool operator()(const E& a, const E& b) const { return a.time > b.time; }   // min-heap
};

} // namespace

ListScheduler::ListScheduler(const Problem& problem)
    : m_problem(problem), m_graph(*problem.graph) {
    problem.check();
    m_devicesOfType = problem.platform.devicesByType();
    m_freeTransfers = problem.platform.link.free();
    const auto n = static_cast<size_t>(m_graph.opCount());
    m_pending.resize(n);
    m_start.resize(n);
    m_end.resize(n);
    m_device.resize(n);
    m_freeCapacity.resize(problem.platform.devices.size());
    m_ready.resize(m_devicesOfType.size());
    for (auto& r : m_ready) r.reserve(n);
    m_skipped.reserve(n);
    m_order.reserve(n);
    m_events.reserve(2 * n + 8);
}

double ListScheduler::dataReady(OpId v, int d) const {
    double r = 0;
    for (TensorId t : m_graph.inputs(v)) {
        const Tensor& x = m_graph.tensor(t);
        const auto p = static_cast<size_t>(x.producer);
        double arrival = m_end[p];
        if (m_device[p] != d) arrival += m_problem.platform.link.transferTime(x.bytes);
        r = std::max(r, arrival);
    }
    return r;
}

void ListScheduler::run(std::span<const double> priority, std::span<const int> placement) {
    const int n = m_graph.opCount();
    if (static_cast<int>(priority.size()) != n)
        throw std::invalid_argument("list scheduler: need one priority per op");
    const bool fixed = !placement.empty();
    if (fixed && static_cast<int>(placement.size()) != n)
        throw std::invalid_argument("list scheduler: need one device per op");
    const auto& devices = m_problem.platform.devices;

    for (size_t d = 0; d < devices.size(); ++d) m_freeCapacity[d] = devices[d].resourceCapacity;
    for (auto& r : m_ready) r.clear();
    m_events.clear();
    m_order.clear();
    for (OpId v = 0; v < n; ++v) {
        const auto sv = static_cast<size_t>(v);
        m_pending[sv] = static_cast<int>(m_graph.predecessors(v).size());
        m_device[sv] = -1;
        if (m_pending[sv] == 0) {
            auto& heap = m_ready[static_cast<size_t>(m_graph.op(v).machineType)];
            heap.push_back({priority[sv], v});
            std::push_heap(heap.begin(), heap.end(), ByKey{});
        }
    }

    double t = 0;
    int started = 0;
    m_makespan = 0;
    while (true) {
        for (size_t ty = 0; ty < m_ready.size(); ++ty) {
            auto& heap = m_ready[ty];
            if (heap.empty()) continue;
            const auto& candidates = m_devicesOfType[ty];
            m_skipped.clear();
            while (!heap.empty()) {
                const bool anyFree = std::any_of(candidates.begin(), candidates.end(),
                                                 [&](int d) { return m_freeCapacity[static_cast<size_t>(d)] > 0; });
                if (!anyFree) break;
                std::pop_heap(heap.begin(), heap.end(), ByKey{});
                const Entry e = heap.back();
                heap.pop_back();
                const auto sv = static_cast<size_t>(e.op);
                const double demand = m_graph.op(e.op).resourceDemand;
                int best = -1;
                double bestReady = kInfinity;
                auto consider = [&](int d) {
                    if (m_freeCapacity[static_cast<size_t>(d)] < demand) return;
                    const double r = m_freeTransfers ? 0.0 : dataReady(e.op, d);
                    if (r < bestReady) { best = d; bestReady = r; }
                };
                if (fixed) {
                    const int d = placement[sv];
                    if (d < 0) {
                        for (int c : candidates) consider(c);
                    } else {
                        if (d >= static_cast<int>(devices.size()) ||
                            devices[static_cast<size_t>(d)].machineType != static_cast<int>(ty))
                            throw std::invalid_argument("list scheduler: op '" + m_graph.op(e.op).name +
                                                        "' placed on a device of another machine type");
                        consider(d);
                    }
                } else {
                    for (int c : candidates) consider(c);
                }
                if (best < 0 || bestReady > t) {
                    if (best >= 0) { // inputs still in flight: wake up when they arrive
                        m_events.push_back({bestReady, -1});
                        std::push_heap(m_events.begin(), m_events.end(), ByTime{});
                    }
                    m_skipped.push_back(e);
                    continue;
                }
                m_device[sv] = best;
                m_start[sv] = t;
                m_end[sv] = t + m_graph.durationOn(e.op, best);
                m_freeCapacity[static_cast<size_t>(best)] -= demand;
                m_order.push_back(e.op);
                m_events.push_back({m_end[sv], e.op});
                std::push_heap(m_events.begin(), m_events.end(), ByTime{});
                ++started;
            }
            for (const Entry& e : m_skipped) {
                heap.push_back(e);
                std::push_heap(heap.begin(), heap.end(), ByKey{});
            }
        }
        if (m_events.empty()) break;
        // Step 4: advance to the next event and release everything that happens then.
        t = m_events.front().time;
        while (!m_events.empty() && m_events.front().time <= t) {
            std::pop_heap(m_events.begin(), m_events.end(), ByTime{});
            const OpId u = m_events.back().op;
            m_events.pop_back();
            if (u < 0) continue;
            const auto su = static_cast<size_t>(u);
            m_makespan = std::max(m_makespan, m_end[su]);
            m_freeCapacity[static_cast<size_t>(m_device[su])] += m_graph.op(u).resourceDemand;
            for (OpId s : m_graph.successors(u)) {
                if (--m_pending[static_cast<size_t>(s)] == 0) {
                    auto& heap = m_ready[static_cast<size_t>(m_graph.op(s).machineType)];
                    heap.push_back({priority[static_cast<size_t>(s)], s});
                    std::push_heap(heap.begin(), heap.end(), ByKey{});
                }
            }
        }
    }
    if (started != n)
        throw std::logic_error("list scheduler: " + std::to_string(n - started) +
                               " ops could never start (resource demand above every device's capacity?)");
}

double ListScheduler::makespan(std::span<const double> priority, std::span<const int> placement) {
    run(priority, placement);
    return m_makespan;
}

Schedule ListScheduler::schedule(std::span<const double> priority, std::span<const int> placement) {
    run(priority, placement);
    const int n = m_graph.opCount();
    Schedule s;
    s.ops.resize(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) {
        const auto sv = static_cast<size_t>(v);
        s.ops[sv] = {m_device[sv], m_start[sv], m_end[sv]};
    }
    s.order = m_order;   // decision times only grow, so start order is a topological order
    s.makespan = m_makespan;
    s.transfers = impliedTransfers(m_problem, s);
    const MemoryTimeline mem = computeMemoryTimeline(m_problem, s);
    s.peakMemory = mem.peak;
    s.devicePeakMemory = mem.devicePeaks();
    s.memoryClock = "time";
    return s;
}

} // namespace sl
