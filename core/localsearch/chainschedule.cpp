// SPDX-License-Identifier: MIT
#include "core/localsearch/chainschedule.h"

#include "core/costmodel/sharedlinks.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

ChainSchedule::ChainSchedule(const Problem& p, const DeviceChains& chains) : m_problem(&p), m_chains(chains) {
    timeChains(p, chains);   // the same checks and messages as the clock we mirror
    const Graph& g = p.g();
    const auto n = static_cast<size_t>(g.opCount());
    const int devices = p.platform.deviceCount();
    m_chains.resize(static_cast<size_t>(devices));
    m_device.assign(n, -1);
    m_position.assign(n, -1);
    for (int d = 0; d < devices; ++d) reindex(d, 0);
    for (OpId v = 0; v < static_cast<OpId>(n); ++v)
        if (g.op(v).resourceDemand > p.platform.devices[static_cast<size_t>(device(v))].resourceCapacity)
            throw std::invalid_argument("op '" + g.op(v).name + "' is on a device without room for its resource demand");

    m_duration.resize(n * static_cast<size_t>(devices));
    m_inputStart.assign(1, 0);
    m_successorStart.assign(1, 0);
    m_deviceStart.assign(1, 0);
    const auto byType = p.platform.devicesByType();
    std::vector<double> largest(n, -1);   // per producer, while collecting one op's inputs
    for (OpId v = 0; v < static_cast<OpId>(n); ++v) {
        for (int d = 0; d < devices; ++d) m_duration[static_cast<size_t>(v) * static_cast<size_t>(devices) + static_cast<size_t>(d)] = g.durationOn(v, d);
        // end + max(delays) == max(end + delay) exactly: rounded addition and division are monotone.
        for (TensorId t : g.inputs(v)) {
            const Tensor& x = g.tensor(t);
            auto& bytes = largest[static_cast<size_t>(x.producer)];
            bytes = std::max(bytes, x.bytes);
        }
        for (OpId q : g.predecessors(v)) {
            m_inputs.push_back({q, largest[static_cast<size_t>(q)]});
            largest[static_cast<size_t>(q)] = -1;
        }
        m_inputStart.push_back(static_cast<int>(m_inputs.size()));
        for (OpId s : g.successors(v)) m_successors.push_back(s);
        m_successorStart.push_back(static_cast<int>(m_successors.size()));
        for (int d : byType[static_cast<size_t>(g.op(v).machineType)])
            if (g.op(v).resourceDemand <= p.platform.devices[static_cast<size_t>(d)].resourceCapacity) m_devicesFor.push_back(d);
        m_deviceStart.push_back(static_cast<int>(m_devicesFor.size()));
    }
    m_start.assign(n, 0);
    m_end.assign(n, 0);
    m_waiting.resize(n);
    m_ready.reserve(n);
    if (sl::linksShared(p.platform)) m_booked.emplace(p);
    retime();
}

OpId ChainSchedule::previous(OpId v) const {
    const int i = position(v);
    return i > 0 ? chain(device(v))[static_cast<size_t>(i) - 1] : kNoOp;
}

OpId ChainSchedule::next(OpId v) const {
    const auto& c = chain(device(v));
    const auto i = static_cast<size_t>(position(v)) + 1;
    return i < c.size() ? c[i] : kNoOp;
}

std::span<const int> ChainSchedule::devicesFor(OpId v) const {
    const auto b = static_cast<size_t>(m_deviceStart[static_cast<size_t>(v)]);
    const auto e = static_cast<size_t>(m_deviceStart[static_cast<size_t>(v) + 1]);
    return {m_devicesFor.data() + b, e - b};
}

std::span<const ChainSchedule::Input> ChainSchedule::inputs(OpId v) const {
    const auto b = static_cast<size_t>(m_inputStart[static_cast<size_t>(v)]);
    const auto e = static_cast<size_t>(m_inputStart[static_cast<size_t>(v) + 1]);
    return {m_inputs.data() + b, e - b};
}

double ChainSchedule::inputsReady(OpId v, int device) const {
    double ready = 0;
    for (const Input& in : inputs(v)) {
        const auto q = static_cast<size_t>(in.producer);
        ready = std::max(ready, m_end[q] + m_problem->platform.transferTime(m_device[q], device, in.bytes));
    }
    return ready;
}

void ChainSchedule::swapWithNext(OpId u) {
    auto& c = m_chains[static_cast<size_t>(device(u))];
    const auto i = static_cast<size_t>(position(u));
    std::swap(c[i], c[i + 1]);
    m_position[static_cast<size_t>(c[i])] = static_cast<int>(i);
    m_position[static_cast<size_t>(c[i + 1])] = static_cast<int>(i + 1);
}

void ChainSchedule::moveTo(OpId v, int device, int position) {
    const int from = this->device(v);
    auto& source = m_chains[static_cast<size_t>(from)];
    source.erase(source.begin() + this->position(v));
    reindex(from, this->position(v));
    auto& target = m_chains[static_cast<size_t>(device)];
    target.insert(target.begin() + position, v);
    m_device[static_cast<size_t>(v)] = device;
    reindex(device, position);
}

void ChainSchedule::setChains(const DeviceChains& chains) {
    m_chains = chains;
    for (int d = 0; d < deviceCount(); ++d) reindex(d, 0);
    retime();
}

void ChainSchedule::reindex(int device, int from) {
    const auto& c = m_chains[static_cast<size_t>(device)];
    for (size_t i = static_cast<size_t>(from); i < c.size(); ++i) {
        m_device[static_cast<size_t>(c[i])] = device;
        m_position[static_cast<size_t>(c[i])] = static_cast<int>(i);
    }
}

double ChainSchedule::retime() {
    if (m_booked) {
        m_makespan = m_booked->time(m_chains, m_device, m_position);
        std::copy(m_booked->starts().begin(), m_booked->starts().end(), m_start.begin());
        std::copy(m_booked->ends().begin(), m_booked->ends().end(), m_end.begin());
        return m_makespan;
    }
    // Kahn over graph and chain edges, as sl::timeChains: an op is timed once its producers and
    // its chain predecessor are.
    const int n = opCount();
    m_ready.clear();
    for (OpId v = 0; v < n; ++v) {
        const auto i = static_cast<size_t>(v);
        m_waiting[i] = m_inputStart[i + 1] - m_inputStart[i] + (m_position[i] > 0);
        if (m_waiting[i] == 0) m_ready.push_back(v);
    }
    int timed = 0;
    m_makespan = 0;
    while (!m_ready.empty()) {
        const OpId v = m_ready.back();
        m_ready.pop_back();
        ++timed;
        const auto i = static_cast<size_t>(v);
        const int d = m_device[i];
        const OpId prev = previous(v);
        double start = prev == kNoOp ? 0.0 : m_end[static_cast<size_t>(prev)];
        for (const Input& in : inputs(v)) {
            const auto q = static_cast<size_t>(in.producer);
            start = std::max(start, m_end[q] + m_problem->platform.transferTime(m_device[q], d, in.bytes));
        }
        m_start[i] = start;
        m_end[i] = start + duration(v, d);
        m_makespan = std::max(m_makespan, m_end[i]);
        for (int k = m_successorStart[i]; k < m_successorStart[i + 1]; ++k) {
            const OpId s = m_successors[static_cast<size_t>(k)];
            if (--m_waiting[static_cast<size_t>(s)] == 0) m_ready.push_back(s);
        }
        const OpId after = next(v);
        if (after != kNoOp && --m_waiting[static_cast<size_t>(after)] == 0) m_ready.push_back(after);
    }
    if (timed != n) m_makespan = kInfinity;
    return m_makespan;
}

} // namespace sl
