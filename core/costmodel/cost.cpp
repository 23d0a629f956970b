// SPDX-License-Identifier: MIT
#include "core/costmodel/cost.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/timememory.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

CostScales costScales(const Problem& p) {
    // The weighted objective's scale stays the simple bound (not lowerBounds().makespan, which grew
    // the machine bound): weighted costs, and the models trained on them, do not move.
    const double makespan = std::max(criticalPathBound(p), workBound(p));
    return {std::max(makespan, 1e-9), std::max(footprintBound(p.g()), 1e-9)};
}

namespace {

bool hasFiniteCapacity(const Platform& platform) {
    return std::any_of(platform.devices.begin(), platform.devices.end(),
                       [](const Device& d) { return d.memoryCapacity != kInfinity; });
}

} // namespace

CostFunction::CostFunction(const Problem& p)
    : m_problem(p),
      m_scales(p.objective.kind == Objective::Weighted ? costScales(p) : CostScales{}),
      m_needsMakespan(p.objective.kind != Objective::Memory),
      m_needsMemory(p.objective.kind != Objective::Makespan ||
                    (p.objective.enforceMemoryCapacity && hasFiniteCapacity(p.platform))) {}

double CostFunction::operator()(double makespan, double peak, std::span<const double> devicePeaks) const {
    const ObjectiveSpec& o = m_problem.objective;
    switch (o.kind) {
    case Objective::Memory: return peak;
    case Objective::Weighted:
        return (1 - o.memoryWeight) * makespan / m_scales.makespan + o.memoryWeight * peak / m_scales.memory;
    case Objective::Makespan: break;
    }
    if (!m_needsMemory) return makespan;
    double excess = 0;
    const auto& devices = m_problem.platform.devices;
    for (size_t d = 0; d < devicePeaks.size() && d < devices.size(); ++d)
        if (devicePeaks[d] > devices[d].memoryCapacity)
            excess += (devicePeaks[d] - devices[d].memoryCapacity) / devices[d].memoryCapacity;
    if (excess == 0) return makespan;
    const double upper = 1 + m_problem.g().totalWork() * 2 + makespan;
    return upper * (1 + excess);
}

void stepSequence(const Graph& g, const Schedule& s, std::vector<int>& sequence,
                  std::vector<TransferStep>& transfers) {
    const std::vector<int> placement = s.placement();
    const bool explicitSteps = !s.transfers.empty() && s.transfers.front().step >= 0;
    if (!explicitSteps) {
        insertTransfers(g, placement, s.order, sequence, transfers);
        return;
    }
    const size_t total = s.order.size() + s.transfers.size();
    sequence.assign(total, -1);
    transfers.clear();
    for (const ScheduledTransfer& x : s.transfers) {
        if (x.step < 0 || static_cast<size_t>(x.step) >= total || sequence[static_cast<size_t>(x.step)] >= 0)
            throw std::invalid_argument("transfer of tensor '" + g.tensor(x.tensor).name + "' to device " +
                                        std::to_string(x.to) + " has step " + std::to_string(x.step) +
                                        ", missing, out of range or taken");
        sequence[static_cast<size_t>(x.step)] = g.opCount() + static_cast<int>(transfers.size());
        transfers.push_back({x.tensor, x.to});
    }
    size_t next = 0;
    for (int& e : sequence)
        if (e < 0) e = s.order[next++];
    // Each transfer after its producer and before every consumer on its destination.
    std::vector<int> position(static_cast<size_t>(g.opCount()));
    for (size_t i = 0; i < total; ++i)
        if (sequence[i] < g.opCount()) position[static_cast<size_t>(sequence[i])] = static_cast<int>(i);
    for (const ScheduledTransfer& x : s.transfers) {
        const Tensor& t = g.tensor(x.tensor);
        bool ok = position[static_cast<size_t>(t.producer)] < x.step;
        for (OpId c : t.consumers)
            if (placement[static_cast<size_t>(c)] == x.to) ok = ok && x.step < position[static_cast<size_t>(c)];
        if (!ok)
            throw std::invalid_argument("transfer of tensor '" + t.name + "' to device " + std::to_string(x.to) +
                                        " at step " + std::to_string(x.step) +
                                        " is not between its producer and its consumers there");
    }
}

double scoreSchedule(const Problem& p, Schedule& s, const CostFunction& cost) {
    const Graph& g = p.g();
    s.makespan = 0;
    for (const ScheduledOp& o : s.ops) s.makespan = std::max(s.makespan, o.end);
    std::vector<int> sequence;
    std::vector<TransferStep> transfers;
    stepSequence(g, s, sequence, transfers);
    StepMemory step(g, p.platform.deviceCount());
    s.stepMemory.peak = step.peak(s.placement(), sequence, transfers, &s.stepMemory.devices);
    TimeMemory time(p);
    s.timeMemory.peak = time.peak(s, &s.timeMemory.devices);
    s.memoryClock = cost.clock();
    return cost.of(s);
}

double scoreSchedule(const Problem& p, Schedule& s) { return scoreSchedule(p, s, CostFunction(p)); }

} // namespace sl
