// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// How different a set of schedules is (Zhang et al., ICLR 2023, §5 "Metrics" and App. E.2):
/// pairwise distances between two schedules, their mean over all unordered pairs of a set, and the
/// number of distinct schedules. Our readings of the paper's one-line definitions are in
/// docs/diversity.md, "Choices where the paper is silent".
///
///  - GED: the chain graphs as unlabelled edge sets (u -> v iff u immediately precedes v on some
///    device), 100 · |A^x − A^y| / (|E_x| + |E_y|), in [0, 100]; or over the mean edge count,
///    in [0, 200] (the paper's "total number of edges" is ambiguous);
///  - d_inv: ‖τ^x − τ^y‖₂ over the start times in op-id order (invariant to device labels);
///  - d_sen: the same over the start times concatenated with κ · one-hot(device) (sensitive to
///    device labels): sqrt(d_inv² + 2κ² · #ops on different devices).
/// A schedule is its device chains (sl::deviceChains): "exact" duplicates have the same chains on
/// the same devices; duplicates "up to relabelling" have the same set of non-empty chains.
/// Distances read the schedules' own start times: pass proxy-timed schedules for the paper's metrics.

#include "core/costmodel/chaintiming.h"
#include "core/schedule/schedule.h"

#include <span>

namespace sl {

enum class GedDenominator {
    EdgeSum,    ///< |E_x| + |E_y|: GED in [0, 100] (default; fits the paper's values)
    EdgeMean,   ///< (|E_x| + |E_y|) / 2: GED in [0, 200]
};

struct DiversityOptions {
    GedDenominator gedDenominator = GedDenominator::EdgeSum;
    double kappa = 1;   ///< weight of the device one-hot in d_sen
};

/// Graph edit distance between the chain graphs of two schedules of the same graph (0 when
/// neither has a chain edge). Throws std::invalid_argument if the op counts differ.
double chainGed(const Schedule& x, const Schedule& y, GedDenominator denominator = GedDenominator::EdgeSum);
/// L2 distance between the start times.
double startTimeDistance(const Schedule& x, const Schedule& y);
/// L2 distance between start times concatenated with kappa x one-hot device.
double placementSensitiveDistance(const Schedule& x, const Schedule& y, double kappa = 1);

struct Diversity {
    double ged = 0;             ///< mean pairwise GED
    double dInv = 0;            ///< mean pairwise d_inv
    double dSen = 0;            ///< mean pairwise d_sen
    int distinct = 0;           ///< different device chains
    int distinctUpToRelabelling = 0;   ///< different sets of non-empty chains
};

struct DistinctCounts {
    int exact = 0;               ///< different device chains
    int upToRelabelling = 0;     ///< different sets of non-empty chains
};
/// The distinct counts alone: O(N log N) comparisons, no pairwise distances (for thousands of
/// samples, where diversity()'s N² distances would be the cost).
DistinctCounts distinctSchedules(std::span<const Schedule> schedules);

/// Mean pairwise distances over all unordered pairs (0 for fewer than two schedules) and the
/// distinct counts, for schedules of the same graph.
Diversity diversity(std::span<const Schedule> schedules, const DiversityOptions& options = {});

} // namespace sl
