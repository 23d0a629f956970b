// SPDX-License-Identifier: MIT
#pragma once
// Value snapshots that cross threads: a finished run and everything its views need, immutable once
// built by the worker.
#include "core/costmodel/memorytimeline.h"
#include "core/costmodel/target.h"
#include "core/optimizer/optimizer.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace sl::gui {

/// What finished schedules are also scored on: a target model (core/costmodel/target.h), the
/// noisy one's seed, and for the measured one the open graph with its profile applied.
struct ScoringTarget {
    TargetModel model = TargetModel::Proxy;
    std::uint64_t seed = 1;
    std::shared_ptr<const Graph> measured;   ///< Measured only; null: no profile to judge on

    bool operator==(const ScoringTarget&) const = default;
};

struct RunRecord {
    int id = 0;
    QString name;
    QString method;
    std::shared_ptr<const Problem> problem;
    std::shared_ptr<const RunResult> result;
    std::shared_ptr<const MemoryTimeline> memory;
    std::vector<OpId> criticalPath;   ///< ops on the longest chain, in time order
    RunOptions options;
    /// The platform panel's "score on" target and the schedule's speedup there (total work /
    /// makespan of its chains re-timed on the target); 0 when it could not be computed.
    ScoringTarget target;
    double targetSpeedup = 0;
    /// The problem's best makespan lower bound (core/analysis/bounds.h) and which bound gives it;
    /// 0 when not computed yet (attachBound).
    double makespanBound = 0;
    QString makespanBoundSource;
    /// The problem's peak-memory lower bound (LowerBounds::memory) and which bound gives it.
    double memoryBound = 0;
    QString memoryBoundSource;
    /// The graph the schedule belongs to, as the window titled it when it was opened, and its
    /// content fingerprint (core/graph/fingerprint.h): the results list shows a result with its
    /// graph, and no view draws it over another graph. Stamped by MainWindow when it adds the row.
    QString graphTitle;
    std::uint64_t graphFingerprint = 0;
    /// The result this one re-times on another machine (its id; widgets/session/graphtiming.h): choosing
    /// a machine again finds the re-timing made for it. 0: a result of its own.
    int retimedFrom = 0;
    const Schedule& schedule() const { return result->schedule; }
};

}   // namespace sl::gui

Q_DECLARE_METATYPE(sl::gui::RunRecord)
Q_DECLARE_METATYPE(sl::Progress)
