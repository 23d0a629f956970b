// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The GFlowNet candidate sampler for callers outside models/ (the `gflownet` optimizer, the
/// explorer's temperature slider). Torch-free header.
///
/// \code
///   sl::gfn::GflowNetSampler sampler(sl::gfn::defaultWeightsFor(problem));   // loads once
///   std::vector<sl::gfn::Candidate> c = sampler.sample(problem, 0.005, 1000, seed);
///   // c[i].schedule is valid and timed; c[i].speedup = sum of durations / makespan (proxy)
/// \endcode
/// Samples are in draw order; sample i depends only on (weights, problem, temperature, seed, i)
/// and on nothing else (thread settings, count, stop): inference runs under MathThreads(1) in
/// chunks whose size depends on the graph only, with one random stream per sample.

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace sl::gfn {

struct Candidate {
    Schedule schedule;     ///< ops, order, transfers and makespan; memory values not scored
    double makespan = 0;   ///< proxy makespan (the problem's time clock in chain form)
    double speedup = 0;    ///< U = work / makespan (the paper's Sec. 2.3)
};

class GflowNetSampler {
public:
    /// Loads a `gflownet-ready` (encode-once) or `gflownet` (per-state) weight file. Throws std::runtime_error naming the file and the fault.
    explicit GflowNetSampler(const std::string& weightsPath);
    ~GflowNetSampler();
    GflowNetSampler(const GflowNetSampler&) = delete;
    GflowNetSampler& operator=(const GflowNetSampler&) = delete;

    /// Called after each chunk with the samples drawn so far; false stops the sampling.
    using ChunkFn = std::function<bool(const std::vector<Candidate>& drawn)>;

    /// `count` samples at `temperature` (sigma > 0), drawn in chunks (64 on small graphs, fewer on
    /// large ones so that attention stays within about 128 MB). The first chunk is always drawn;
    /// after it, `stop` or `onChunk` returning false ends the run early (whole chunks). With
    /// `threads` > 1 the chunks run on that many workers; `onChunk` still runs on the calling
    /// thread, in chunk order, and the samples are the same as with one thread.
    /// Throws std::invalid_argument for sigma <= 0 or a graph the encoder refuses.
    std::vector<Candidate> sample(const Problem& problem, double temperature, int count, std::uint64_t seed,
                                  std::stop_token stop = {}, const ChunkFn& onChunk = {}, int threads = 1);
    /// The model card's "trained_on" text.
    std::string trainedOn() const;
    /// Encoder passes so far of an encode-once model (one per sample() call); -1 for a per-state one.
    std::int64_t encoderPasses() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Shipped weights (sl::models::modelsDir()): "gflownet.slw", the conditional model (any device
/// count; trained on 2-8). Empty if it is not installed.
std::string defaultWeightsFor(const Problem& problem);


} // namespace sl::gfn
