// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The temperature sweep (our tool, after the GFlowNet paper's Fig. 3, Zhang et al. 2023, §5.2;
/// docs/sweep.md, "What the paper gives and what is ours"): for each σ of a
/// list, draw N schedules from a TemperatureSampler, keep the top k by proxy speedup and report
///  - mean, standard deviation and top-1 of the proxy speedup U over the N samples, the top-k mean;
///  - distinct schedules over the N samples, exact and up to device relabelling;
///  - GED, d_inv and d_sen over the top k (core/analysis/diversity.h);
///  - the best of k on every target model (core/optimizer/candidates.h's protocol, reused);
///  - the proxy top-1 schedule's device chains, so a view can show it again.
/// Files: core/sweep/sweepio.h (JSON, CSV).
///
/// \code
///   auto sampler = sl::SamplerRegistry::instance().create("list-gumbel");
///   sl::SweepOptions o;   // 20 log-spaced σ in [0.001, 1], N = 1000, k = 100, all targets
///   sl::Sweep s = sl::runSweep(problem, "list-gumbel", *sampler, o, stop, progress);
///   sl::Schedule best = sl::bestSchedule(problem, s.points[3]);
/// \endcode

#include "core/analysis/diversity.h"
#include "core/costmodel/chaintiming.h"
#include "core/costmodel/target.h"
#include "core/optimizer/candidates.h"
#include "core/optimizer/sampler.h"

#include <cstdint>
#include <functional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

namespace sl {

/// `count` temperatures evenly spaced in log10 between `lo` and `hi` (both included; one: lo).
/// Throws std::invalid_argument unless 0 < lo <= hi and count >= 1.
std::vector<double> logSpacedTemperatures(int count = 20, double lo = 1e-3, double hi = 1);

struct SweepOptions {
    std::vector<double> temperatures = logSpacedTemperatures();
    int samples = 1000;   ///< N per temperature
    int topK = 100;       ///< k
    std::vector<TargetModel> targets = {TargetModel::Noisy, TargetModel::Bandwidth, TargetModel::Latency};
    std::uint64_t seed = 1;         ///< temperature i samples with deriveSeed(seed, i)
    std::uint64_t targetSeed = 1;   ///< the noisy target's durations
    /// The measured target's graph (TargetModel::Measured): the problem's graph with a profile applied.
    std::shared_ptr<const Graph> measuredGraph;
    int threads = 1;
    DiversityOptions diversity;
};

/// What one temperature gave.
struct SweepPoint {
    double temperature = 0;
    int samples = 0;        ///< drawn
    double proxyMean = 0;   ///< U over the N samples
    double proxyStd = 0;    ///< population standard deviation of U
    double proxyTop1 = 0;
    double proxyTopKMean = 0;
    int kept = 0;                         ///< min(k, samples)
    DistinctCounts distinct;              ///< over the N samples
    Diversity topK;                       ///< over the kept (its distinct counts: of the top k)
    std::vector<TargetOutcome> targets;   ///< SweepOptions::targets, in order; `best` is not kept
    DeviceChains best;                    ///< the proxy top-1 schedule's device chains
    double bestMakespan = 0;              ///< its proxy makespan (graph time units)
};

struct Sweep {
    std::string sampler;
    std::string graphName;   ///< for titles and for matching a reopened file
    int ops = 0;
    int devices = 0;
    TimeUnit timeUnit = TimeUnit::Abstract;   ///< of the graph's durations (d_inv, d_sen, makespans)
    SweepOptions options;
    std::vector<SweepPoint> points;   ///< one per temperature run (fewer when stopped)
    bool cancelled = false;
};

/// What follows from the samples' proxy speedups alone, cheap enough to recompute while samples
/// stream in (the Temperature panel's numbers so far): top-1, mean, population std and the mean of
/// the top k = min(topK, drawn); the fields that need the schedules stay empty. Throws
/// std::invalid_argument for no speedups or topK < 1.
SweepPoint summarizeSpeedups(double temperature, std::span<const double> speedups, int topK);

/// Summarises one temperature's samples (also what the Temperature panel shows): summarizeSpeedups,
/// then distinct schedules and the candidate protocol. Throws std::invalid_argument for an empty set.
SweepPoint summarizeSamples(const Problem& p, double temperature, const SampleSet& samples, const SweepOptions& o);

/// A sweep of `p` by `samplerName` with options `o` and no points yet: what runSweep fills, and
/// what a caller showing the rows as they finish starts from.
Sweep emptySweep(const Problem& p, const std::string& samplerName, const SweepOptions& o);

/// `fraction` of the whole sweep done; `finished` is the point just completed, or null.
using SweepProgressFn = std::function<void(double fraction, const SweepPoint* finished)>;

/// Runs the sweep on the calling thread. Stopping keeps the finished temperatures (`cancelled`
/// set; a temperature cut short is dropped). Throws std::invalid_argument on bad options.
Sweep runSweep(const Problem& p, const std::string& samplerName, TemperatureSampler& sampler, const SweepOptions& o,
               std::stop_token stop, const SweepProgressFn& progress);

/// The point's best schedule timed on the proxy of `p`, scored (sl::scoreSchedule). Throws
/// std::invalid_argument when the chains do not fit `p` (another graph or device count).
Schedule bestSchedule(const Problem& p, const SweepPoint& point);

/// Throws std::invalid_argument, saying why, if `s` was not made on `p`'s graph and device count.
void checkSweepFits(const Sweep& s, const Problem& p);

}   // namespace sl
