// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Op durations on a platform of catalogue devices: every op whose work is known (ONNX, HLO,
/// Chakra) and that was not measured gets its roofline on its device's catalogue entry (a
/// per-device table when the devices differ), collectives the ring time on the platform's links;
/// other ops keep their duration. Choosing another platform re-derives every duration from the
/// same work without reopening the file.
///
/// \code
///   auto timed = sl::retimeGraph(*problem.graph, platform, sl::DeviceCatalog::instance());
///   if (timed.retimed) problem.graph = timed.retimed;   // timed.describe(): "... roofline: 230 ops estimated"
/// \endcode

#include "core/platform/platform.h"
#include "core/timing/catalog.h"

#include <memory>
#include <string>

namespace sl {

struct TimedGraph {
    std::shared_ptr<Graph> retimed;   ///< the graph with its new durations; null when unchanged
    int estimated = 0;   ///< ops timed by a device model here
    int measured = 0;    ///< ops with a measured duration (a profile, a trace), kept
    int given = 0;       ///< ops without work, keeping their file's duration
    int nominal = 0;     ///< without a machine: ops on the readers' nominal roofline (ONNX, HLO)
    std::string devices; ///< "NVIDIA A100 SXM4 80 GB" (or "3 device models"); empty when none
    /// "NVIDIA A100 SXM4 80 GB roofline: 212 ops estimated, 18 measured"; without a machine,
    /// "measured times", "the nominal device's roofline (1 TFLOP/s, 100 GB/s)" or "the file's own times"
    std::string describe() const;
};

/// No new graph (retimed null) when no device of `p` names a catalogue model or no op
/// has known work. Throws IoError when some devices name a model and others none, or a model is
/// not in the catalogue.
TimedGraph retimeGraph(const Graph& g, const Platform& p, const DeviceCatalog& catalog);

} // namespace sl
