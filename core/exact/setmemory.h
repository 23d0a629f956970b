// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The step-clock cost rules on sets of scheduled ops, shared by the single-device set searches
/// (exact-memory, mem-approx-dp): after a prefix whose op set is X, the live bytes depend on X
/// only; the step of a ready op v holds them plus v's outputs and parameters; after it, v's
/// parameters, its outputs nobody reads and its inputs whose readers are all in X + v are freed.
/// These are StepMemory's rules with keepOutputs = false (core/costmodel/stepmemory.h); both
/// searches add the bytes in the same order, so their costs agree bit for bit.

#include "core/graph/graph.h"

#include <vector>

namespace sl {

class SetStepMemory {
public:
    /// `g` must be finalized and outlive this object.
    explicit SetStepMemory(const Graph& g);

    /// Memory in use during the step of `v` when `live` bytes are live before it.
    double stepBytes(double live, OpId v) const {
        return live + m_outputBytes[static_cast<size_t>(v)] + m_params[static_cast<size_t>(v)];
    }

    /// Live bytes after the step of `v` from `live` before it; `done(op)` says whether an op is in
    /// the prefix including `v`.
    template <class Done>
    double liveAfter(OpId v, double live, const Done& done) const {
        double after = live + m_outputBytes[static_cast<size_t>(v)] - m_deadOutputs[static_cast<size_t>(v)];
        for (TensorId t : m_g.inputs(v))
            if (allRead(t, done)) after -= m_bytes[static_cast<size_t>(t)];
        return after;
    }

private:
    template <class Done>
    bool allRead(TensorId t, const Done& done) const {
        for (int i = m_readerStart[static_cast<size_t>(t)]; i < m_readerStart[static_cast<size_t>(t) + 1]; ++i)
            if (!done(m_readers[static_cast<size_t>(i)])) return false;
        return true;
    }

    const Graph& m_g;
    std::vector<double> m_outputBytes, m_params, m_deadOutputs;   ///< per op
    std::vector<double> m_bytes;                                  ///< per tensor
    std::vector<int> m_readerStart;                               ///< per tensor + 1: its readers in m_readers
    std::vector<OpId> m_readers;   ///< distinct consumer ops, as StepMemory counts them (through inputs())
};

/// A single-device order and its step-clock peak (StepMemory, keepOutputs = false).
struct MemoryOrder {
    std::vector<OpId> order;
    double peak = 0;
};

/// The incumbent of the set searches: the best of xlaListOrder, dfsOrder, postOrder and bfsOrder
/// (core/heuristics/memoryorders.h); the first one wins ties.
MemoryOrder bestClassicMemoryOrder(const Graph& g);

}   // namespace sl
