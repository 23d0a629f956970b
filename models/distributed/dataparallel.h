// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Data-parallel training, as DistributedDataParallel does it: every rank holds the same weights,
/// computes gradients on its own batch (drawn from its own seed), and the gradients are averaged
/// over the ranks before each optimizer step, so every rank takes the same step. A world of one
/// makes every call a no-op: the trainer behaves exactly as a single process always has.
///
/// The trainers use it in five places:
/// \code
///   models::DataParallel dp(cfg.dist);
///   dp.requireSameStep(step);                     // after a resume: all ranks at one step
///   dp.broadcastParameters(params);               // rank 0's weights everywhere
///   Rng rng(deriveSeed(dp.seed(cfg.seed), step)); // this rank's batch
///   loss.backward(); dp.averageGradients(params); clip; adam.step();
///   stop = dp.anyStops(localStop);                // time limits end every rank at the same step
/// \endcode

#include "core/dist/distoptions.h"

#include <torch/types.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace sl::models {

class GlooGroup;

class DataParallel {
public:
    explicit DataParallel(const dist::DistOptions& options);   ///< joins the group (world > 1); throws dist::DistError
    ~DataParallel();
    DataParallel(const DataParallel&) = delete;
    DataParallel& operator=(const DataParallel&) = delete;

    const dist::DistOptions& options() const { return m_options; }
    bool distributed() const { return m_options.distributed(); }
    bool isRoot() const { return m_options.isRoot(); }
    int worldSize() const { return m_options.worldSize; }

    /// The seed this rank draws its data from (dist::rankSeed: `seed` itself on rank 0).
    std::uint64_t seed(std::uint64_t seed) const;

    /// Throws DistError unless every rank is at `step` (a rank that missed the checkpoint).
    void requireSameStep(std::int64_t step);
    /// Overwrites every rank's parameters (and buffers passed in) with rank 0's.
    void broadcastParameters(const std::vector<torch::Tensor>& params);
    /// Replaces each gradient by its mean over the ranks (a missing gradient counts as zero).
    void averageGradients(const std::vector<torch::Tensor>& params);
    /// True on every rank if any rank wants to stop.
    bool anyStops(bool localStop);
    /// `values` averaged over the ranks (for progress lines).
    std::vector<double> mean(std::vector<double> values);
    /// Throws DistError if any rank's parameters differ from rank 0's in any bit.
    void requireIdenticalParameters(const std::vector<torch::Tensor>& params);

private:
    dist::DistOptions m_options;
    std::unique_ptr<GlooGroup> m_group;
};

} // namespace sl::models
