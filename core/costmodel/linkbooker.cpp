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
    m_firstSent.assign(static_cast<size_t>(p.g().tensorCount()), -1);
}

void LinkBooker::clear() {
    std::fill(m_busy.begin(), m_busy.end(), 0.0);
    for (TensorId t : m_touched) m_firstSent[static_cast<size_t>(t)] = -1;
    m_touched.clear();
    m_sent.clear();
}

std::span<const int> LinkBooker::route(int from, int to) const {
    const auto pair = static_cast<size_t>(from) * static_cast<size_t>(m_devices) + static_cast<size_t>(to);
    const auto b = static_cast<size_t>(m_routeStart[pair]), e = static_cast<size_t>(m_routeStart[pair + 1]);
    return {m_routeLinks.data() + b, e - b};
}

double LinkBooker::sentAt(TensorId t, int d) const {
    for (int i = m_firstSent[static_cast<size_t>(t)]; i >= 0; i = m_sent[static_cast<size_t>(i)].next)
        if (m_sent[static_cast<size_t>(i)].device == d) return m_sent[static_cast<size_t>(i)].arrival;
    return -1;
}

double LinkBooker::busyUntil(int link) const {
    for (const auto& [l, until] : m_pendingBusy)
        if (l == link) return until;
    return m_busy[static_cast<size_t>(link)];
}

void LinkBooker::setBusy(int link, double until) {
    for (auto& [l, u] : m_pendingBusy)
        if (l == link) {
            u = until;
            return;
        }
    m_pendingBusy.emplace_back(link, until);
}

template <bool Commit>
double LinkBooker::bookInputs(OpId v, int d, std::span<const int> device, std::span<const double> end,
                              std::vector<ScheduledTransfer>* out) {
    const Graph& g = m_problem->g();
    const Platform& platform = m_problem->platform;
    const bool record = m_shared || out != nullptr;   // unshared without output: nothing to remember
    if constexpr (!Commit) {
        m_pendingBusy.clear();
        m_pendingSent.clear();
    }
    double arrival = 0;
    m_latestProducer = kNoOp;
    for (TensorId t : g.inputs(v)) {
        const Tensor& x = g.tensor(t);
        const auto producer = static_cast<size_t>(x.producer);
        const int from = device[producer];
        double at = end[producer];
        if (from != d) {
            at = record ? sentAt(t, d) : -1;
            if constexpr (!Commit)
                for (const auto& [tensor, when] : m_pendingSent)
                    if (tensor == t) at = when;
            if (at < 0) {
                const std::span<const int> links = route(from, d);
                double start = end[producer];
                for (int l : links) start = std::max(start, Commit ? m_busy[static_cast<size_t>(l)] : busyUntil(l));
                at = start + platform.transferTime(from, d, x.bytes);
                if constexpr (Commit) {
                    for (int l : links) m_busy[static_cast<size_t>(l)] = at;
                    if (record) {
                        int& first = m_firstSent[static_cast<size_t>(t)];
                        if (first < 0) m_touched.push_back(t);
                        m_sent.push_back({d, at, first});
                        first = static_cast<int>(m_sent.size()) - 1;
                    }
                    if (out) out->push_back({t, from, d, start, at, -1});
                } else {
                    for (int l : links) setBusy(l, at);
                    m_pendingSent.emplace_back(t, at);
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
    : m_problem(&p), m_links(p), m_end(static_cast<size_t>(p.g().opCount()), 0.0),
      m_deviceFree(static_cast<size_t>(p.platform.deviceCount()), 0.0) {}

double BookedOrder::time(std::span<const int> device, std::span<const OpId> order) {
    const Graph& g = m_problem->g();
    m_links.clear();
    std::fill(m_deviceFree.begin(), m_deviceFree.end(), 0.0);
    double makespan = 0;
    for (OpId v : order) {
        const int d = device[static_cast<size_t>(v)];
        double& free = m_deviceFree[static_cast<size_t>(d)];
        const double start = std::max(free, m_links.book(v, d, device, m_end));
        free = m_end[static_cast<size_t>(v)] = start + g.durationOn(v, d);
        makespan = std::max(makespan, free);
    }
    return makespan;
}

} // namespace sl
