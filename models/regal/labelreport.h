// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Where imitation is not enough (issue 51, item 3): what REGAL's policy predicts against the
/// oracle's label on a label set's entries, per device count and per feature bin, beside what the
/// population the policy reads already says. Placement: the share of ops whose device (the
/// policy's largest affinity mean; the population best's device) is the label's, under the device
/// labelling closest to the population best (so both are judged in one numbering, chosen without
/// the policy), and where the policy moves an op off the population best's device, whether the
/// label agrees with the move. Order: Spearman's rank correlation of the policy's priority means,
/// and of the population's mean positions, with the label's sequence. Then where the oracle's gain
/// comes from: REGAL's run steered toward the label's placement and order, toward its placement
/// alone and toward its order alone, each against plain BRKGA at the same seed and budget, beside
/// plain BRKGA at another seed (how far a run moves by chance alone). `train regal --report SET`.
/// Includes LibTorch: models/ only.

#include "core/regal/labels.h"
#include "models/regal/network.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace sl::regal {

struct LabelReportConfig {
    Objective objective = Objective::Memory;
    bool validationEntries = true;   ///< the label set's validation entries, else its training entries
    int seeds = 1;                   ///< BRKGA seeds per entry (each its own population and features)
    int steerAfter = 3;
    std::int64_t budget = 5000;      ///< evaluations of the runs of the oracle table
    int threads = 1;
};

/// Spearman's rank correlation of two orders of the same ops given as keys (ops ranked by key,
/// ascending, ties by op id): 1 when both sort the ops alike, -1 when one reverses the other.
double rankCorrelation(std::span<const double> a, std::span<const double> b);

/// The share of the edges (source[i] -> target[i]) whose two ops `placement` puts on one device;
/// 1 when there is no edge.
double edgesKept(std::span<const int> placement, std::span<const std::int32_t> source, std::span<const std::int32_t> target);

/// Prints the two tables through `print`, a line at a time. Throws std::invalid_argument when the
/// set has no entry of the objective.
void printLabelReport(RegalPolicy& policy, const OracleLabelSet& labels, const LabelReportConfig& config,
                      const std::function<void(const std::string&)>& print);

} // namespace sl::regal
