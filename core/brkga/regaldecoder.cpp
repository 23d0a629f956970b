// SPDX-License-Identifier: MIT
#include "core/brkga/regaldecoder.h"

#include "core/brkga/distinctconsumers.h"
#include "core/costmodel/sharedlinks.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace sl {

namespace {

/// Identical devices: relabelling them changes nothing, so fixing one op's device loses no optimum.
bool identicalDevices(const Problem& p) {
    const auto& ds = p.platform.devices;
    for (const Device& d : ds)
        if (d.machineType != ds[0].machineType || d.memoryCapacity != ds[0].memoryCapacity ||
            d.resourceCapacity != ds[0].resourceCapacity)
            return false;
    for (const Op& o : p.g().ops())
        if (!o.deviceDurations.empty()) return false;
    return true;
}

} // namespace

RegalDecoder::RegalDecoder(const Problem& problem, bool symmetryBreaking, PlacementRule placement)
    : m_problem(problem), m_graph(problem.g()), m_cost(problem), m_rule(placement) {
    problem.check();
    if (!(placement.balance >= 0 && placement.locality >= 0))
        throw std::invalid_argument("REGAL decoder: the placement's balance and locality must be >= 0");
    const Graph& g = m_graph;
    const int n = g.opCount(), T = g.tensorCount(), D = problem.platform.deviceCount();
    m_layout = RegalLayout::of(problem);
    const bool stepClock = m_cost.clock() == MemoryClock::Step;
    m_needSchedule = m_cost.needsMakespan() || (m_cost.needsMemory() && !stepClock);
    m_devicesOfType = problem.platform.devicesByType();
    m_type.resize(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) m_type[static_cast<size_t>(v)] = g.op(v).machineType;

    m_producer.resize(static_cast<size_t>(T));
    for (TensorId t = 0; t < T; ++t) m_producer[static_cast<size_t>(t)] = g.tensor(t).producer;
    DistinctConsumers consumers(g);
    m_consStart = std::move(consumers.start);
    m_cons = std::move(consumers.ops);

    if (symmetryBreaking && D > 1 && n > 0 && identicalDevices(problem)) {
        double best = -1;
        for (OpId v = 0; v < n; ++v) {
            double bytes = g.outputBytes(v);
            for (TensorId t : g.inputs(v)) bytes += g.tensor(t).bytes;
            if (bytes > best) {
                best = bytes;
                m_symmetryOp = v;
            }
        }
    }

    if (!placement.byAffinityOnly()) m_balanced = std::make_unique<BalancedPlacement>(problem, m_devicesOfType);
    m_scheduler = std::make_unique<ListScheduler>(problem);   // schedule() needs it in any case
    if (linksShared(problem.platform)) m_booked = std::make_unique<BookedOrder>(problem);
    if (m_cost.needsMemory() && stepClock) m_stepMemory = std::make_unique<StepMemory>(g, D);
    if (m_cost.needsMemory() && !stepClock) m_timeMemory = std::make_unique<TimeMemory>(problem);

    const size_t maxNodes = static_cast<size_t>(n) + static_cast<size_t>(T) * static_cast<size_t>(std::max(D - 1, 0));
    m_placement.resize(static_cast<size_t>(n));
    if (D > 64) throw std::invalid_argument("REGAL decoder: at most 64 devices");
    m_xferBase.assign(static_cast<size_t>(T), 0);
    m_xferCount.assign(static_cast<size_t>(T), 0);
    m_freed.resize(m_cons.size() + 1);
    m_grouped.resize(m_cons.size() + 1);   // +1: the branch-free regrouping writes one past a tensor's run
    m_localEnd.resize(static_cast<size_t>(T));
    m_xferConsEnd.reserve(maxNodes - static_cast<size_t>(n));
    m_transfers.reserve(maxNodes - static_cast<size_t>(n));
    m_nodeKey.reserve(maxNodes);
    m_indeg.resize(maxNodes);
    m_sequence.reserve(maxNodes);
    m_order.reserve(static_cast<size_t>(n));
    m_orderRank.resize(static_cast<size_t>(n));
    m_devicePeaks.assign(static_cast<size_t>(D), 0.0);
    m_nodeKey.reserve(maxNodes);
}

void RegalDecoder::place(std::span<const double> keys) {
    if (m_balanced) return m_balanced->place(keys, m_layout, m_rule, m_symmetryOp, m_placement);
    const int n = m_layout.ops;
    for (OpId v = 0; v < n; ++v) {
        const auto& cands = m_devicesOfType[static_cast<size_t>(m_type[static_cast<size_t>(v)])];
        int best = cands[0];
        double bestKey = keys[m_layout.affinity(v, best)];
        for (size_t i = 1; i < cands.size(); ++i) {
            const double k = keys[m_layout.affinity(v, cands[i])];
            if (k > bestKey) {
                bestKey = k;
                best = cands[i];
            }
        }
        m_placement[static_cast<size_t>(v)] = best;
    }
    if (m_symmetryOp != kNoOp) m_placement[static_cast<size_t>(m_symmetryOp)] = 0;
}

void RegalDecoder::buildTransfers() {
    // Consumers sit on random devices, so every test below is branch-free: the consumers of each
    // tensor are regrouped (local ones first, then those of each remote device, ascending), and
    // Kahn's algorithm then walks each edge once without looking at devices again.
    m_transfers.clear();
    m_xferConsEnd.clear();
    const int* placement = m_placement.data();
    const OpId* cons = m_cons.data();
    OpId* grouped = m_grouped.data();
    const bool multi = m_layout.devices > 1;
    for (TensorId t = 0; t < m_layout.tensors; ++t) {
        const auto st = static_cast<size_t>(t);
        const int src = placement[m_producer[st]];
        const int begin = m_consStart[st], end = m_consStart[st + 1];
        std::uint64_t mask = 0;
        int pos = begin;
        for (int i = begin; i < end; ++i) {
            const OpId c = cons[i];
            const int q = placement[c];
            grouped[pos] = c;
            pos += q == src;
            mask |= std::uint64_t(1) << q;
        }
        m_localEnd[st] = pos;
        m_xferBase[st] = static_cast<int>(m_transfers.size());
        if (!multi) continue;
        mask &= ~(std::uint64_t(1) << src);
        for (; mask; mask &= mask - 1) {
            const int q = std::countr_zero(mask);
            for (int i = begin; i < end; ++i) {
                const OpId c = cons[i];
                grouped[pos] = c;
                pos += placement[c] == q;
            }
            m_transfers.push_back({t, q});
            m_xferConsEnd.push_back(pos);
        }
        m_xferCount[st] = static_cast<int>(m_transfers.size()) - m_xferBase[st];
    }
}

void RegalDecoder::sortTopologically(std::span<const double> keys) {
    const int n = m_layout.ops;
    const size_t nodes = static_cast<size_t>(n) + m_transfers.size();
    m_nodeKey.resize(nodes);
    // Ready nodes are taken by descending key, ties to the smaller node id: the order ranking
    // every node would give, without ranking them (sl::PriorityQueue).
    const auto opKeys = keys.subspan(m_layout.priority(0), static_cast<size_t>(n));
    std::copy(opKeys.begin(), opKeys.end(), m_nodeKey.begin());
    for (OpId v = 0; v < n; ++v) m_indeg[static_cast<size_t>(v)] = static_cast<int>(m_graph.inputs(v).size());
    for (size_t k = 0; k < m_transfers.size(); ++k) {
        m_nodeKey[static_cast<size_t>(n) + k] = keys[m_layout.transfer(m_transfers[k].tensor, m_transfers[k].device)];
        m_indeg[static_cast<size_t>(n) + k] = 1;
    }
    m_ready.assign(m_nodeKey);
    auto makeReady = [&](int node) { m_ready.push(node); };
    for (size_t i = 0; i < nodes; ++i)
        if (m_indeg[i] == 0) makeReady(static_cast<int>(i));

    m_sequence.clear();
    m_order.clear();
    int* indeg = m_indeg.data();
    const OpId* grouped = m_grouped.data();
    int* freed = m_freed.data();
    // Collect the nodes that become ready without a branch per edge, then insert them.
    auto release = [&](const OpId* c, const OpId* end) {
        int count = 0;
        for (; c != end; ++c) {
            freed[count] = *c;
            count += --indeg[*c] == 0;
        }
        for (int i = 0; i < count; ++i) makeReady(freed[i]);
    };
    while (!m_ready.empty()) {
        const int node = m_ready.take();
        m_sequence.push_back(node);
        if (node < n) {
            m_order.push_back(node);
            for (TensorId t : m_graph.outputs(node)) {
                const auto st = static_cast<size_t>(t);
                release(grouped + m_consStart[st], grouped + m_localEnd[st]);
                for (int k = m_xferBase[st], e = k + m_xferCount[st]; k < e; ++k) makeReady(n + k);   // in-degree 1
            }
        } else {
            const int k = node - n;
            const auto st = static_cast<size_t>(m_transfers[static_cast<size_t>(k)].tensor);
            const int begin = k == m_xferBase[st] ? m_localEnd[st] : m_xferConsEnd[static_cast<size_t>(k) - 1];
            release(grouped + begin, grouped + m_xferConsEnd[static_cast<size_t>(k)]);
        }
    }
    if (m_sequence.size() != nodes) throw std::logic_error("REGAL decoder: the extended graph has a cycle");
}

void RegalDecoder::listSchedule() {
    for (size_t i = 0; i < m_order.size(); ++i) m_orderRank[static_cast<size_t>(m_order[i])] = static_cast<int>(i);
    m_makespan = m_booked ? m_booked->time(m_placement, m_order)
                          : m_scheduler->makespanRanked(m_orderRank, m_order, m_placement);
}

double RegalDecoder::decode(std::span<const double> keys) {
    if (keys.size() != m_layout.size())
        throw std::invalid_argument("REGAL decoder: expected " + std::to_string(m_layout.size()) + " keys, got " +
                                    std::to_string(keys.size()));
    place(keys);
    buildTransfers();
    sortTopologically(keys);
    m_makespan = m_peak = std::nan("");
    if (m_needSchedule) listSchedule();
    if (m_stepMemory) m_peak = m_stepMemory->peak(m_placement, m_sequence, m_transfers, &m_devicePeaks);
    if (m_timeMemory && m_booked) {   // a source copy lives until its booked transfer ends: the schedule says when
        Schedule s = timedSchedule();
        return scoreSchedule(m_problem, s, m_cost);
    }
    if (m_timeMemory)
        m_peak = m_timeMemory->peak(m_scheduler->starts(), m_scheduler->ends(), m_scheduler->devices(),
                                    m_scheduler->startOrder(), m_scheduler->endOrder(), &m_devicePeaks);
    const bool memory = m_cost.needsMemory();
    return m_cost(m_cost.needsMakespan() ? m_makespan : 0, memory ? m_peak : 0,
                  memory ? std::span<const double>(m_devicePeaks) : std::span<const double>());
}

Schedule RegalDecoder::timedSchedule() {
    if (!m_booked) {
        Schedule s = m_scheduler->lastSchedule();
        s.order = m_order;
        return s;
    }
    Schedule placed;
    placed.ops.resize(m_placement.size());
    for (size_t v = 0; v < m_placement.size(); ++v) placed.ops[v].device = m_placement[v];
    placed.order = m_order;
    return timeOnSharedLinks(m_problem, placed);
}

Schedule RegalDecoder::schedule(std::span<const double> keys) {
    decode(keys);
    if (!m_needSchedule) listSchedule();   // decode() did not need the timed schedule
    Schedule s = timedSchedule();
    // Each transfer keeps its step in the decoded sequence (the step clock reads it).
    const auto D = static_cast<size_t>(m_layout.devices);
    std::vector<int> stepOf(static_cast<size_t>(m_layout.tensors) * D, -1);
    for (size_t i = 0; i < m_sequence.size(); ++i)
        if (const int node = m_sequence[i]; node >= m_layout.ops) {
            const TransferStep& x = m_transfers[static_cast<size_t>(node - m_layout.ops)];
            stepOf[static_cast<size_t>(x.tensor) * D + static_cast<size_t>(x.device)] = static_cast<int>(i);
        }
    for (ScheduledTransfer& x : s.transfers) x.step = stepOf[static_cast<size_t>(x.tensor) * D + static_cast<size_t>(x.to)];
    scoreSchedule(m_problem, s, m_cost);
    return s;
}

} // namespace sl
