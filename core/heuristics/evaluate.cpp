// SPDX-License-Identifier: MIT
#include "core/heuristics/evaluate.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/memorytimeline.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

CostScales costScales(const Problem& p) {
    const LowerBounds b = lowerBounds(p);
    return {std::max(b.makespan, 1e-9), std::max(b.memory, 1e-9)};
}

bool costNeedsMemory(const Problem& p) {
    if (p.objective.kind != Objective::Makespan) return true;
    if (!p.objective.enforceMemoryCapacity) return false;
    return std::any_of(p.platform.devices.begin(), p.platform.devices.end(),
                       [](const Device& d) { return d.memoryCapacity != kInfinity; });
}

double scheduleCost(const Problem& p, const Schedule& s, const CostScales& scales) {
    return scalarCost(p, s.makespan, s.peakMemory, s.devicePeakMemory, scales.makespan, scales.memory);
}

double scheduleCost(const Problem& p, const Schedule& s) { return scheduleCost(p, s, costScales(p)); }

PriorityEvaluator::PriorityEvaluator(const Problem& p)
    : m_problem(p), m_scheduler(p), m_scales(costScales(p)), m_needsMemory(costNeedsMemory(p)) {}

double PriorityEvaluator::cost(std::span<const double> priority, std::span<const int> placement) {
    if (!m_needsMemory) return m_scheduler.makespan(priority, placement);
    return scheduleCost(m_problem, m_scheduler.schedule(priority, placement), m_scales);
}

Schedule PriorityEvaluator::schedule(std::span<const double> priority, std::span<const int> placement) {
    return m_scheduler.schedule(priority, placement);
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
            start = std::max(start, prod.end + (prod.device == device ? 0.0 : p.platform.link.transferTime(g.tensor(t).bytes)));
        }
        const double end = start + g.durationOn(v, device);
        s.ops[static_cast<size_t>(v)] = {device, start, end};
        clock = end;
        s.makespan = std::max(s.makespan, end);
    }
    s.transfers = impliedTransfers(p, s);
    const std::vector<int> placement = s.placement();
    std::vector<int> sequence;
    std::vector<TransferStep> transfers;
    insertTransfers(g, placement, order, sequence, transfers);
    StepMemory mem(g, p.platform.deviceCount());
    s.peakMemory = mem.peak(placement, sequence, transfers, &s.devicePeakMemory);
    s.memoryClock = "step";
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

void RunMonitor::report(RunResult& r, double best, double mean, double fraction, bool force) {
    const double now = seconds();
    if (!force && m_last >= 0 && now - m_last < m_interval) return;
    m_last = now;
    Progress pr;
    pr.evaluations = r.evaluations;
    pr.best = best;
    pr.mean = mean;
    pr.seconds = now;
    pr.fraction = std::clamp(fraction, 0.0, 1.0);
    r.history.push_back(pr);
    if (m_progress) m_progress(pr);
}

void finishResult(RunResult& r, const Problem& p, const std::string& method, const RunOptions& o,
                  const RunMonitor& monitor, double cost) {
    (void)p;
    r.schedule.method = method;
    r.schedule.seed = o.seed;
    r.cost = cost;
    r.seconds = monitor.seconds();
}

} // namespace sl
