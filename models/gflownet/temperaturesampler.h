// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The GFlowNet as a core TemperatureSampler (core/optimizer/sampler.h), so that the explorer's
/// Temperature panel and `schedlab-cli sweep` reach it by name ("gflownet") without torch.

namespace sl::gfn {

/// Adds "gflownet" to sl::SamplerRegistry, trained on sigma in [0.01, 1] (spec §2.2). Idempotent.
void registerGflowNetSampler();

} // namespace sl::gfn
