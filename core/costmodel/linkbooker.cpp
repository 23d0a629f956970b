// SPDX-License-Identifier: MIT
#include "core/costmodel/linkbooker.h"

#include "core/costmodel/sharedlinks.h"

#include <algorithm>

namespace sl {

LinkBooker::LinkBooker(const Problem& p)
    : m_problem(&p), m_shared(linksShared(p.platform)), m_devices(p.platform.deviceCount()) {
    const Topology& topology = p.platform.topology;
    m_routeStart.assign(1, 0);
    for (int a = 0; a < m_devices; ++a)
        for (int b = 0; b < m_devices; ++b) {
            if (m_shared)
                for (int l : topology.route(a, b)) m_routeLinks.push_back(l);
            m_routeStart.push_back(static_cast<int>(m_routeLinks.size()));
        }
    m_busy.assign(topology.links.size(), 0.0);
    m_probeBusy.assign(topology.links.size(), 0.0);
    m_probeStamp.assign(topology.links.size(), 0);
    const Graph& g = p.g();
    m_inputStart.assign(1, 0);
    m_repeatsInput.assign(static_cast<size_t>(g.opCount()), 0);
    for (OpId v = 0; v < g.opCount(); ++v) {
        const auto in = g.inputs(v);
        for (TensorId t : in) m_inputs.push_back({t, g.tensor(t).producer, g.tensor(t).bytes});
        m_inputStart.push_back(static_cast<int>(m_inputs.size()));
        for (size_t i = 0; i < in.size(); ++i)
            for (size_t j = 0; j < i; ++j) m_repeatsInput[static_cast<size_t>(v)] |= in[i] == in[j];
    }
}

void LinkBooker::clear() {
    std::fill(m_busy.begin(), m_busy.end(), 0.0);
    if (++m_stamp == 0) {   // wrapped: forget every old stamp
        std::fill(m_sentStamp.begin(), m_sentStamp.end(), 0);
        m_stamp = 1;
    }
}

std::span<const int> LinkBooker::route(int from, int to) const {
    const auto pair = static_cast<size_t>(from) * static_cast<size_t>(m_devices) + static_cast<size_t>(to);
    const auto b = static_cast<size_t>(m_routeStart[pair]), e = static_cast<size_t>(m_routeStart[pair + 1]);
    return {m_routeLinks.data() + b, e - b};
}

double LinkBooker::sentAt(TensorId t, int d) const {
    const size_t i = static_cast<size_t>(t) * static_cast<size_t>(m_devices) + static_cast<size_t>(d);
    return i < m_sentStamp.size() && m_sentStamp[i] == m_stamp ? m_sentArrival[i] : -1;
}

void LinkBooker::recordSent(TensorId t, int d, double arrival) {
    if (m_sentStamp.empty()) {
        const size_t cells = static_cast<size_t>(m_problem->g().tensorCount()) * static_cast<size_t>(m_devices);
        m_sentStamp.assign(cells, 0);
        m_sentArrival.resize(cells);
    }
    const size_t i = static_cast<size_t>(t) * static_cast<size_t>(m_devices) + static_cast<size_t>(d);
    m_sentStamp[i] = m_stamp;
    m_sentArrival[i] = arrival;
}

double LinkBooker::busyUntil(int link) const {
    const auto l = static_cast<size_t>(link);
    return m_probeStamp[l] == m_probeEpoch ? m_probeBusy[l] : m_busy[l];
}

void LinkBooker::setBusy(int link, double until) {
    const auto l = static_cast<size_t>(link);
    m_probeStamp[l] = m_probeEpoch;
    m_probeBusy[l] = until;
}

template <bool Commit>
double LinkBooker::bookInputs(OpId v, int d, std::span<const int> device, std::span<const double> end,
                              std::vector<ScheduledTransfer>* out) {
    const Platform& platform = m_problem->platform;
    const bool record = m_shared || out != nullptr;   // unshared without output: nothing to remember
    const bool repeats = m_repeatsInput[static_cast<size_t>(v)] != 0;
    if constexpr (!Commit) {
        if (++m_probeEpoch == 0) {   // wrapped: forget every old stamp
            std::fill(m_probeStamp.begin(), m_probeStamp.end(), 0);
            m_probeEpoch = 1;
        }
        m_pendingSent.clear();
    }
    double arrival = 0;
    m_latestProducer = kNoOp;
    for (const Input& x : inputs(v)) {
        const TensorId t = x.tensor;
        const auto producer = static_cast<size_t>(x.producer);
        const int from = device[producer];
        double at = end[producer];
        if (from != d) {
            at = record ? sentAt(t, d) : -1;
            if constexpr (!Commit)
                if (repeats)
                    for (const auto& [tensor, when] : m_pendingSent)
                        if (tensor == t) at = when;
            if (at < 0) {
                const std::span<const int> links = route(from, d);
                double start = end[producer];
                for (int l : links) start = std::max(start, Commit ? m_busy[static_cast<size_t>(l)] : busyUntil(l));
                at = start + platform.transferTime(from, d, x.bytes);
                if constexpr (Commit) {
                    for (int l : links) m_busy[static_cast<size_t>(l)] = at;
                    if (record) recordSent(t, d, at);
                    if (out) out->push_back({t, from, d, start, at, -1});
                } else {
                    for (int l : links) setBusy(l, at);
                    if (repeats) m_pendingSent.emplace_back(t, at);
                }
            }
        }
        if (m_latestProducer == kNoOp || at > arrival) {
            arrival = std::max(arrival, at);
            m_latestProducer = x.producer;
        }
    }
    return arrival;
}

double LinkBooker::book(OpId v, int d, std::span<const int> device, std::span<const double> end,
                        std::vector<ScheduledTransfer>* out) {
    return bookInputs<true>(v, d, device, end, out);
}

double LinkBooker::probe(OpId v, int d, std::span<const int> device, std::span<const double> end) {
    return bookInputs<false>(v, d, device, end, nullptr);
}

BookedOrder::BookedOrder(const Problem& p)
    : m_problem(&p), m_links(p), m_start(static_cast<size_t>(p.g().opCount()), 0.0),
      m_end(static_cast<size_t>(p.g().opCount()), 0.0), m_deviceFree(static_cast<size_t>(p.platform.deviceCount()), 0.0) {}

double BookedOrder::time(std::span<const int> device, std::span<const OpId> order) {
    const Graph& g = m_problem->g();
    return m_links.replay(device, order, m_start, m_end, m_deviceFree, [&g](OpId v, int d) { return g.durationOn(v, d); });
}

}   // namespace sl
