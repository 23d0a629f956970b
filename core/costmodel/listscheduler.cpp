// SPDX-License-Identifier: MIT
#include "core/costmodel/listscheduler.h"

#include "core/costmodel/memorytimeline.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace sl {

namespace {

struct ByTime {
    template <typename E>
    bool operator()(const E& a, const E& b) const { return a.time > b.time; }   // min-heap
};

} // namespace

ListScheduler::ListScheduler(const Problem& problem) : m_problem(problem), m_graph(*problem.graph), m_links(problem) {
    problem.check();
    m_devicesOfType = problem.platform.devicesByType();
    m_freeTransfers = problem.platform.transfersFree();
    m_sharedLinks = m_links.shared();
    m_deviceCount = problem.platform.devices.size();
    for (const Device& d : problem.platform.devices) m_typeOfDevice.push_back(d.machineType);
    const auto n = static_cast<size_t>(m_graph.opCount());
    m_type.resize(n);
    m_demand.resize(n);
    m_duration.resize(n);
    m_predCount.resize(n);
    for (OpId v = 0; v < m_graph.opCount(); ++v) {
        const Op& o = m_graph.op(v);
        const auto sv = static_cast<size_t>(v);
        m_type[sv] = o.machineType;
        m_demand[sv] = o.resourceDemand;
        m_duration[sv] = o.deviceDurations.empty() ? o.duration : -1;
        m_predCount[sv] = static_cast<int>(m_graph.predecessors(v).size());
    }
    if (!problem.pins.empty()) {
        // Pins (core/costmodel/pins.h): a pinned op's device is fixed whatever placement is asked,
        // and a ranked op is ready only once the op of the next lower rank on its device has ended.
        m_pinPlacement.assign(n, -1);
        m_rankNext.assign(n, kNoOp);
        for (OpId v = 0; v < m_graph.opCount(); ++v) m_pinPlacement[static_cast<size_t>(v)] = problem.pins.of(v).device;
        for (int d = 0; d < problem.platform.deviceCount(); ++d) {
            const std::vector<OpId> ranked = problem.pins.ranked(d);
            for (size_t i = 0; i + 1 < ranked.size(); ++i) {
                m_rankNext[static_cast<size_t>(ranked[i])] = ranked[i + 1];
                ++m_predCount[static_cast<size_t>(ranked[i + 1])];
            }
        }
        m_placement.resize(n);
    }
    bool unit = m_pinPlacement.empty() && problem.platform.deviceCount() <= 64 && m_devicesOfType.size() == 1;
    for (const Device& d : problem.platform.devices) unit = unit && d.resourceCapacity == 1;
    for (double demand : m_demand) unit = unit && demand == 1;
    m_uniform = unit && m_freeTransfers;
    m_pending.resize(n);
    m_start.resize(n);
    m_end.resize(n);
    m_device.resize(n);
    m_wakeAt.resize(n);
    m_woken.resize(n);
    if (m_uniform) m_running.resize(problem.platform.devices.size());
    m_freeCapacity.resize(problem.platform.devices.size());
    m_freeDevices.resize(m_devicesOfType.size());
    m_ready.resize(m_devicesOfType.size());
    for (auto& r : m_ready) r.resize(static_cast<int>(n));
    m_order.reserve(n);
    m_finished.reserve(n);
    m_events.reserve(3 * n + 8);
    m_masks = m_sharedLinks && m_deviceCount <= 64;
    if (m_masks) {
        m_arrivalMask.resize(n);
        m_maskValidUntil.resize(n);
    }
    if (m_sharedLinks) {
        m_lowerArrival.assign(n * m_deviceCount, 0.0);
        m_deviceFree.resize(m_deviceCount);
    }
}

double ListScheduler::dataReady(OpId v, int d) const {
    double r = 0;
    for (TensorId t : m_graph.inputs(v)) {
        const Tensor& x = m_graph.tensor(t);
        const auto p = static_cast<size_t>(x.producer);
        const double arrival = m_end[p] + m_problem.platform.transferTime(m_device[p], d, x.bytes);
        r = std::max(r, arrival);
    }
    return r;
}

void ListScheduler::checkPlacement(std::span<const int> placement) const {
    const int n = m_graph.opCount();
    if (static_cast<int>(placement.size()) != n)
        throw std::invalid_argument("list scheduler: need one device per op");
    const auto& devices = m_problem.platform.devices;
    for (OpId v = 0; v < n; ++v) {
        const int d = placement[static_cast<size_t>(v)];
        if (d >= static_cast<int>(devices.size()) ||
            (d >= 0 && devices[static_cast<size_t>(d)].machineType != m_type[static_cast<size_t>(v)]))
            throw std::invalid_argument("list scheduler: op '" + m_graph.op(v).name +
                                        "' placed on a missing device or one of another machine type");
    }
}

inline void ListScheduler::pushEvent(double time, OpId op) {
    m_events.push_back({time, op});
    std::push_heap(m_events.begin(), m_events.end(), ByTime{});
}

// Devices count as free while they have any capacity left, so "is any device of this type free?"
// is one comparison instead of a scan.
inline void ListScheduler::occupy(int device, double demand) {
    double& cap = m_freeCapacity[static_cast<size_t>(device)];
    const bool wasFree = cap > 0;
    cap -= demand;
    if (m_masks && cap <= 0) m_freeMask &= ~(std::uint64_t(1) << device);
    if (wasFree && cap <= 0) --m_freeDevices[static_cast<size_t>(m_typeOfDevice[static_cast<size_t>(device)])];
}

inline void ListScheduler::release(int device, double demand) {
    double& cap = m_freeCapacity[static_cast<size_t>(device)];
    const bool wasFree = cap > 0;
    cap += demand;
    if (m_masks && cap > 0) m_freeMask |= std::uint64_t(1) << device;
    if (!wasFree && cap > 0) ++m_freeDevices[static_cast<size_t>(m_typeOfDevice[static_cast<size_t>(device)])];
}

void ListScheduler::resetRun() {
    m_events.clear();
    m_order.clear();
    m_finished.clear();
    m_makespan = 0;
    std::copy(m_predCount.begin(), m_predCount.end(), m_pending.begin());
    std::fill(m_device.begin(), m_device.end(), -1);
}

/// Records that `u` has ended (end order, makespan) and calls `onReady(s)` for each successor s
/// whose predecessors have now all ended.
template <typename OnReady>
inline void ListScheduler::finish(OpId u, OnReady&& onReady) {
    m_finished.push_back(u);
    m_makespan = std::max(m_makespan, m_end[static_cast<size_t>(u)]);
    // Collect the newly ready successors without a data-dependent branch (it mispredicts often).
    const auto successors = m_graph.successors(u);
    OpId* woken = m_woken.data();
    int* pending = m_pending.data();
    size_t count = 0;
    for (OpId s : successors) {
        woken[count] = s;
        count += --pending[s] == 0;
    }
    for (size_t i = 0; i < count; ++i) onReady(woken[i]);
    if (!m_rankNext.empty())
        if (const OpId next = m_rankNext[static_cast<size_t>(u)]; next != kNoOp && --pending[next] == 0) onReady(next);
}

/// Advances to the next event time and handles everything that happens then: for each op that
/// ends, `onEnd(op)` frees its device and finish() records it. Data-arrival wake-ups only end the
/// wait. Returns the new time.
template <typename OnEnd, typename OnReady>
double ListScheduler::advance(OnEnd&& onEnd, OnReady&& onReady) {
    const double t = m_events.front().time;
    while (!m_events.empty() && m_events.front().time <= t) {
        std::pop_heap(m_events.begin(), m_events.end(), ByTime{});
        const OpId u = m_events.back().op;
        m_events.pop_back();
        if (u < 0) {
            if (m_sharedLinks) m_due.push_back(wokenOp(u));
            continue;
        }
        m_ended = true;
        onEnd(u);
        finish(u, onReady);
    }
    return t;
}

void ListScheduler::runUniform() {
    resetRun();
    PriorityQueue& ready = m_readyQueue;
    auto makeReady = [&](OpId v) { ready.push(v); };
    const int n = m_graph.opCount();
    for (OpId v = 0; v < n; ++v)
        if (m_pending[static_cast<size_t>(v)] == 0) makeReady(v);
    // Raw pointers: the vectors' data pointers would otherwise be reloaded after every store.
    int* device = m_device.data();
    double* start = m_start.data();
    double* end = m_end.data();
    const double* duration = m_duration.data();
    OpId* running = m_running.data();
    // At most one op runs per device, so the next end is a scan of the busy devices, not a heap.
    std::uint64_t busy = 0;   // bit d: device d runs running[d]
    const std::uint64_t all = m_running.size() == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << m_running.size()) - 1;
    double t = 0;
    while (true) {
        for (std::uint64_t idle = all & ~busy; idle != 0 && !ready.empty(); idle &= idle - 1) {
            const OpId v = ready.take();
            const int d = std::countr_zero(idle);
            device[v] = d;
            start[v] = t;
            end[v] = t + (duration[v] >= 0 ? duration[v] : m_graph.durationOn(v, d));
            m_order.push_back(v);
            running[d] = v;
            busy |= std::uint64_t(1) << d;
        }
        if (busy == 0) break;
        t = kInfinity;
        for (std::uint64_t b = busy; b != 0; b &= b - 1) t = std::min(t, end[running[std::countr_zero(b)]]);
        for (std::uint64_t b = busy; b != 0; b &= b - 1) {   // every op ending at t, by device
            const int d = std::countr_zero(b);
            const OpId u = running[d];
            if (end[u] > t) continue;
            busy &= ~(std::uint64_t(1) << d);
            finish(u, makeReady);
        }
    }
    if (static_cast<int>(m_order.size()) != n) throw std::logic_error("list scheduler: not every op ran");
}

void ListScheduler::run(std::span<const int> rankOf, std::span<const int> opAt, std::span<const int> placement) {
    const int n = m_graph.opCount();
    if (!placement.empty()) checkPlacement(placement);
    if (!m_pinPlacement.empty()) {   // the pins override the placement asked for their ops
        for (size_t v = 0; v < m_placement.size(); ++v)
            m_placement[v] = m_pinPlacement[v] >= 0 ? m_pinPlacement[v] : placement.empty() ? -1 : placement[v];
        placement = m_placement;
    }
    const bool fixed = !placement.empty();
    if (m_uniform && !fixed) {
        m_readyQueue.assignRanks(rankOf);
        return runUniform();
    }
    const auto& devices = m_problem.platform.devices;
    std::fill(m_freeDevices.begin(), m_freeDevices.end(), 0);
    for (size_t d = 0; d < devices.size(); ++d) {
        m_freeCapacity[d] = devices[d].resourceCapacity;
        if (m_freeCapacity[d] > 0) ++m_freeDevices[static_cast<size_t>(m_typeOfDevice[d])];
    }
    std::fill(m_wakeAt.begin(), m_wakeAt.end(), -1.0);
    resetRun();
    if (m_sharedLinks) {
        m_links.clear();
        m_transfers.clear();
        std::fill(m_lowerArrival.begin(), m_lowerArrival.end(), -1.0);   // not looked at yet
    }
    if (m_masks) {
        std::fill(m_maskValidUntil.begin(), m_maskValidUntil.end(), -kInfinity);
        m_freeMask = 0;
        for (size_t d = 0; d < devices.size(); ++d)
            if (m_freeCapacity[d] > 0) m_freeMask |= std::uint64_t(1) << d;
    }
    for (auto& r : m_ready) r.clear();
    auto makeReady = [&](OpId v) { m_ready[static_cast<size_t>(m_type[static_cast<size_t>(v)])].insert(rankOf[static_cast<size_t>(v)]); };
    for (OpId v = 0; v < n; ++v)
        if (m_pending[static_cast<size_t>(v)] == 0) makeReady(v);

    double t = 0;
    bool wakesOnly = false;   // the last events were wake-ups and no op ended (shared links)
    while (true) {
        // Scan each machine type's ready ops in priority order, starting every one that fits.
        for (size_t ty = 0; ty < m_ready.size(); ++ty) {
            RankSet& ready = m_ready[ty];
            const auto& candidates = m_devicesOfType[ty];
            int& freeDevices = m_freeDevices[ty];
            if (freeDevices == 0 || ready.empty()) continue;
            // Tries to start the ready op of rank r now; true when no device of the type is left.
            auto tryStart = [&](int r) {
                const OpId v = opAt[static_cast<size_t>(r)];
                const auto sv = static_cast<size_t>(v);
                const bool masked = m_masks && !(fixed && placement[sv] >= 0);
                if (masked && !mayStartNow(v, candidates, t)) return false;
                const double demand = m_demand[sv];
                int best = -1;
                double bestReady = kInfinity;
                auto consider = [&](int d) {
                    if (m_freeCapacity[static_cast<size_t>(d)] < demand) return;
                    double at = 0;
                    if (m_sharedLinks) {
                        // Bookings only delay an arrival, so the last probe stays a lower bound: a
                        // device is probed again only once the clock has passed it (and only if
                        // it could be the best). A chosen device starting now was probed now.
                        double& lower = m_lowerArrival[sv * m_deviceCount + static_cast<size_t>(d)];
                        if (lower < 0) lower = dataReady(v, d);   // first look: the free arrival, cheaper
                        if (lower <= t && lower < bestReady) lower = m_links.probe(v, d, m_device, m_end);
                        at = lower;
                    } else if (!m_freeTransfers) {
                        at = dataReady(v, d);
                    }
                    if (at < bestReady) {
                        best = d;
                        bestReady = at;
                    }
                };
                if (fixed && placement[sv] >= 0) {
                    consider(placement[sv]);
                } else {
                    for (int c : candidates) {
                        consider(c);
                        if (m_freeTransfers && best >= 0) break;   // all free devices are equal then
                    }
                }
                if (best < 0) return false;   // does not fit now: stays ready (non-blocking scan)
                if (bestReady > t) {          // inputs still in flight: wake up when they arrive (once)
                    if (m_wakeAt[sv] != bestReady) {
                        m_wakeAt[sv] = bestReady;
                        pushEvent(bestReady, wakeUp(v));
                    }
                    if (masked) m_maskValidUntil[sv] = -kInfinity;   // the probes moved bounds: look again
                    return false;
                }
                ready.erase(r);
                if (m_sharedLinks) m_links.book(v, best, m_device, m_end);   // arrives by bestReady <= t
                m_device[sv] = best;
                m_start[sv] = t;
                m_end[sv] = t + (m_duration[sv] >= 0 ? m_duration[sv] : m_graph.durationOn(v, best));
                occupy(best, demand);
                m_order.push_back(v);
                pushEvent(m_end[sv], v);
                return freeDevices == 0;
            };
            if (wakesOnly) {
                // Only wake-ups happened: no device was freed and bookings only delay, so only the
                // ops whose wake-up came can start (the replay at the end settles the rare arrival
                // that another op's transfer made sooner).
                for (OpId v : m_due)
                    if (m_type[static_cast<size_t>(v)] == static_cast<int>(ty) && m_device[static_cast<size_t>(v)] < 0 &&
                        tryStart(rankOf[static_cast<size_t>(v)]))
                        break;
            } else {
                for (int r = ready.next(0); r != RankSet::npos; r = ready.next(r + 1))
                    if (tryStart(r)) break;
            }
        }
        if (m_events.empty()) break;
        m_due.clear();
        m_ended = false;
        t = advance([&](OpId u) { release(m_device[static_cast<size_t>(u)], m_demand[static_cast<size_t>(u)]); }, makeReady);
        wakesOnly = m_sharedLinks && !m_ended;
        if (wakesOnly) {   // in priority order, once each
            std::sort(m_due.begin(), m_due.end(), [&](OpId a, OpId b) { return rankOf[static_cast<size_t>(a)] < rankOf[static_cast<size_t>(b)]; });
            m_due.erase(std::unique(m_due.begin(), m_due.end()), m_due.end());
        }
    }
    if (static_cast<int>(m_order.size()) != n)
        throw std::logic_error("list scheduler: " + std::to_string(n - static_cast<int>(m_order.size())) +
                               " ops could never start (resource demand above every device's capacity?)");
    if (m_sharedLinks) replayBookings();
}

bool ListScheduler::mayStartNow(OpId v, std::span<const int> candidates, double t) {
    // Which devices could take v now by their arrival bounds (each device's last probe, or its
    // free arrival), kept until the clock reaches the next bound; with none of them free, v waits
    // without a look at each device: the wake-up at the nearest bound is all it needs.
    const auto sv = static_cast<size_t>(v);
    if (t >= m_maskValidUntil[sv]) {
        std::uint64_t mask = 0;
        double next = kInfinity;
        for (int d : candidates) {
            double& lower = m_lowerArrival[sv * m_deviceCount + static_cast<size_t>(d)];
            if (lower < 0) lower = dataReady(v, d);
            if (lower <= t)
                mask |= std::uint64_t(1) << d;
            else
                next = std::min(next, lower);
        }
        m_arrivalMask[sv] = mask;
        m_maskValidUntil[sv] = next;
    }
    if (m_arrivalMask[sv] & m_freeMask) return true;
    const double wake = m_maskValidUntil[sv];
    if (wake < kInfinity && m_wakeAt[sv] != wake) {
        m_wakeAt[sv] = wake;
        pushEvent(wake, wakeUp(v));
    }
    return false;
}

void ListScheduler::replayBookings() {
    // An arrival can also come sooner when another op sends a tensor first, which no probe saw
    // coming; the replay of the run's own placement and start order settles every time by the
    // rule (it moves an op earlier, never later, in all but such cases).
    m_transfers.clear();
    m_makespan = m_links.replay(m_device, m_order, m_start, m_end, m_deviceFree,
                                [this](OpId v, int d) {
                                    const double own = m_duration[static_cast<size_t>(v)];
                                    return own >= 0 ? own : m_graph.durationOn(v, d);
                                },
                                &m_transfers);
}

double ListScheduler::makespan(std::span<const double> priority, std::span<const int> placement) {
    if (static_cast<int>(priority.size()) != m_graph.opCount())
        throw std::invalid_argument("list scheduler: need one priority per op");
    if (m_uniform && placement.empty()) {   // the ready queue orders by the keys themselves
        m_readyQueue.assign(priority);
        runUniform();
        return m_makespan;
    }
    m_ranks.sort(priority);
    run(m_ranks.rankOf(), m_ranks.order(), placement);
    return m_makespan;
}

double ListScheduler::makespanRanked(std::span<const int> rankOf, std::span<const int> opAt,
                                     std::span<const int> placement) {
    if (static_cast<int>(rankOf.size()) != m_graph.opCount() || opAt.size() != rankOf.size())
        throw std::invalid_argument("list scheduler: need one rank per op");
    run(rankOf, opAt, placement);
    return m_makespan;
}

Schedule ListScheduler::schedule(std::span<const double> priority, std::span<const int> placement) {
    makespan(priority, placement);
    return lastSchedule();
}

Schedule ListScheduler::lastSchedule() const {
    const int n = m_graph.opCount();
    Schedule s;
    s.ops.resize(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) {
        const auto sv = static_cast<size_t>(v);
        s.ops[sv] = {m_device[sv], m_start[sv], m_end[sv]};
    }
    s.order = m_order;   // decision times only grow, so start order is a topological order
    s.makespan = m_makespan;
    s.transfers = m_sharedLinks ? m_transfers : impliedTransfers(m_problem, s);
    return s;
}

} // namespace sl
