// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// ONNX Runtime's profiling output as a profile. A session created with
/// `SessionOptions.enable_profiling` writes, at end_profiling(), a JSON array of Chrome-trace
/// events (`{"cat", "pid", "tid", "dur", "ts", "ph": "X", "name", "args"}`, times in
/// microseconds since profiling started):
/// - "Session" events: "model_loading_uri", "session_initialization", one "model_run" per run
///   (Run() call) that spans the kernels of that run, "SequentialExecutor::Execute", ...
/// - "Node" events, three per node per run: "<node>_fence_before", "<node>_kernel_time",
///   "<node>_fence_after". Only "_kernel_time" is the kernel; the fences are synchronisation. Its
///   `args` hold "op_name" (the kernel's op type, e.g. "Conv" or "FusedConv"), "provider"
///   ("CPUExecutionProvider"), node indices, sizes and "thread_scheduling_stats"; ORT writes the
///   scalar args as strings. A node without a name is reported as "<op_type>_<node index>", which
///   is how the ONNX reader names it too.
///
/// Per node: the median of its kernel_time durations over all runs, spread = interquartile range,
/// repetitions = how many (core/profile/repetitions.h). Nodes map to graph ops by name. ORT's
/// graph optimizations rename and merge nodes: a Conv "c" fused with its activation runs as
/// "fused c" (op "FusedConv"); Dropout and Identity nodes are removed; layout transformers add
/// "ReorderInput"/"ReorderOutput". Such names are reported (never dropped silently), and graph
/// ops ORT never ran keep their estimate and are listed.
///
/// The profile's "ops" hold every node ORT timed, the graph's and the unknown ones, so the file
/// keeps the whole measurement; applyProfile() reports the unknown ones again. Its "fingerprint"
/// and "model" are empty (the trace names neither: the caller may set "model"), "tool" is
/// "onnxruntime", "device" names the execution providers, and "created" comes from ORT's default
/// file name ("onnxruntime_profile__2024-05-01_10-20-30.json") when it has that form.
///
/// \code
///   sl::OrtImportReport report;
///   sl::Profile prof = sl::loadOrtProfile("onnxruntime_profile__2024-05-01_10-20-30.json", graph, report);
///   // report.matched of report.graphOps ops timed; report.unknownNodes, report.notRun to show
///   sl::applyProfile(graphCopy, prof, path);
/// \endcode

#include "core/graph/graph.h"
#include "core/profile/profile.h"

#include <string>
#include <string_view>
#include <vector>

namespace sl {

/// A node ORT timed that the graph has no op for (fused, inserted or renamed by ORT).
struct OrtUnknownNode {
    std::string name;   ///< ORT's node name, "_kernel_time" removed
    std::string type;   ///< its "op_name", e.g. "FusedConv"
    int events = 0;     ///< kernel_time events of it (one per run it ran in)
};

/// What importOrtProfile found, for the caller to show.
struct OrtImportReport {
    int runs = 0;           ///< "model_run" events; 0 when the file has none (then it is one run)
    int kernelEvents = 0;   ///< "_kernel_time" node events read (fence events are not counted)
    int graphOps = 0;       ///< ops of the graph
    int matched = 0;        ///< graph ops ORT timed
    std::vector<OrtUnknownNode> unknownNodes;   ///< in order of first appearance in the file
    std::vector<std::string> notRun;            ///< graph ops ORT never ran (op-id order): keep their estimate
    std::vector<std::string> providers;         ///< execution providers seen, in order of first appearance
    /// The order ORT ran the graph's ops in, one list per thread ("tid"): the kernels of the first
    /// run in start-time order, each op once. Threads are ordered by their first kernel in that
    /// run. Ops ORT did not run (and unknown nodes) are absent: the caller places them. Without
    /// "model_run" events, each op appears at its first kernel event anywhere in the file.
    std::vector<std::vector<OpId>> measuredOrderPerThread;
    std::vector<std::string> threadIds;         ///< the "tid" of each list, as the file writes it
};

/// Reads an ORT profiling trace; `sourceName` names it in errors and gives "created". Throws
/// IoError (naming the source and the event index) on text that is not JSON, not an event array
/// (or a {"traceEvents": [...]} object), a kernel event without a number "ts" or a non-negative
/// "dur", or a trace with no kernel events at all. The report is filled on success.
Profile importOrtProfile(std::string_view json, const std::string& sourceName, const Graph& g, OrtImportReport& report);
/// The same for a file (at most the "text-bytes" limit).
Profile loadOrtProfile(const std::string& path, const Graph& g, OrtImportReport& report);

} // namespace sl
