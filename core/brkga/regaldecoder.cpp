// SPDX-License-Identifier: MIT
#include "core/brkga/regaldecoder.h"

#include "core/brkga/decoderbasics.h"

#include <algorithm>
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

RegalDecoder::RegalDecoder(const Problem& problem, bool symmetryBreaking)
    : m_problem(problem), m_graph(problem.g()) {
    problem.check();
    const Graph& g = m_graph;
    const int n = g.opCount(), T = g.tensorCount(), D = problem.platform.deviceCount();
    m_layout = {n, T, D};
    m_needMakespan = brkga::needsMakespan(problem);
    m_needMemory = brkga::needsMemory(problem);
    if (problem.objective.kind == Objective::Weighted) {
        const auto s = brkga::objectiveScales(problem);
        m_makespanScale = s.makespan;
        m_memoryScale = s.memory;
    }
    m_devicesOfType = problem.platform.devicesByType();
    m_type.resize(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) m_type[static_cast<size_t>(v)] = g.op(v).machineType;

    m_producer.resize(static_cast<size_t>(T));
    m_consStart.assign(static_cast<size_t>(T) + 1, 0);
    for (TensorId t = 0; t < T; ++t) {
        const Tensor& x = g.tensor(t);
        m_producer[static_cast<size_t>(t)] = x.producer;
        std::vector<OpId> c = x.consumers;
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end()), c.end());
        m_cons.insert(m_cons.end(), c.begin(), c.end());
        m_consStart[static_cast<size_t>(t) + 1] = static_cast<int>(m_cons.size());
    }

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

    if (m_needMakespan) m_scheduler = std::make_unique<ListScheduler>(problem);
    if (m_needMemory) m_memory = std::make_unique<StepMemory>(g, D);

    const size_t maxNodes = static_cast<size_t>(n) + static_cast<size_t>(T) * static_cast<size_t>(std::max(D - 1, 0));
    m_placement.resize(static_cast<size_t>(n));
    m_xferOf.assign(static_cast<size_t>(T) * static_cast<size_t>(D), -1);
    m_transfers.reserve(maxNodes - static_cast<size_t>(n));
    m_nodeKey.reserve(maxNodes);
    m_indeg.resize(maxNodes);
    m_ready.resize(static_cast<int>(std::max<size_t>(maxNodes, 1)));
    m_sequence.reserve(maxNodes);
    m_order.reserve(static_cast<size_t>(n));
    m_listPriority.resize(static_cast<size_t>(n));
    m_devicePeaks.assign(static_cast<size_t>(D), 0.0);
    m_nodeKey.resize(maxNodes);   // grow PrioritySort's buffers once
    m_sort.sort(m_nodeKey);
}

void RegalDecoder::place(std::span<const double> keys) {
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
    for (const TransferStep& x : m_transfers)   // undo the previous decode's marks
        m_xferOf[static_cast<size_t>(x.tensor) * static_cast<size_t>(m_layout.devices) + static_cast<size_t>(x.device)] = -1;
    m_transfers.clear();
    const auto D = static_cast<size_t>(m_layout.devices);
    if (D < 2) return;
    for (TensorId t = 0; t < m_layout.tensors; ++t) {
        const int src = m_placement[static_cast<size_t>(m_producer[static_cast<size_t>(t)])];
        int* marks = m_xferOf.data() + static_cast<size_t>(t) * D;
        bool any = false;
        for (int i = m_consStart[static_cast<size_t>(t)]; i < m_consStart[static_cast<size_t>(t) + 1]; ++i) {
            const int q = m_placement[static_cast<size_t>(m_cons[static_cast<size_t>(i)])];
            if (q != src) marks[q] = -2, any = true;
        }
        if (!any) continue;
        for (size_t q = 0; q < D; ++q)   // numbered by (tensor, device)
            if (marks[q] == -2) {
                marks[q] = static_cast<int>(m_transfers.size());
                m_transfers.push_back({t, static_cast<int>(q)});
            }
    }
}

void RegalDecoder::sortTopologically(std::span<const double> keys) {
    const int n = m_layout.ops;
    const auto D = static_cast<size_t>(m_layout.devices);
    const size_t nodes = static_cast<size_t>(n) + m_transfers.size();
    m_nodeKey.resize(nodes);
    for (OpId v = 0; v < n; ++v) {
        m_nodeKey[static_cast<size_t>(v)] = keys[m_layout.priority(v)];
        m_indeg[static_cast<size_t>(v)] = static_cast<int>(m_graph.inputs(v).size());
    }
    for (size_t k = 0; k < m_transfers.size(); ++k) {
        m_nodeKey[static_cast<size_t>(n) + k] = keys[m_layout.transfer(m_transfers[k].tensor, m_transfers[k].device)];
        m_indeg[static_cast<size_t>(n) + k] = 1;
    }
    m_sort.sort(m_nodeKey);   // rank 0 = highest key; ties to the smaller node id
    const auto rankOf = m_sort.rankOf();
    const auto nodeAt = m_sort.order();
    m_ready.clear();
    for (size_t i = 0; i < nodes; ++i)
        if (m_indeg[i] == 0) m_ready.insert(rankOf[i]);

    m_sequence.clear();
    m_order.clear();
    auto release = [&](int node) {
        if (--m_indeg[static_cast<size_t>(node)] == 0) m_ready.insert(rankOf[static_cast<size_t>(node)]);
    };
    for (int r = m_ready.next(0); r != RankSet::npos; r = m_ready.next(0)) {
        m_ready.erase(r);
        const int node = nodeAt[static_cast<size_t>(r)];
        m_sequence.push_back(node);
        if (node < n) {
            m_order.push_back(node);
            const int src = m_placement[static_cast<size_t>(node)];
            for (TensorId t : m_graph.outputs(node)) {
                for (int i = m_consStart[static_cast<size_t>(t)]; i < m_consStart[static_cast<size_t>(t) + 1]; ++i) {
                    const OpId c = m_cons[static_cast<size_t>(i)];
                    if (m_placement[static_cast<size_t>(c)] == src) release(c);
                }
                if (D > 1)
                    for (size_t q = 0; q < D; ++q) {
                        const int k = m_xferOf[static_cast<size_t>(t) * D + q];
                        if (k >= 0) release(n + k);
                    }
            }
        } else {
            const TransferStep& x = m_transfers[static_cast<size_t>(node - n)];
            for (int i = m_consStart[static_cast<size_t>(x.tensor)]; i < m_consStart[static_cast<size_t>(x.tensor) + 1]; ++i) {
                const OpId c = m_cons[static_cast<size_t>(i)];
                if (m_placement[static_cast<size_t>(c)] == x.device) release(c);
            }
        }
    }
    if (m_sequence.size() != nodes) throw std::logic_error("REGAL decoder: the extended graph has a cycle");
}

double RegalDecoder::decode(std::span<const double> keys) {
    if (keys.size() != m_layout.size())
        throw std::invalid_argument("REGAL decoder: expected " + std::to_string(m_layout.size()) + " keys, got " +
                                    std::to_string(keys.size()));
    place(keys);
    buildTransfers();
    sortTopologically(keys);
    m_makespan = m_peak = std::nan("");
    if (m_needMakespan) {
        const double total = static_cast<double>(m_sequence.size());
        for (size_t i = 0; i < m_sequence.size(); ++i)
            if (m_sequence[i] < m_layout.ops) m_listPriority[static_cast<size_t>(m_sequence[i])] = total - static_cast<double>(i);
        m_makespan = m_scheduler->makespan(m_listPriority, m_placement);
    }
    if (m_needMemory) m_peak = m_memory->peak(m_placement, m_sequence, m_transfers, &m_devicePeaks);
    return scalarCost(m_problem, m_needMakespan ? m_makespan : 0, m_needMemory ? m_peak : 0,
                      m_needMemory ? std::span<const double>(m_devicePeaks) : std::span<const double>(),
                      m_makespanScale, m_memoryScale);
}

Schedule RegalDecoder::schedule(std::span<const double> keys) {
    decode(keys);
    const double total = static_cast<double>(m_sequence.size());
    for (size_t i = 0; i < m_sequence.size(); ++i)
        if (m_sequence[i] < m_layout.ops) m_listPriority[static_cast<size_t>(m_sequence[i])] = total - static_cast<double>(i);
    ListScheduler ls(m_problem);
    Schedule s = ls.schedule(m_listPriority, m_placement);
    if (m_problem.objective.kind != Objective::Makespan) {
        s.order = m_order;
        s.peakMemory = m_peak;
        s.devicePeakMemory = m_devicePeaks;
        s.memoryClock = "step";
    }
    return s;
}

} // namespace sl
