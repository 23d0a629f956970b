// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The encoder's masked attention (Gagrani et al. 2022, §4.1 eq. 4) for one graph without the
/// dense [7, N, N] bias: what makes the network run on training steps of 20,000 ops. The four edge
/// sets (reduction and redundant edges, both directions) attend over their edge lists, O(E d_k);
/// the three dense sets (the rest of the closure both ways, incomparable pairs) a block of receiver
/// rows at a time, their bias built from the closure bitsets, so memory is O(rows * N), never
/// O(N^2). The same numbers as the dense path up to float rounding (tst_encoder checks both).
/// Inference only: no gradient flows through it.

#include "models/encoder/relations.h"

#include <cstdint>
#include <vector>

#include <ATen/core/Tensor.h>

namespace sl::models {

/// The attention bias of a pair outside a head's mask, in the dense path and the sparse one alike.
inline constexpr float kMaskedBias = -1e9f;

/// Messages [N, H * dk] of `qkv` [N, 3 * H * dk] (contiguous float: q, k, v of every head, as the
/// encoder's projection lays them out). Head h attends within mask `headMask[h]` (MaskKind order).
/// `blockRows` receivers per dense block (0: about 8 M floats per block).
at::Tensor attendByRelations(const at::Tensor& qkv, const GraphRelations& relations,
                             const std::vector<std::int64_t>& headMask, std::int64_t dk, double scale,
                             std::int64_t blockRows = 0);

} // namespace sl::models
