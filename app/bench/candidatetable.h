// SPDX-License-Identifier: MIT
#pragma once
/// The candidate-protocol tables that `bench targets` and `bench gflownet` print (Zhang et al. 2023,
/// §5 "Candidate sampler", in the shape of their Tables 1-2): one row per method, the proxy top-1 and
/// top-k mean speedups, the best of k on each target, the diversity of the top k, seconds.
///
/// A method is given as `name[:key=value[;key=value...]]`, e.g. `gflownet:temperature=0.005`;
/// numeric values go to RunOptions::values, others to RunOptions::strings. Three keys are not the
/// method's own: `weights` (a neural method's weight file), `budget` (its evaluations or samples,
/// over the bench's) and `label` (the row's name, e.g. `brkga-chains:budget=60200;label=BRKGA 75 gen`).

#include "core/costmodel/problem.h"
#include "core/costmodel/target.h"
#include "core/optimizer/candidates.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl::cli {

struct MethodSpec {
    std::string label;   ///< for the row: the `label` key, else the text as given
    std::string name;    ///< the registered method
    RunOptions options;  ///< options.budget: the `budget` key; 0: the bench's (ProtocolSetup::budget)
};
/// Throws UsageError for an unknown method or a malformed option.
MethodSpec parseMethodSpec(const std::string& text);
std::vector<std::string> splitList(const std::string& text, char separator = ',');

struct ProtocolSetup {
    int topK = 100;
    std::int64_t budget = 0;   ///< evaluations of search methods; 0: the method's default
    std::vector<TargetModel> targets;
    std::uint64_t targetSeed = 1;
};

/// Means over graphs of one method's candidate reports, and its seconds (run + protocol).
struct Tally {
    double top1 = 0, topKMean = 0, ged = 0, dInv = 0, dSen = 0, distinct = 0, seconds = 0;
    std::vector<double> targets;
    int count = 0;
    /// One run's numbers: top-1, top-k mean, GED, d_inv, d_sen, distinct, seconds, then each
    /// target's best of k.
    void add(const std::vector<double>& numbers);
};

/// Runs `method` on `p` (seeded) and the protocol on its candidates; adds them to `tally`. One item
/// of a distributed bench (shard.h).
void runProtocol(const MethodSpec& method, const Problem& p, const ProtocolSetup& setup, std::uint64_t seed, Tally& tally);

void printTableHeader(const std::vector<TargetModel>& targets);
void printTableRow(const std::string& label, const Tally& t);
/// A row with target columns only (the other columns print "-"): a reference, not a candidate method.
void printTargetOnlyRow(const std::string& label, const std::vector<double>& targetSpeedups);
/// The legend printed under the tables.
void printTableLegend();

} // namespace sl::cli
