// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Trajectories of the encode-once policy: each one a ReadyActions table stepped by its own
/// random stream (one seed per trajectory: a trajectory never depends on another's draws). For
/// training, a rollout also records every valid action of every state it passed through, so that
/// the loss recomputes log P_F with a gradient in one batched pass (readyLogPF). Includes LibTorch.

#include "models/gflownet/readypolicy.h"

#include <cstdint>
#include <stop_token>
#include <vector>

namespace sl::gfn {

/// One sampled schedule: draws from Rng(seed) until every op is placed. Empty (scheduledCount()
/// 0) if `stop` was requested.
PartialSchedule drawReadySchedule(const ScheduleEnv& env, const GraphTimes& times, const ActionScorer& scorer,
                                  std::uint64_t seed, std::stop_token stop = {});

/// What the loss needs of B trajectories: every valid action of every visited state.
struct ReadyRollout {
    std::vector<double> makespan, speedup, logReward, logPB;   ///< [B]; log P_B uniform
    std::vector<double> sampledLogPF;                          ///< [B] by the plain scorer (a check)
    std::vector<std::int64_t> actionOp, actionStep;            ///< [E]
    std::vector<float> actionFeatures;                         ///< [E, kActionFeatures]
    std::vector<std::int64_t> chosenAction, stepTrajectory;    ///< [S]
    std::vector<float> stepShift;                              ///< [S]: the largest logit (stability only)
};
ReadyRollout readyRollout(const ScheduleEnv& env, const GraphTimes& times, const ActionScorer& scorer,
                          const std::vector<std::uint64_t>& seeds, double sigma);

/// log P_F of each trajectory [B] (float64), with the gradient of `terms` and the head.
torch::Tensor readyLogPF(ReadyPolicy& net, const OpTerms& terms, const ReadyRollout& r);

} // namespace sl::gfn
