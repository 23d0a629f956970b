// SPDX-License-Identifier: MIT
#include "core/gflownet/environment.h"

#include "core/costmodel/memorytimeline.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace sl::gfn {

// ---- ScheduleEnv --------------------------------------------------------------------------------

ScheduleEnv::ScheduleEnv(const Problem& problem) : m_problem(problem) {
    problem.check();
    const Graph& g = problem.g();
    for (OpId v = 0; v < g.opCount(); ++v) {
        double best = kInfinity;
        for (int d = 0; d < devices(); ++d)
            if (allowed(v, d)) best = std::min(best, g.durationOn(v, d));
        m_work += best;
    }
}

bool ScheduleEnv::allowed(OpId v, int device) const {
    return m_problem.platform.devices[static_cast<size_t>(device)].machineType == m_problem.g().op(v).machineType;
}

double ScheduleEnv::speedup(double makespan) const {
    return makespan > 0 ? m_work / makespan : static_cast<double>(devices());
}

double ScheduleEnv::logReward(double makespan, double sigma) const {
    return (speedup(makespan) - static_cast<double>(devices())) / sigma;
}

// ---- PartialSchedule ----------------------------------------------------------------------------

PartialSchedule::PartialSchedule(const ScheduleEnv& env)
    : m_env(&env),
      m_device(static_cast<size_t>(env.ops())),
      m_start(static_cast<size_t>(env.ops())),
      m_end(static_cast<size_t>(env.ops())),
      m_missingPreds(static_cast<size_t>(env.ops())),
      m_scheduledSuccs(static_cast<size_t>(env.ops())),
      m_chains(static_cast<size_t>(env.devices())) {
    clear();
}

void PartialSchedule::clear() {
    m_count = 0;
    std::fill(m_device.begin(), m_device.end(), -1);
    std::fill(m_start.begin(), m_start.end(), 0.0);
    std::fill(m_end.begin(), m_end.end(), 0.0);
    std::fill(m_scheduledSuccs.begin(), m_scheduledSuccs.end(), 0);
    for (OpId v = 0; v < m_env->ops(); ++v) m_missingPreds[idx(v)] = static_cast<int>(m_env->graph().predecessors(v).size());
    for (auto& c : m_chains) c.clear();
}

bool PartialSchedule::removable(OpId v) const {
    if (!scheduled(v) || m_scheduledSuccs[idx(v)] > 0) return false;
    return chain(m_device[idx(v)]).back() == v;
}

std::vector<OpId> PartialSchedule::readyOps() const {
    std::vector<OpId> out;
    for (OpId v = 0; v < m_env->ops(); ++v)
        if (ready(v)) out.push_back(v);
    return out;
}

std::vector<OpId> PartialSchedule::removableOps() const {
    std::vector<OpId> out;
    for (const auto& c : m_chains)
        if (!c.empty() && m_scheduledSuccs[idx(c.back())] == 0) out.push_back(c.back());
    std::sort(out.begin(), out.end());
    return out;
}

double PartialSchedule::tailEnd(int device) const {
    const auto& c = chain(device);
    return c.empty() ? 0.0 : m_end[idx(c.back())];
}

double PartialSchedule::startIf(OpId v, int device) const {
    const Graph& g = m_env->graph();
    const Platform& platform = m_env->problem().platform;
    double t = tailEnd(device);
    // Tensors rather than predecessor ops: each input pays its own transfer (as the validator reads it).
    for (TensorId x : g.inputs(v)) {
        const OpId p = g.tensor(x).producer;
        const double arrival = m_end[idx(p)] + platform.transferTime(m_device[idx(p)], device, g.tensor(x).bytes);
        t = std::max(t, arrival);
    }
    return t;
}

double PartialSchedule::makespan() const {
    double t = 0;
    for (int d = 0; d < m_env->devices(); ++d) t = std::max(t, tailEnd(d));   // a tail ends last on its chain
    return t;
}

void PartialSchedule::add(OpId v, int device) {
    if (v < 0 || v >= m_env->ops() || device < 0 || device >= m_env->devices() || !canAdd(v, device))
        throw std::logic_error("gflownet: op " + std::to_string(v) + " cannot be appended to device " + std::to_string(device));
    const double start = startIf(v, device);
    m_device[idx(v)] = device;
    m_start[idx(v)] = start;
    m_end[idx(v)] = start + m_env->duration(v, device);
    m_chains[static_cast<size_t>(device)].push_back(v);
    ++m_count;
    const Graph& g = m_env->graph();
    for (OpId s : g.successors(v)) --m_missingPreds[idx(s)];
    for (OpId p : g.predecessors(v)) ++m_scheduledSuccs[idx(p)];
}

void PartialSchedule::remove(OpId v) {
    if (v < 0 || v >= m_env->ops() || !removable(v))
        throw std::logic_error("gflownet: op " + std::to_string(v) + " is not removable");
    m_chains[static_cast<size_t>(m_device[idx(v)])].pop_back();
    m_device[idx(v)] = -1;
    m_start[idx(v)] = m_end[idx(v)] = 0;
    --m_count;
    const Graph& g = m_env->graph();
    for (OpId s : g.successors(v)) ++m_missingPreds[idx(s)];
    for (OpId p : g.predecessors(v)) --m_scheduledSuccs[idx(p)];
}

Schedule PartialSchedule::toSchedule() const {
    if (!complete()) throw std::logic_error("gflownet: toSchedule() of an incomplete state");
    const Graph& g = m_env->graph();
    Schedule s;
    s.ops.resize(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) s.ops[idx(v)] = {m_device[idx(v)], m_start[idx(v)], m_end[idx(v)]};
    std::vector<int> topoPos(static_cast<size_t>(g.opCount()));
    for (size_t i = 0; i < g.topologicalOrder().size(); ++i) topoPos[idx(g.topologicalOrder()[i])] = static_cast<int>(i);
    // A predecessor starts no later and, at an equal start, has zero duration so ends no later;
    // the topological position settles the rest.
    s.order.resize(static_cast<size_t>(g.opCount()));
    std::iota(s.order.begin(), s.order.end(), 0);
    std::sort(s.order.begin(), s.order.end(), [&](OpId a, OpId b) {
        if (m_start[idx(a)] != m_start[idx(b)]) return m_start[idx(a)] < m_start[idx(b)];
        if (m_end[idx(a)] != m_end[idx(b)]) return m_end[idx(a)] < m_end[idx(b)];
        return topoPos[idx(a)] < topoPos[idx(b)];
    });
    s.transfers = impliedTransfers(m_env->problem(), s);
    s.makespan = makespan();
    return s;
}

} // namespace sl::gfn
