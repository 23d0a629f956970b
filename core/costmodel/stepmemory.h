// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The step clock of the cost model: peak memory of a total order, one op (or transfer) per step,
/// as REGAL (Paliwal et al., ICLR 2020, §3.1) and Topoformer (Gagrani et al., NeurIPS 2022, §3.2,
/// eqs. 1-3) define it; where their wording leaves a choice, see docs/costmodel.md, "Step clock".
///
/// At the step of op j on device q, q holds every tensor still live there (including j's inputs)
/// plus j's outputs and parameter bytes; after the step, parameters are dropped, inputs whose
/// local consumers have all run are freed, and outputs nobody reads are freed. A transfer
/// X(tau, q) allocates tau on q at its step and counts as a consumer of tau on the source device.
/// Single device, one output tensor per op: this is exactly Topoformer's eqs. 1-3 with eq. 15.
///
/// Cost O(steps + edges), allocation-free after construction. One StepMemory per thread.
///
/// \code
///   sl::StepMemory mem(graph, 1);
///   double peak = mem.peak(order);                 // single device, Topoformer's C(sigma)
/// \endcode

#include "core/graph/graph.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sl {

/// A transfer step: tensor `tensor` copied from its producer's device to `device`.
struct TransferStep {
    TensorId tensor = 0;
    int device = 0;
};

class StepMemory {
public:
    /// `graph` must be finalized and outlive this object.
    StepMemory(const Graph& graph, int deviceCount);

    /// Single device: peak over steps of a topological order of all ops.
    double peak(std::span<const OpId> order);

    /// Several devices. `sequence` entries below opCount() are ops; entry opCount()+k is
    /// `transfers[k]`. Every transfer the placement implies must appear before its consumers.
    /// `devicePeaks`, when non-null, receives the peak of each device.
    double peak(std::span<const int> placement, std::span<const int> sequence,
                std::span<const TransferStep> transfers, std::vector<double>* devicePeaks = nullptr);

    /// Several devices, each transfer just before the first consumer on its destination (as
    /// sl::insertTransfers places them), without allocating.
    double peakOfOrder(std::span<const int> placement, std::span<const OpId> order,
                       std::vector<double>* devicePeaks = nullptr);

    /// Partial cost of a prefix: call reset(), then step(v) per op; single device only.
    void reset();
    double step(OpId v);   ///< returns the memory in use during this step (M_t)
    double live() const { return m_live[0]; }
    double peakSoFar() const { return m_peak[0]; }

    /// When true, outputs nobody consumes stay resident to the end (Topoformer's option).
    bool keepOutputs = false;

private:
    void resizeSteps(size_t steps, size_t nodes);
    void packStepLanes(std::span<const int> placement);
    void findConsumerSteps(int none);
    void release(size_t tensor, size_t src, int latest, int producerStep);
    void walkSteps(size_t steps);

    const Graph& m_graph;
    int m_devices;
    // Hot fields copied out of the (large) Op and Tensor structs for cache locality.
    std::vector<double> m_bytes;        ///< per tensor
    std::vector<OpId> m_producer;       ///< per tensor
    std::vector<double> m_params, m_outputBytes;   ///< per op
    std::vector<double> m_deadOutputBytes;         ///< per op: outputs nobody consumes
    std::vector<int> m_consumerCount;   ///< consumer entries per tensor
    std::vector<int> m_remaining;       ///< per tensor: step()'s unfinished consumer entries
    std::vector<double> m_live, m_peak; ///< per device
    // peakOfOrder: the input edges as one flat list (sl::inputEdgesInRounds), and its workspace
    std::vector<std::int64_t> m_edgeSlot;          ///< per edge: its tensor << m_laneBits
    std::vector<OpId> m_edgeOp;
    std::vector<int> m_nodeStep;                   ///< per op, then per transfer: its step
    std::vector<std::int64_t> m_stepLane;          ///< per op: step << m_laneBits | device
    std::vector<int> m_consumerSteps;              ///< per (tensor, device lane): first and last consumer step
    std::vector<int> m_lastCopyOut;                ///< per tensor: step of its last transfer out, or -1
    // per step: its device lane, what it allocates (outputs, parameters, copies in), its parameters
    std::vector<int> m_entryLane;
    std::vector<double> m_entryAlloc, m_entryParams;
    std::vector<double> m_freeAt;                  ///< per (step, device lane): released after it
    size_t m_stride = 1;                           ///< device lanes: the devices rounded up to a power of 2
    int m_laneBits = 0;                            ///< log2(m_stride)
};

/// Builds the step sequence for an op order under a placement: each transfer X(tau, q) is placed
/// just before the first consumer of tau on q. Fills `sequence` and `transfers` for peak().
void insertTransfers(const Graph& g, std::span<const int> placement, std::span<const OpId> order,
                     std::vector<int>& sequence, std::vector<TransferStep>& transfers);

} // namespace sl
