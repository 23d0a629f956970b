// SPDX-License-Identifier: MIT
#pragma once
// Where the open graph's op times come from, for the explorer: the file's own durations, a
// measured profile applied to them (core/profile), then the device models of the machine chosen
// in the Platform panel (core/timing/retime.h). The graph as read is kept, so every choice
// re-derives the times from the same work without reopening the file. And a schedule re-timed on
// another machine: its placement and per-device order kept (core/costmodel/chaintiming.h).
#include "widgets/session/types.h"

#include "core/profile/profilefile.h"

#include <QString>

#include <cstdint>
#include <memory>

namespace sl::gui {

/// A measured profile applied to a graph as read (core/profile/profilefile.h).
struct GraphProfile {
    QString path;
    AppliedProfile applied;               ///< the profile, its match, and describe()
    std::shared_ptr<const Graph> graph;   ///< the graph as read with the measured durations
};

/// The timing of an open graph: what it was read as, the profile on it, and what the status bar
/// and the graph's title say about its times.
struct GraphTiming {
    QString name;                                  ///< the graph's name as opened: "resnet50.onnx"
    std::shared_ptr<const Graph> asRead;           ///< the file's own durations
    std::uint64_t asReadFingerprint = 0;           ///< its fingerprint (a reload of it keeps the pins)
    std::shared_ptr<const GraphProfile> profile;   ///< null: none
    /// The profile judges instead of timing (the measured target): the graph keeps the machine's
    /// estimates and `judgedOn` holds the measured times (the profile's graph on the machine).
    bool profileIsTarget = false;
    std::shared_ptr<const Graph> judgedOn;   ///< null unless profileIsTarget and a profile
    QString source;   ///< "NVIDIA A100 SXM4 80 GB roofline: 176 ops estimated", "measured on …", "the file's own times"
    QString label;   ///< the title's suffix: "NVIDIA A100 SXM4 80 GB roofline", "measured"; empty for the file's times
};

/// Reads the profile at `path` (schedlab's profile JSON or ONNX Runtime's trace, told apart by
/// content) and applies it to a copy of `asRead`. Throws std::exception with the core's message
/// (a profile of another model: IoError naming the file); nothing is changed then.
std::shared_ptr<const GraphProfile> readAndApplyProfile(const QString& path,
                                                        const std::shared_ptr<const Graph>& asRead);

/// "resnet50.onnx — NVIDIA A100 SXM4 80 GB roofline": the name, and the label when there is one.
QString timedTitle(const GraphTiming& timing);

/// The graph's times on `machine`: the profiled graph (else the graph as read) re-timed by the
/// machine's catalogue models; the very graph as read when nothing changes. With
/// `timing.profileIsTarget` the graph as read is re-timed and the profiled one goes to
/// `timing.judgedOn`. `timing.source` and `timing.label` are filled; throws IoError when the
/// machine names a model the catalogue lacks.
std::shared_ptr<const Graph> deriveTimes(GraphTiming& timing, const Platform& machine);

/// The core's words: "measured on this CPU (…), 2024-05-01T10:20:30: 170 of 176 ops".
QString profileSummary(const GraphProfile& p);

/// A short name of a machine for a result's title: "DGX A100", "4 of DGX A100", "2 x NVIDIA L4
/// 24 GB", "4 devices".
QString machineLabel(const Platform& p);

}   // namespace sl::gui
