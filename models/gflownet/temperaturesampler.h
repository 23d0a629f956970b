// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The GFlowNet as a core TemperatureSampler (core/optimizer/sampler.h), so that the explorer's
/// Temperature panel and `schedlab-cli sweep` reach it by name ("gflownet") without torch.

namespace sl::gfn {

/// Adds "gflownet" to sl::SamplerRegistry, with the shipped weights' trained sigma range. Idempotent.
void registerGflowNetSampler();

} // namespace sl::gfn
