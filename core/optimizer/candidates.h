// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The candidate protocol of the GFlowNet paper (Zhang et al., ICLR 2023, Fig. 1 and §5 "Candidate
/// sampler"), shared by every method: rank the candidate schedules by proxy speedup, keep the top
/// k (ties: earlier candidate first, our choice), evaluate each on the target models and report
/// the best of k there, with the proxy top-1, the proxy top-k mean and the diversity of the kept
/// set (the paper's §5 "Metrics"; docs/diversity.md).
///
/// Candidates come from RunResult::candidates (RunOptions::candidates asks a method for them):
/// BRKGA's final population, the priority sampler's samples, a one-shot method's schedule.
///
/// \code
///   sl::CandidateOptions o{.topK = 100, .targets = {sl::TargetModel::Bandwidth}};
///   sl::CandidateReport r = sl::evaluateCandidates(problem, result.candidates, o);
///   // r.proxyTop1, r.proxyTopKMean, r.targets[0].bestOfK, r.diversity.ged
/// \endcode

#include "core/analysis/diversity.h"
#include "core/costmodel/problem.h"
#include "core/costmodel/target.h"
#include "core/optimizer/optimizer.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sl {

/// Indices of the `k` largest `proxySpeedups`, best first, ties to the smaller index.
std::vector<int> topKByProxy(std::span<const double> proxySpeedups, int k);

struct CandidateOptions {
    int topK = 100;
    std::vector<TargetModel> targets;
    std::uint64_t targetSeed = 1;   ///< the noisy target's durations
    DiversityOptions diversity;
    /// The measured target's graph (TargetModel::Measured): the problem's graph with a profile applied.
    std::shared_ptr<const Graph> measuredGraph;
    /// Rank on the problem as given (the catalogue's estimate with its links) rather than on its
    /// free-transfer proxy: what a measured target on a real machine judges.
    bool rankOnProblem = false;
};

struct TargetOutcome {
    TargetModel model = TargetModel::Proxy;
    double bestOfK = 0;            ///< max target speedup over the kept candidates
    int best = -1;                 ///< its candidate index (sample order)
    double ofProxyTop1 = 0;        ///< target speedup of the proxy's best candidate
};

struct CandidateReport {
    int candidates = 0;            ///< given
    int kept = 0;                  ///< min(k, candidates)
    std::vector<int> keptIndices;  ///< candidate indices, best proxy speedup first
    double proxyTop1 = 0;          ///< best proxy speedup
    double proxyTopKMean = 0;      ///< mean proxy speedup of the kept candidates
    std::vector<TargetOutcome> targets;   ///< one per CandidateOptions::targets, in order
    Diversity diversity;           ///< of the kept candidates, timed on the proxy
};

/// Runs the protocol on schedules of `p` (placement and per-device order are what count; each is
/// re-timed on the proxy and on every target). Throws std::invalid_argument without candidates
/// or with topK < 1.
CandidateReport evaluateCandidates(const Problem& p, std::span<const Schedule> candidates, const CandidateOptions& o);

/// `r.candidates`, or `r.schedule` alone when the method kept none.
std::vector<Schedule> candidatesOf(const RunResult& r);

} // namespace sl
