// SPDX-License-Identifier: MIT
#include "core/heuristics/evaluate.h"

#include "core/costmodel/memorytimeline.h"
#include "core/costmodel/sharedlinks.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

PriorityEvaluator::PriorityEvaluator(const Problem& p)
    : m_problem(p), m_scheduler(p), m_cost(p), m_stepMemory(p.g(), p.platform.deviceCount()), m_timeMemory(p) {}

double PriorityEvaluator::cost(std::span<const double> priority, std::span<const int> placement) {
    const double makespan = m_scheduler.makespan(priority, placement);
    if (!m_cost.needsMemory()) return m_cost(makespan, 0, {});
    if (m_cost.clock() == MemoryClock::Time && linksShared(m_problem.platform)) {
        // a source copy lives until its booked transfer ends: the schedule's transfers say when
        Schedule s = m_scheduler.lastSchedule();
        return scoreSchedule(m_problem, s, m_cost);
    }
    // The same clocks sl::scoreSchedule reads from the schedule this run would build.
    const double peak =
        m_cost.clock() == MemoryClock::Step
            ? m_stepMemory.peakOfOrder(m_scheduler.devices(), m_scheduler.startOrder(), &m_devicePeaks)
            : m_timeMemory.peak(m_scheduler.starts(), m_scheduler.ends(), m_scheduler.devices(),
                                m_scheduler.startOrder(), m_scheduler.endOrder(), &m_devicePeaks);
    return m_cost(makespan, peak, m_devicePeaks);
}

Schedule PriorityEvaluator::schedule(std::span<const double> priority, std::span<const int> placement) {
    Schedule s = m_scheduler.schedule(priority, placement);
    scoreSchedule(m_problem, s, m_cost);
    return s;
}

Schedule sequentialSchedule(const Problem& p, std::span<const OpId> order) {
    const Graph& g = p.g();
    const int n = g.opCount();
    if (static_cast<int>(order.size()) != n) throw std::invalid_argument("the order does not list every op once");
    const auto byType = p.platform.devicesByType();
    std::vector<int> pos(static_cast<size_t>(n), -1);
    for (size_t i = 0; i < order.size(); ++i) {
        const OpId v = order[i];
        if (v < 0 || v >= n || pos[static_cast<size_t>(v)] >= 0)
            throw std::invalid_argument("the order is not a permutation of the ops");
        pos[static_cast<size_t>(v)] = static_cast<int>(i);
    }
    Schedule s;
    s.ops.resize(static_cast<size_t>(n));
    s.order.assign(order.begin(), order.end());
    double clock = 0;
    for (OpId v : order) {
        for (OpId q : g.predecessors(v))
            if (pos[static_cast<size_t>(q)] > pos[static_cast<size_t>(v)])
                throw std::invalid_argument("the order puts op '" + g.op(v).name + "' before its predecessor '" +
                                            g.op(q).name + "'");
        const int type = g.op(v).machineType;
        const int device = byType.at(static_cast<size_t>(type)).front();
        double start = clock;
        for (TensorId t : g.inputs(v)) {
            const ScheduledOp& prod = s.ops[static_cast<size_t>(g.tensor(t).producer)];
            start = std::max(start, prod.end + p.platform.transferTime(prod.device, device, g.tensor(t).bytes));
        }
        const double end = start + g.durationOn(v, device);
        s.ops[static_cast<size_t>(v)] = {device, start, end};
        clock = end;
        s.makespan = std::max(s.makespan, end);
    }
    s.transfers = impliedTransfers(p, s);
    scoreSchedule(p, s);
    return s;
}

std::vector<double> prioritiesFromOrder(std::span<const OpId> order) {
    std::vector<double> key(order.size(), 0.0);
    for (size_t i = 0; i < order.size(); ++i) key[static_cast<size_t>(order[i])] = static_cast<double>(order.size() - i);
    return key;
}

RunMonitor::RunMonitor(const RunOptions& options, const ProgressFn& progress, double interval)
    : m_options(options), m_progress(progress), m_interval(interval), m_begin(std::chrono::steady_clock::now()) {}

double RunMonitor::seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_begin).count();
}

Progress RunMonitor::progressOf(const RunResult& r, double best, double mean, double fraction, double now) const {
    Progress pr;
    pr.evaluations = r.evaluations;
    pr.best = best;
    pr.mean = mean;
    pr.seconds = now;
    pr.fraction = std::clamp(fraction, 0.0, 1.0);
    pr.bound = m_bound;
    return pr;
}

void RunMonitor::report(RunResult& r, double best, double mean, double fraction, bool force) {
    const double now = seconds();
    if (!force && m_last >= 0 && now - m_last < m_interval) return;
    m_last = now;
    r.history.push_back(progressOf(r, best, mean, fraction, now));
    if (m_progress) m_progress(r.history.back());
}

void RunMonitor::record(RunResult& r, double best, double mean, double fraction) {
    const double now = seconds();
    r.history.push_back(progressOf(r, best, mean, fraction, now));
    if (m_last >= 0 && now - m_last < m_interval) return;
    m_last = now;
    if (m_progress) m_progress(r.history.back());
}

void finishResult(RunResult& r, const Problem& p, const std::string& method, const RunOptions& o,
                  const RunMonitor& monitor) {
    bookSharedLinks(p, r.schedule);   // a no-op for the engines that book links; the guarantee for any other
    for (Schedule& c : r.candidates) bookSharedLinks(p, c);
    r.schedule.method = method;
    r.schedule.seed = o.seed;
    r.cost = scoreSchedule(p, r.schedule);
    r.seconds = monitor.seconds();
    if (o.candidates > 0 && r.candidates.empty()) r.candidates = {r.schedule};   // a one-shot method's only one
}

} // namespace sl
