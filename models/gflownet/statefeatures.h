// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Inputs of the GFlowNet policy for a batch of states of one graph (docs/gflownet.md, the per-state features), as
/// plain float arrays (torch-free).
///
/// Node columns (kNodeFeatures): duration / max duration (clamped to >= 1e-6 of the max), start /
/// (work / m) or -1 when unscheduled, device one-hot over kDeviceSlots slots (devices >= 7 share
/// the last; zero when unscheduled), ready, removable, scheduled (Zhang et al. 2023, App. E.1), and,
/// our addition, m / kDeviceSlots (one model serves several device counts).
/// Pair columns per (op, device) (kPairFeatures, our addition, zero unless the op is ready and may run
/// there): the device's tail end, the start the op would get there, that start minus the op's
/// earliest start over devices, and 1 if the device is still empty; times / (work / m).

#include "core/gflownet/environment.h"

#include <cstdint>
#include <vector>

namespace sl::gfn {

inline constexpr int kDeviceSlots = 8;
inline constexpr int kNodeFeatures = 1 + 1 + kDeviceSlots + 3 + 1;
inline constexpr int kPairFeatures = 4;

struct StateBatch {
    int batch = 0, ops = 0, devices = 0;
    std::vector<float> nodes;                 ///< [B, N, kNodeFeatures]
    std::vector<float> pairs;                 ///< [B, N, m, kPairFeatures]
    std::vector<std::uint8_t> forwardMask;    ///< [B, N, m]: valid forward actions
    std::vector<std::uint8_t> backwardMask;   ///< [B, N]: removable ops
};

/// Encodes `states` (all of the same environment, at least one).
void encodeStates(const std::vector<PartialSchedule>& states, StateBatch& out);

} // namespace sl::gfn
