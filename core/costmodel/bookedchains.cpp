// SPDX-License-Identifier: MIT
#include "core/costmodel/bookedchains.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

namespace {

struct LaterReady {
    template <typename R>
    bool operator()(const R& a, const R& b) const {
        return a.at > b.at || (a.at == b.at && a.op > b.op);
    }   // min-heap
};

}   // namespace

BookedChains::BookedChains(const Problem& p) : m_problem(&p), m_links(p) {
    const auto n = static_cast<size_t>(p.g().opCount());
    m_start.resize(n);
    m_end.resize(n);
    m_arrival.resize(n);
    m_latest.resize(n);
    m_waiting.resize(n);
    m_order.reserve(n);
    m_ready.reserve(n);
}

double BookedChains::readyEstimate(OpId v, int d, double chainFree) const {
    double at = chainFree;
    for (const LinkBooker::Input& x : m_links.inputs(v)) {
        const auto q = static_cast<size_t>(x.producer);
        const int from = m_deviceOf[q];
        at = std::max(at, from == d ? m_end[q] : m_end[q] + m_problem->platform.transferTime(from, d, x.bytes));
    }
    return at;
}

double BookedChains::time(const DeviceChains& chains, std::span<const int> device, std::span<const int> position,
                          std::vector<ScheduledTransfer>* transfers) {
    const Graph& g = m_problem->g();
    const int n = g.opCount();
    m_deviceOf = device;
    m_links.clear();
    m_order.clear();
    m_ready.clear();
    auto chainPrevious = [&](OpId v) {
        const int i = position[static_cast<size_t>(v)];
        return i > 0 ? chains[static_cast<size_t>(device[static_cast<size_t>(v)])][static_cast<size_t>(i) - 1] : kNoOp;
    };
    auto push = [&](OpId v) {
        const OpId prev = chainPrevious(v);
        const double chainFree = prev == kNoOp ? 0.0 : m_end[static_cast<size_t>(prev)];
        m_ready.push_back({readyEstimate(v, device[static_cast<size_t>(v)], chainFree), v});
        std::push_heap(m_ready.begin(), m_ready.end(), LaterReady{});
    };
    auto release = [&](OpId w) {
        if (--m_waiting[static_cast<size_t>(w)] == 0) push(w);
    };
    for (OpId v = 0; v < n; ++v) {
        m_waiting[static_cast<size_t>(v)] =
            static_cast<int>(g.predecessors(v).size()) + (position[static_cast<size_t>(v)] > 0);
        if (m_waiting[static_cast<size_t>(v)] == 0) push(v);
    }
    double makespan = 0;
    while (!m_ready.empty()) {
        std::pop_heap(m_ready.begin(), m_ready.end(), LaterReady{});
        const OpId v = m_ready.back().op;
        m_ready.pop_back();
        const auto sv = static_cast<size_t>(v);
        const int d = device[sv];
        const OpId prev = chainPrevious(v);
        const double arrival = m_links.book(v, d, device, m_end, transfers);
        m_arrival[sv] = arrival;
        m_latest[sv] = m_links.latestProducer();
        m_start[sv] = std::max(prev == kNoOp ? 0.0 : m_end[static_cast<size_t>(prev)], arrival);
        m_end[sv] = m_start[sv] + g.durationOn(v, d);
        makespan = std::max(makespan, m_end[sv]);
        m_order.push_back(v);
        for (OpId s : g.successors(v)) release(s);
        const auto& chain = chains[static_cast<size_t>(d)];
        const auto after = static_cast<size_t>(position[sv]) + 1;
        if (after < chain.size()) release(chain[after]);
    }
    return static_cast<int>(m_order.size()) == n ? makespan : kInfinity;
}

OpId BookedChains::untimedOp() const {
    OpId v = 0;
    while (m_waiting[static_cast<size_t>(v)] == 0) ++v;
    return v;
}

Schedule timeChainsOnSharedLinks(const Problem& p, const DeviceChains& chains) {
    checkDeviceChains(p, chains);   // timeChains' checks and messages, the cycle below
    const auto n = static_cast<size_t>(p.g().opCount());
    std::vector<int> device(n), position(n);
    for (size_t d = 0; d < chains.size(); ++d)
        for (size_t i = 0; i < chains[d].size(); ++i) {
            device[static_cast<size_t>(chains[d][i])] = static_cast<int>(d);
            position[static_cast<size_t>(chains[d][i])] = static_cast<int>(i);
        }
    BookedChains clock(p);
    Schedule s;
    s.ops.resize(n);
    s.makespan = clock.time(chains, device, position, &s.transfers);
    if (s.makespan == kInfinity) throw std::invalid_argument(chainCycleError(p.g(), clock.untimedOp()));
    for (size_t v = 0; v < n; ++v) s.ops[v] = {device[v], clock.starts()[v], clock.ends()[v]};
    s.order.assign(clock.order().begin(), clock.order().end());
    return s;
}

}   // namespace sl
