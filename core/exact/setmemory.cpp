// SPDX-License-Identifier: MIT
#include "core/exact/setmemory.h"

#include "core/costmodel/stepmemory.h"
#include "core/heuristics/memoryorders.h"

namespace sl {

SetStepMemory::SetStepMemory(const Graph& g) : m_g(g) {
    const auto n = static_cast<size_t>(g.opCount()), tensors = static_cast<size_t>(g.tensorCount());
    m_outputBytes.resize(n);
    m_params.resize(n);
    for (OpId v = 0; v < g.opCount(); ++v) {
        m_outputBytes[static_cast<size_t>(v)] = g.outputBytes(v);
        m_params[static_cast<size_t>(v)] = g.op(v).paramBytes;
    }
    m_bytes.resize(tensors);
    for (TensorId t = 0; t < g.tensorCount(); ++t) m_bytes[static_cast<size_t>(t)] = g.tensor(t).bytes;
    // Readers in CSR form, each tensor's in increasing op id (the order the ops list it).
    m_readerStart.assign(tensors + 1, 0);
    for (OpId v = 0; v < g.opCount(); ++v)
        for (TensorId t : g.inputs(v)) ++m_readerStart[static_cast<size_t>(t) + 1];
    for (size_t t = 0; t < tensors; ++t) m_readerStart[t + 1] += m_readerStart[t];
    m_readers.resize(static_cast<size_t>(m_readerStart[tensors]));
    std::vector<int> fill(m_readerStart.begin(), m_readerStart.end() - 1);
    for (OpId v = 0; v < g.opCount(); ++v)
        for (TensorId t : g.inputs(v)) m_readers[static_cast<size_t>(fill[static_cast<size_t>(t)]++)] = v;
    // Outputs nobody reads are freed right after their producer's step.
    m_deadOutputs.assign(n, 0);
    for (OpId v = 0; v < g.opCount(); ++v)
        for (TensorId t : g.outputs(v))
            if (m_readerStart[static_cast<size_t>(t)] == m_readerStart[static_cast<size_t>(t) + 1])
                m_deadOutputs[static_cast<size_t>(v)] += m_bytes[static_cast<size_t>(t)];
}

MemoryOrder bestClassicMemoryOrder(const Graph& g) {
    MemoryOrder best;
    StepMemory mem(g, 1);
    for (auto* rule : {&xlaListOrder, &dfsOrder, &postOrder, &bfsOrder}) {
        std::vector<OpId> order = rule(g);
        const double peak = mem.peak(order);
        if (best.order.empty() || peak < best.peak) {
            best.order = std::move(order);
            best.peak = peak;
        }
    }
    return best;
}

}   // namespace sl
