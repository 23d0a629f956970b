// SPDX-License-Identifier: MIT
#include "models/gflownet/readyactions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sl::gfn {

namespace {

/// The one formula of an action's features (the table and the scratch reference both call it).
ActionFeatures makeFeatures(double start, double earliest, double deviceFree, bool deviceEmpty, double bottomLevel,
                            double scale) {
    return {static_cast<float>((start - earliest) / scale), static_cast<float>((start - deviceFree) / scale),
            deviceEmpty ? 1.0f : 0.0f, static_cast<float>(bottomLevel / scale),
            static_cast<float>((start + bottomLevel) / scale)};
}

/// When every input of `v` is on `device`: its producers' ends plus the transfers the link charges.
double arrivalOn(const PartialSchedule& s, OpId v, int device) {
    const Graph& g = s.env().graph();
    const Platform& platform = s.env().problem().platform;
    double t = 0;
    for (TensorId x : g.inputs(v)) {
        const OpId p = g.tensor(x).producer;
        t = std::max(t, s.end(p) + platform.transferTime(s.device(p), device, g.tensor(x).bytes));
    }
    return t;
}

} // namespace

GraphTimes::GraphTimes(const ScheduleEnv& env) {
    const Graph& g = env.graph();
    const auto n = static_cast<size_t>(env.ops());
    bottomLevel.assign(n, 0.0);
    const std::vector<OpId>& topo = g.topologicalOrder();
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const OpId v = *it;
        double sum = 0;
        int count = 0;
        for (int d = 0; d < env.devices(); ++d)
            if (env.allowed(v, d)) sum += env.duration(v, d), ++count;
        double after = 0;
        for (OpId s : g.successors(v)) after = std::max(after, bottomLevel[static_cast<size_t>(s)]);
        bottomLevel[static_cast<size_t>(v)] = (count ? sum / count : 0.0) + after;
    }
    timeScale = env.work() > 0 ? env.work() / env.devices() : 1.0;
}

ReadyActions::ReadyActions(const ScheduleEnv& env, const GraphTimes& times, ActionScorer scorer)
    : m_env(env), m_times(times), m_score(std::move(scorer)), m_state(env), m_devices(env.devices()),
      m_row(static_cast<size_t>(env.ops()), -1), m_missing(static_cast<size_t>(env.ops())) {
    const Graph& g = env.graph();
    for (OpId v = 0; v < env.ops(); ++v) m_missing[static_cast<size_t>(v)] = static_cast<int>(g.predecessors(v).size());
    for (OpId v = 0; v < env.ops(); ++v)
        if (m_missing[static_cast<size_t>(v)] == 0) addReady(v);
}

double ReadyActions::startOn(int row, int device) const {
    return std::max(m_arrival[static_cast<size_t>(row * m_devices + device)], m_state.tailEnd(device));
}

void ReadyActions::refreshSlot(int row, int device) {
    const auto slot = static_cast<size_t>(row * m_devices + device);
    if (!m_valid[slot]) return;
    const OpId v = m_ready[static_cast<size_t>(row)];
    m_features[slot] = makeFeatures(startOn(row, device), m_earliest[static_cast<size_t>(row)], m_state.tailEnd(device),
                                    m_state.chain(device).empty(), m_times.bottomLevel[static_cast<size_t>(v)], m_times.timeScale);
    m_logit[slot] = m_score(v, m_features[slot]);
}

void ReadyActions::refresh(int row) {
    for (int d = 0; d < m_devices; ++d) refreshSlot(row, d);
}

void ReadyActions::addReady(OpId v) {
    const int row = static_cast<int>(m_ready.size());
    m_ready.push_back(v);
    m_row[static_cast<size_t>(v)] = row;
    double earliest = std::numeric_limits<double>::infinity();
    for (int d = 0; d < m_devices; ++d) {
        const bool ok = m_env.allowed(v, d);
        m_valid.push_back(ok ? 1 : 0);
        m_arrival.push_back(arrivalOn(m_state, v, d));
        m_features.push_back({});
        m_logit.push_back(0.0f);
        if (ok) earliest = std::min(earliest, startOn(row, d));
    }
    if (!std::isfinite(earliest)) throw std::invalid_argument("gflownet: op " + std::to_string(v) + " may run on no device");
    m_earliest.push_back(earliest);
    refresh(row);
}

void ReadyActions::removeReady(OpId v) {
    const int row = m_row[static_cast<size_t>(v)], last = static_cast<int>(m_ready.size()) - 1;
    if (row != last) {   // the last row moves into the gap
        const OpId moved = m_ready[static_cast<size_t>(last)];
        m_ready[static_cast<size_t>(row)] = moved;
        m_row[static_cast<size_t>(moved)] = row;
        m_earliest[static_cast<size_t>(row)] = m_earliest[static_cast<size_t>(last)];
        for (int d = 0; d < m_devices; ++d) {
            const auto to = static_cast<size_t>(row * m_devices + d), from = static_cast<size_t>(last * m_devices + d);
            m_valid[to] = m_valid[from];
            m_arrival[to] = m_arrival[from];
            m_features[to] = m_features[from];
            m_logit[to] = m_logit[from];
        }
    }
    m_row[static_cast<size_t>(v)] = -1;
    m_ready.pop_back();
    m_earliest.pop_back();
    const auto keep = m_ready.size() * static_cast<size_t>(m_devices);
    m_valid.resize(keep);
    m_arrival.resize(keep);
    m_features.resize(keep);
    m_logit.resize(keep);
}

void ReadyActions::place(int slot) {
    if (slot < 0 || slot >= slots() || !valid(slot)) throw std::logic_error("gflownet: not a valid action slot");
    const OpId v = op(slot);
    const int device = this->device(slot);
    m_state.add(v, device);
    removeReady(v);
    // The device's free time moved: its actions, and all of an op's whose earliest start moved.
    for (int row = 0; row < static_cast<int>(m_ready.size()); ++row) {
        double earliest = std::numeric_limits<double>::infinity();
        for (int d = 0; d < m_devices; ++d)
            if (m_valid[static_cast<size_t>(row * m_devices + d)]) earliest = std::min(earliest, startOn(row, d));
        if (earliest != m_earliest[static_cast<size_t>(row)]) {
            m_earliest[static_cast<size_t>(row)] = earliest;
            refresh(row);
        } else {
            refreshSlot(row, device);
        }
    }
    for (OpId s : m_env.graph().successors(v))
        if (--m_missing[static_cast<size_t>(s)] == 0) addReady(s);
}

double ReadyActions::logProbability(int slot) const {
    float top = -std::numeric_limits<float>::infinity();
    for (int i = 0; i < slots(); ++i)
        if (valid(i)) top = std::max(top, logit(i));
    double sum = 0;
    for (int i = 0; i < slots(); ++i)
        if (valid(i)) sum += std::exp(static_cast<double>(logit(i)) - top);
    return static_cast<double>(logit(slot)) - top - std::log(sum);
}

int ReadyActions::draw(double u) const {
    float top = -std::numeric_limits<float>::infinity();
    int last = -1;
    for (int i = 0; i < slots(); ++i)
        if (valid(i)) top = std::max(top, logit(i)), last = i;
    m_weights.assign(static_cast<size_t>(slots()), 0.0);
    double total = 0;
    for (int i = 0; i < slots(); ++i)
        if (valid(i)) total += m_weights[static_cast<size_t>(i)] = std::exp(static_cast<double>(logit(i)) - top);
    const double target = u * total;
    double cum = 0;
    for (int i = 0; i < slots(); ++i) {
        if (!valid(i)) continue;
        cum += m_weights[static_cast<size_t>(i)];
        if (cum > target) return i;
    }
    return last;
}

int ReadyActions::removableCount() const {
    int count = 0;
    for (int d = 0; d < m_devices; ++d)
        if (!m_state.chain(d).empty() && m_state.removable(m_state.chain(d).back())) ++count;
    return count;
}

std::vector<ScratchAction> scratchActions(const PartialSchedule& s, const GraphTimes& times) {
    const ScheduleEnv& env = s.env();
    std::vector<ScratchAction> out;
    for (OpId v = 0; v < env.ops(); ++v) {
        if (!s.ready(v)) continue;
        double earliest = std::numeric_limits<double>::infinity();
        for (int d = 0; d < env.devices(); ++d)
            if (env.allowed(v, d)) earliest = std::min(earliest, s.startIf(v, d));
        for (int d = 0; d < env.devices(); ++d)
            if (env.allowed(v, d))
                out.push_back({v, d, makeFeatures(s.startIf(v, d), earliest, s.tailEnd(d), s.chain(d).empty(),
                                                  times.bottomLevel[static_cast<size_t>(v)], times.timeScale)});
    }
    return out;
}

} // namespace sl::gfn
