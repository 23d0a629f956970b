// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The computation-graph model: ops and the tensors that flow between them.
///
/// A tensor has exactly one producer op, any number of consumer ops and a size in bytes; a zero-byte
/// tensor is a pure control dependency. Op-to-op edges are derived from tensors (a multigraph,
/// deduplicated in the adjacency spans). Build the graph with addOp/addTensor/addConsumer, then call
/// finalize(): it validates (cycles, dangling references, bad numbers, duplicate names) and builds
/// the flat adjacency arrays that the cost model walks. A finalized graph is immutable by contract
/// and safe to share between threads.
///
/// \code
///   sl::Graph g;
///   auto a = g.addOp({.name = "a", .duration = 2});
///   auto b = g.addOp({.name = "b", .duration = 3});
///   g.addEdge(a, b, 1024);      // one tensor of 1 KiB from a to b
///   g.finalize();               // throws sl::GraphError naming the fault
/// \endcode

#include "core/graph/opwork.h"
#include "core/util/errors.h"

#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sl {

using OpId = std::int32_t;
using TensorId = std::int32_t;
inline constexpr OpId kNoOp = -1;
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// What one unit of `Op::duration` means. Importers set it from the source format: ONNX and HLO
/// durations come from the roofline in microseconds, WfCommons runtimes are seconds, job-shop and
/// STG files (and most generators) use abstract units.
enum class TimeUnit { Abstract, Microseconds, Seconds };
/// "units", "us", "s" (the native JSON spelling, also what `info` prints)
std::string_view toString(TimeUnit u);
/// Inverse of toString; false for an unknown spelling.
bool parseTimeUnit(std::string_view text, TimeUnit& out);

/// An operation. Durations are in the graph's TimeUnit.
struct Op {
    std::string name;
    std::string type;            ///< op type, e.g. "Conv" or "MatMul"; free text
    double duration = 0;         ///< compute time estimate on a device of its machine type
    double paramBytes = 0;       ///< weights read by the op (counted at its own step only)
    double resourceDemand = 1;   ///< share of a device's resource capacity while it runs
    int machineType = 0;         ///< runs only on devices of this machine type
    /// Optional per-device durations (heterogeneous platforms, e.g. HEFT's cost matrix). Empty:
    /// `duration` everywhere. Otherwise one entry per device of the platform.
    std::vector<double> deviceDurations;
    /// What the op computes (ONNX, HLO, Chakra): a device model re-derives `duration` and
    /// `deviceDurations` from it (core/timing). Unknown for graphs without shapes.
    OpWork work;
    /// Where `duration` came from (the DAG view colours "measured / estimated" by it).
    TimeSource timeSource = TimeSource::Given;
};

struct Tensor {
    std::string name;
    OpId producer = kNoOp;
    std::vector<OpId> consumers;
    double bytes = 0;
};

class Graph {
public:
    OpId addOp(Op op);
    TensorId addTensor(std::string name, OpId producer, double bytes);
    void addConsumer(TensorId tensor, OpId consumer);
    /// One new tensor from `from` to `to` (named "from->to").
    TensorId addEdge(OpId from, OpId to, double bytes = 0);

    /// Validates and builds the derived structure. Throws GraphError. Idempotent.
    void finalize();
    bool finalized() const { return m_finalized; }

    int opCount() const { return static_cast<int>(m_ops.size()); }
    int tensorCount() const { return static_cast<int>(m_tensors.size()); }
    const Op& op(OpId id) const { return m_ops[static_cast<size_t>(id)]; }
    Op& mutableOp(OpId id);   ///< un-finalizes the graph
    /// Changes an op's timing only (its duration, per-device durations and their source): the
    /// derived structure does not depend on it, so a finalized graph stays finalized. Throws
    /// GraphError naming the op for a negative or non-finite duration.
    void setTiming(OpId id, double duration, std::vector<double> deviceDurations, TimeSource source);
    const Tensor& tensor(TensorId id) const { return m_tensors[static_cast<size_t>(id)]; }
    const std::vector<Op>& ops() const { return m_ops; }
    const std::vector<Tensor>& tensors() const { return m_tensors; }
    /// Op by name, or kNoOp.
    OpId findOp(std::string_view name) const;

    // ---- derived, valid after finalize() ----
    /// Distinct predecessor / successor ops (parallel tensors collapsed).
    std::span<const OpId> predecessors(OpId v) const { return slice(m_predStart, m_preds, v); }
    std::span<const OpId> successors(OpId v) const { return slice(m_succStart, m_succs, v); }
    /// Tensors consumed / produced by an op.
    std::span<const TensorId> inputs(OpId v) const { return slice(m_inStart, m_ins, v); }
    std::span<const TensorId> outputs(OpId v) const { return slice(m_outStart, m_outs, v); }
    /// A topological order of all ops (Kahn's algorithm, smallest id first among ready ops).
    const std::vector<OpId>& topologicalOrder() const { return m_topo; }
    /// Number of distinct op-to-op edges.
    int edgeCount() const { return static_cast<int>(m_succs.size()); }
    /// Sum of output tensor bytes of an op (the op's "m(v)" in the single-device memory papers).
    double outputBytes(OpId v) const { return m_outputBytes[static_cast<size_t>(v)]; }
    double totalWork() const;
    /// The unit of every duration (does not affect finalize(); survives copies).
    TimeUnit timeUnit() const { return m_timeUnit; }
    void setTimeUnit(TimeUnit u) { m_timeUnit = u; }

    /// Duration of op `v` on device `d` (per-device table if present, else `duration`).
    double durationOn(OpId v, int device) const {
        const Op& o = op(v);
        return o.deviceDurations.empty() ? o.duration : o.deviceDurations[static_cast<size_t>(device)];
    }

private:
    template <typename T>
    static std::span<const T> slice(const std::vector<int>& start, const std::vector<T>& data, OpId v) {
        const auto b = static_cast<size_t>(start[static_cast<size_t>(v)]);
        const auto e = static_cast<size_t>(start[static_cast<size_t>(v) + 1]);
        return {data.data() + b, e - b};
    }
    void validateFields() const;
    void buildAdjacency();
    void checkAcyclic();

    std::vector<Op> m_ops;
    std::vector<Tensor> m_tensors;
    std::unordered_map<std::string, OpId> m_byName;
    bool m_finalized = false;
    TimeUnit m_timeUnit = TimeUnit::Abstract;

    std::vector<int> m_predStart, m_succStart, m_inStart, m_outStart;
    std::vector<OpId> m_preds, m_succs;
    std::vector<TensorId> m_ins, m_outs;
    std::vector<OpId> m_topo;
    std::vector<double> m_outputBytes;
};

} // namespace sl
