// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Batched on-policy rollouts (Zhang et al., ICLR 2023, Sec. 3.2): B trajectories of one graph advance
/// together, one encoder pass per step over [B, N, F]. The pass on s_t gives log P_F of the action
/// taken in s_t and log P_B of the action that led to s_t (its reverse), so a trajectory of n
/// actions costs n + 1 passes. Each trajectory draws from its own random stream (one seed each):
/// its actions do not depend on the other trajectories' draws. Includes LibTorch.

#include "models/gflownet/policy.h"

#include "core/gflownet/environment.h"

#include <cstdint>
#include <stop_token>
#include <vector>

namespace sl::gfn {

struct RolloutSpec {
    double sigma = 0.01;
    std::vector<std::uint64_t> seeds;   ///< one per trajectory
    bool uniformBackward = false;       ///< P_B = 1 / #removable (docs/gflownet.md)
};

struct Rollout {
    std::vector<PartialSchedule> finals;   ///< complete states (fewer when stopped early: then empty)
    torch::Tensor logPF, logPB;            ///< [B] float64: sums over the trajectory (with gradient if enabled)
    std::vector<double> makespan, speedup, logReward;
};

/// Runs the rollouts under the current grad mode. `masks` = graphMasks(env.graph()).
/// Returns an empty Rollout (no finals) if `stop` is requested before the end.
Rollout rollout(GflowNetPolicy& net, const ScheduleEnv& env, const models::EncoderInput& masks, const RolloutSpec& spec,
                std::stop_token stop = {});

/// Sampling only (no gradient, no log-probabilities): the complete states of the trajectories of
/// `seeds`, the very ones rollout() draws, with n passes instead of n + 1, no backward head and
/// direct attention. `context` = net->prepareSampling(masks, seeds.size(), sigma). Returns no
/// states if `stop` is requested before the end. Call under torch::NoGradGuard.
std::vector<PartialSchedule> sampleTrajectories(GflowNetPolicy& net, const ScheduleEnv& env,
                                                const models::EncoderContext& context,
                                                const std::vector<std::uint64_t>& seeds, std::stop_token stop = {});

/// Index of the action drawn from `probs` (non-negative, over the `valid` entries) by a uniform u in [0, 1).
int drawIndex(const double* probs, const std::uint8_t* valid, int count, double u);

} // namespace sl::gfn
